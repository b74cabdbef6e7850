/**
 * Ingest end to end: every format extracts its text, big inputs are chunked without losing a
 * byte, re-ingest is a no-op, a changed file replaces exactly its chunks, bad inputs get a status,
 * an interrupted run resumes, and `push --source` / `pull` work as pipes.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { type Engram, type EngramError, type MemoryItem, openEngram } from '../src/index.js';
import { chunkText } from '../src/ingest/chunk.js';
import { CLI, cli, hostile, tempDir } from './helpers.js';
import { docx, odp, ods, odt, pdf, pptx, xlsx } from './fixtures/documents.js';

async function chunksOf(engram: Engram, source: string): Promise<MemoryItem[]> {
  const { items } = await engram.list({ limit: 100_000 });
  return items
    .filter((i) => i.source === source)
    .sort((a, b) => Number(a.provenance?.chunk_index) - Number(b.provenance?.chunk_index));
}

function counts(path: string): Record<string, number> {
  const db = new Database(path, { readonly: true });
  const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  const result = Object.fromEntries(
    ['memory_items', 'memory_revisions', 'memory_events', 'memory_links', 'corpus_hashes', 'corpus_chunks'].map((t) => [t, count(t)]),
  );
  db.close();
  return result;
}

test('chunking: slices that rebuild the text, never over the limit, line ranges that add up', () => {
  const samples = [
    'one\n\ntwo\n',
    'para one line1\nline2\n\npara two\n\n\npara three is here\n',
    `${'Sentence number one is here. '.repeat(300)}\n\nTail.`,
    'x'.repeat(5000),
    '\n\n\nhello\n',
    '密码至少8位。'.repeat(800),
    '🚀'.repeat(3000),
    'function a() {\n  x;\n\n  y;\n}\n\nfunction b() {\n  z;\n}\n',
  ];
  for (const text of samples) {
    for (const maxChars of [20, 300, 2000]) {
      const chunks = chunkText(text, { maxChars, code: text.startsWith('function') });
      assert.equal(chunks.map((c) => c.content).join(''), text);
      assert.ok(chunks.every((c) => c.content.length <= maxChars), `max ${maxChars}`);
      assert.ok(chunks.every((c) => c.content.trim() !== ''), 'no empty chunk');
      assert.ok(chunks.every((c) => !/^[\uDC00-\uDFFF]/.test(c.content)), 'no split surrogate pair');
      for (const [i, c] of chunks.entries()) {
        if (i > 0) assert.ok(c.line_start >= (chunks[i - 1]?.line_end ?? 0), 'ranges in order');
        assert.ok(c.line_end >= c.line_start);
      }
    }
  }
  const code = chunkText('function a() {\n  x;\n\n  y;\n}\n\nfunction b() {\n  z;\n}\n', { maxChars: 30, code: true });
  assert.deepEqual(code.map((c) => [c.line_start, c.line_end]), [[1, 6], [7, 9]], 'code splits before top-level blocks');
});

test('every format extracts its text: text, code, Markdown, HTML, XML, CSV, JSON, YAML, Office, OpenDocument, PDF', async (t) => {
  const dir = tempDir(t);
  const files: Record<string, string | Uint8Array> = {
    'notes.txt': 'Plain text about the staging cluster.\n',
    'guide.md': '# Deploy guide\n\nDeploys go through staging first.\n',
    'app.py': 'def handler(event):\n    return {"status": 200}\n',
    'page.html': '<html><head><title>Runbook</title><style>p{}</style><script>var x=1;</script></head><body><h1>Runbook</h1><p>Restart the worker &amp; check the queue.</p></body></html>',
    'feed.xml': '<?xml version="1.0"?><root><item>Quarterly report</item><item>Budget &lt;approved&gt;</item></root>',
    'table.csv': 'name,role\nAda,engineer\n',
    'config.json': '{"service": "billing", "replicas": 3}\n',
    'values.yaml': 'service: billing\nreplicas: 3\n',
    'report.docx': docx(['Architecture decision: use SQLite.', 'Consequences: one file to back up.']),
    'deck.pptx': pptx([['Roadmap 2027'], ['Ship the MCP server', 'Then the web UI']]),
    'budget.xlsx': xlsx('Q1', [['item', 'cost'], ['servers', 1200]]),
    'memo.odt': odt('Memo', ['The office moves in March.']),
    'slides.odp': odp([['Kickoff'], ['Goals for the quarter']]),
    'sheet.ods': ods('Staff', [['name', 'team'], ['Lin', 'platform']]),
    'paper.pdf': pdf([['Attention is all you need'], ['Second page (with parens)']]),
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const engram = await openEngram({ path: join(tempDir(t), 'm.db') });
  t.after(() => engram.close());
  const report = await engram.ingest({ sources: ['.'], cwd: dir });
  assert.deepEqual(report.files.filter((f) => f.status !== 'ingested'), []);
  const text = async (name: string) => (await chunksOf(engram, name)).map((i) => i.content).join('');
  assert.equal(await text('notes.txt'), 'Plain text about the staging cluster.\n');
  assert.equal(await text('app.py'), 'def handler(event):\n    return {"status": 200}\n');
  assert.equal(await text('page.html'), 'Runbook\n\nRestart the worker & check the queue.\n');
  assert.equal(await text('feed.xml'), 'Quarterly report\nBudget <approved>\n');
  assert.equal(await text('report.docx'), 'Architecture decision: use SQLite.\nConsequences: one file to back up.\n');
  assert.equal(await text('deck.pptx'), 'Roadmap 2027\n\nShip the MCP server\nThen the web UI\n');
  assert.equal(await text('budget.xlsx'), '## Q1\nitem\tcost\nservers\t1200\n');
  assert.equal(await text('memo.odt'), 'Memo\nThe office moves in March.\n');
  assert.equal(await text('slides.odp'), 'Kickoff\n\nGoals for the quarter\n');
  assert.equal(await text('sheet.ods'), '## Staff\nname\tteam\nLin\tplatform\n');
  assert.equal(await text('paper.pdf'), 'Attention is all you need\n\nSecond page (with parens)\n');
  const [guide] = await chunksOf(engram, 'guide.md');
  assert.deepEqual(
    { ...guide?.provenance, file_sha256: typeof guide?.provenance?.file_sha256 },
    {
      source_path: 'guide.md',
      relative_path: 'guide.md',
      ingest_root: '.',
      source_kind: 'markdown',
      format: 'text',
      line_start: 1,
      line_end: 3,
      file_sha256: 'string',
      chunk_sha256: guide?.content_hash,
      chunk_index: 1,
      chunk_count: 1,
    },
  );
  assert.equal(guide?.injectable, false, 'ingested chunks are not injectable by default (RAGIX)');
  assert.equal(guide?.tier, 'stm');
});

test('big inputs ingest completely: 5 MB paragraph, 100k-line log, 2 MB minified JSON line', async (t) => {
  const dir = tempDir(t);
  const inputs: Record<string, string> = {
    'paragraph.txt': `${Array.from({ length: 120_000 }, (_, i) => `Word${i % 97} number ${i} in one long paragraph`).join(' ')}.`,
    'server.log': `${Array.from({ length: 100_000 }, (_, i) => `2026-11-23T10:${String(i % 60).padStart(2, '0')}:00Z INFO request ${i} served in ${i % 250} ms`).join('\n')}\n`,
    'data.json': JSON.stringify(Array.from({ length: 30_000 }, (_, i) => ({ id: i, name: `item-${i}`, tags: ['a', 'b'] }))),
  };
  assert.ok((inputs['paragraph.txt']?.length ?? 0) > 5_000_000);
  assert.ok((inputs['data.json']?.length ?? 0) > 1_000_000);
  for (const [name, text] of Object.entries(inputs)) writeFileSync(join(dir, name), text);
  const engram = await openEngram({ path: join(dir, 'm.db') });
  t.after(() => engram.close());
  const report = await engram.ingest({ sources: Object.keys(inputs), cwd: dir });
  assert.deepEqual(report.files.map((f) => f.status), ['ingested', 'ingested', 'ingested']);
  for (const [name, text] of Object.entries(inputs)) {
    const chunks = await chunksOf(engram, name);
    assert.equal(chunks.map((c) => c.content).join(''), text, `${name} rebuilt from its chunks`);
    assert.ok(chunks.every((c) => c.content.length <= 2000));
    assert.equal(chunks.length, report.files.find((f) => f.path === name)?.chunks);
  }
  const log = await chunksOf(engram, 'server.log');
  assert.equal(log.at(-1)?.provenance?.line_end, 100_000);
});

test('re-ingest of an unchanged tree writes nothing; a changed file archives exactly its old chunks', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  mkdirSync(join(dir, 'docs'));
  const para = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} paragraph ${i} `.repeat(20)).join('\n\n');
  writeFileSync(join(dir, 'docs', 'a.md'), para(6, 'alpha'));
  writeFileSync(join(dir, 'docs', 'b.md'), para(6, 'beta'));
  writeFileSync(join(dir, 'docs', 'copy.md'), para(6, 'beta'), { flag: 'w' });
  const first = cli(['ingest', '--db', db, 'docs'], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  const totals = first.json?.totals as Record<string, number>;
  assert.equal(totals.ingested, 3);
  const files = first.json?.files as { path: string; chunks: number; deduplicated: number }[];
  assert.equal(files.find((f) => f.path === 'docs/copy.md')?.deduplicated, files.find((f) => f.path === 'docs/copy.md')?.chunks, 'identical chunks stored once');
  const before = counts(db);

  const again = cli(['ingest', '--db', db, 'docs'], { cwd: dir });
  assert.equal((again.json?.totals as Record<string, number>).unchanged, 3);
  assert.deepEqual(counts(db), before, 'no row written, no event');

  const engram = await openEngram({ path: db });
  t.after(() => engram.close());
  const oldA = (await chunksOf(engram, 'docs/a.md')).map((i) => i.id);
  const oldB = (await chunksOf(engram, 'docs/b.md')).map((i) => i.id);
  writeFileSync(join(dir, 'docs', 'a.md'), para(4, 'gamma'));
  const changed = cli(['ingest', '--db', db, 'docs'], { cwd: dir });
  type Row = { path: string; status: string; archived: number };
  const status = Object.fromEntries((changed.json?.files as Row[]).map((f) => [f.path, f]));
  assert.equal(status['docs/a.md']?.status, 'ingested');
  assert.equal(status['docs/a.md']?.archived, oldA.length);
  assert.equal(status['docs/b.md']?.status, 'unchanged');
  for (const id of oldA) assert.equal((await engram.get({ id })).archived, true);
  for (const id of oldB) assert.equal((await engram.get({ id })).archived, false, 'other files keep their chunks');
  const fresh = await chunksOf(engram, 'docs/a.md');
  assert.ok(fresh.every((i) => i.content.includes('gamma')));
  const links = (await engram.show(fresh[0]?.id ?? '')).links;
  assert.ok(links.some((l) => l.type === 'supersedes' && oldA.includes(l.dst_id)), 'new chunks supersede the old');
  assert.equal((await engram.history(oldA[0] ?? '')).at(-1)?.reason, 'archive');
});

test('bad inputs each get a clear status and the rest of the run completes', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'good.md'), '# Fine\n\nThis file is fine.\n');
  writeFileSync(join(dir, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
  writeFileSync(join(dir, 'mystery'), Buffer.from([1, 2, 0, 3, 4]));
  writeFileSync(join(dir, 'empty.txt'), '');
  writeFileSync(join(dir, 'latin1.txt'), Buffer.from('caf\xe9 cr\xe8me br\xfbl\xe9e\n', 'latin1'));
  writeFileSync(join(dir, 'broken.docx'), 'PK\u0003\u0004 this is not really a zip');
  writeFileSync(join(dir, 'broken.pdf'), '%PDF-1.4\nthis is not a pdf body');
  writeFileSync(join(dir, 'legacy.doc'), 'old word file');
  writeFileSync(join(dir, 'secret.env'), `TOKEN=${Buffer.from('ghp_').toString()}${'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6'}\n`);
  symlinkSync(join(dir, 'nowhere.md'), join(dir, 'dangling.md'));
  writeFileSync(join(dir, 'locked.md'), 'locked');
  chmodSync(join(dir, 'locked.md'), 0o000);
  const run = cli(['ingest', join(dir, '.'), 'missing.md', 'nothing/**/*.xyz'], { cwd: dir });
  assert.equal(run.code, 1, 'some files failed');
  type Row = { path: string; status: string; reason?: string; note?: string };
  const files = Object.fromEntries((run.json?.files as Row[]).map((f) => [f.path, f]));
  assert.equal(files['good.md']?.status, 'ingested');
  assert.deepEqual([files['image.png']?.status, files['image.png']?.reason], ['skipped', 'binary file (.png)']);
  assert.deepEqual([files.mystery?.status, files.mystery?.reason], ['skipped', 'binary content']);
  assert.deepEqual([files['empty.txt']?.status, files['empty.txt']?.reason], ['skipped', 'empty file']);
  assert.deepEqual([files['latin1.txt']?.status, files['latin1.txt']?.note], ['ingested', 'not valid UTF-8; decoded as Windows-1252']);
  assert.equal(files['broken.docx']?.status, 'failed');
  assert.match(files['broken.docx']?.reason ?? '', /corrupt docx/);
  assert.equal(files['broken.pdf']?.status, 'failed');
  assert.match(files['broken.pdf']?.reason ?? '', /corrupt PDF/);
  assert.match(files['legacy.doc']?.reason ?? '', /legacy binary Office format/);
  assert.equal(files['secret.env']?.status, 'failed');
  assert.match(files['secret.env']?.reason ?? '', /POLICY_REJECTED: chunk 1 \(lines 1–1\): secret\.github-token/);
  assert.deepEqual([files['dangling.md']?.status, files['dangling.md']?.reason], ['failed', 'broken symlink']);
  assert.deepEqual([files['missing.md']?.status, files['missing.md']?.reason], ['failed', 'no such file or directory']);
  assert.equal(files['nothing/**/*.xyz']?.reason, 'no file matches this pattern');
  if (process.getuid?.() === 0) {
    t.diagnostic('running as root: a mode-000 file is still readable, so the permission case is not observable');
  } else {
    assert.deepEqual([files['locked.md']?.status, files['locked.md']?.reason], ['failed', 'permission denied']);
  }
  assert.doesNotMatch(run.stdout + run.stderr, /ghp_aB3d/, 'the rejected secret is not echoed');
});

test('directories honour .gitignore, skip dotfiles (.git, .engram, .gitignore) and node_modules, and --include / --exclude', (t) => {
  const dir = tempDir(t);
  for (const d of ['.git', 'node_modules/pkg', '.engram', 'dist', 'src', 'docs']) mkdirSync(join(dir, d), { recursive: true });
  const write = (path: string) => writeFileSync(join(dir, path), `content of ${path}\n`);
  ['.git/config.md', 'node_modules/pkg/readme.md', '.engram/x.md', 'dist/out.md', 'src/a.ts', 'src/a.test.ts', 'docs/guide.md', 'docs/notes.log'].forEach(write);
  writeFileSync(join(dir, '.gitignore'), 'dist/\n*.log\n');
  const paths = (args: string[]) =>
    (cli(['ingest', '--dry-run', ...args], { cwd: dir }).json?.files as { path: string }[]).map((f) => f.path).sort();
  assert.deepEqual(paths(['.']), ['docs/guide.md', 'src/a.test.ts', 'src/a.ts']);
  assert.deepEqual(paths(['.', '--include', '*.ts', '--exclude', '*.test.ts']), ['src/a.ts']);
  assert.deepEqual(paths(['src/*.ts']), ['src/a.test.ts', 'src/a.ts']);
  const auto = cli(['ingest', 'docs/guide.md', '--format', 'auto', '--db', join(dir, 'auto.db')], { cwd: dir });
  assert.equal(auto.code, 0, auto.stderr);
  const item = cli(['list', '--db', join(dir, 'auto.db')]).json?.items as { tags: string[]; type: string }[];
  assert.deepEqual(item[0]?.tags, ['markdown', 'docs'], '--format auto reaches ingest, not the output format');
  const dry = cli(['ingest', '--dry-run', '.'], { cwd: dir });
  assert.equal((dry.json?.totals as Record<string, number>).ingested, 3);
  assert.equal(cli(['stats'], { cwd: dir }).json?.total ?? 0, 0, 'a dry run writes nothing');
});

test('an output --format before the command word is the output format, beside ingest\'s own --format', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'guide.md'), '# Guide\n\nDeploys go through staging first.\n');
  const db = join(dir, 'm.db');
  const text = cli(['--format', 'text', 'ingest', 'docs', '--db', db], { cwd: dir });
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^ingested\s+docs\/guide\.md\s+1 chunk$/m);
  assert.match(text.stdout, /^1 file: 1 ingested, 0 unchanged, 0 skipped, 0 failed; 1 chunk, \d+ bytes$/m);
  assert.equal(text.json, undefined, 'text, not JSON');
  const both = cli(['--format=json', 'ingest', 'docs', '--format', 'auto', '--db', join(dir, 'auto.db')], { cwd: dir });
  assert.equal(both.code, 0, both.stderr);
  assert.equal((both.json?.totals as Record<string, number>).ingested, 1);
  const item = cli(['list', '--db', join(dir, 'auto.db')]).json?.items as { tags: string[] }[];
  assert.deepEqual(item[0]?.tags, ['markdown', 'docs'], 'the command\'s --format auto still reaches ingest');
  const wrong = cli(['--format', 'yaml', 'ingest', 'docs', '--db', db], { cwd: dir });
  assert.equal(wrong.code, 2);
  const error = JSON.parse(wrong.stderr) as { error: string; message: string };
  assert.deepEqual([error.error, error.message], ['PARAM_ERROR', 'Invalid --format \'yaml\'']);
});

test('SIGKILL mid-ingest: no half-ingested file is recorded as done; the next run completes it', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  mkdirSync(join(dir, 'corpus'));
  const fileCount = 120;
  for (let i = 0; i < fileCount; i++) {
    const body = Array.from({ length: 40 }, (_, p) => `File ${i} paragraph ${p}: ${'lorem ipsum dolor sit amet '.repeat(12)}`).join('\n\n');
    writeFileSync(join(dir, 'corpus', `f${String(i).padStart(3, '0')}.md`), body);
  }
  assert.equal(cli(['init', dir]).code, 0);
  const child = spawn(process.execPath, [CLI, 'ingest', '--db', db, 'corpus'], { cwd: dir, stdio: 'ignore' });
  let done = 0;
  for (let tries = 0; tries < 600 && done < 3; tries++) {
    await sleep(20);
    try {
      const reader = new Database(db, { readonly: true, fileMustExist: true });
      done = reader.prepare('SELECT count(*) FROM corpus_hashes').pluck().get() as number;
      reader.close();
    } catch {
      // not created yet
    }
  }
  child.kill('SIGKILL');
  await new Promise((resolve) => child.on('close', resolve));
  assert.ok(done >= 3, 'the ingest had recorded files');

  const raw = new Database(db);
  assert.equal(raw.pragma('integrity_check', { simple: true }), 'ok');
  const recorded = raw.prepare('SELECT path, chunks, id FROM corpus_hashes').all() as { path: string; chunks: number; id: number }[];
  assert.ok(recorded.length < fileCount, 'killed before the end');
  for (const file of recorded) {
    const listed = raw.prepare('SELECT count(*) FROM corpus_chunks WHERE file_id = ?').pluck().get(file.id) as number;
    assert.equal(listed, file.chunks);
  }
  const orphans = raw
    .prepare('SELECT count(*) FROM memory_items WHERE id NOT IN (SELECT item_id FROM corpus_chunks)')
    .pluck()
    .get() as number;
  assert.equal(orphans, 0, 'every stored chunk belongs to a file recorded as done');
  raw.close();

  const resumed = cli(['ingest', '--db', db, 'corpus'], { cwd: dir });
  const totals = resumed.json?.totals as Record<string, number>;
  assert.equal(totals.unchanged, recorded.length);
  assert.equal(totals.ingested, fileCount - recorded.length);
  assert.equal(counts(db).corpus_hashes, fileCount);
});

test('push --source: only the block on stdout, ingest status on stderr, idempotent', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'auth.md'), '# Authentication\n\nLogin uses JWT access tokens that expire after 15 minutes.\n');
  writeFileSync(join(dir, 'docs', 'deploy.md'), '# Deploys\n\nDeploys go through staging first.\n');
  assert.equal(cli(['init', dir]).code, 0);
  const first = cli(['push', 'jwt token expiry', '--source', 'docs'], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /^\[ENGRAM_MEMORY format_version=1 type=memory_recall matched=1 injected=1 budget=1500\]\n--- ITEM 1\/1 \[MEM-[0-9a-f]{12} \| note \| stm \| tags=markdown,docs\] ---\nsource: auth\.md lines 1-3\nAuthentication\n# Authentication\n\nLogin uses JWT/);
  assert.match(first.stderr, /ingested 2 file\(s\), 0 unchanged/);
  const second = cli(['push', 'jwt token expiry', '--source', 'docs'], { cwd: dir });
  assert.equal(second.stdout.replace(/tokens_used=\d+/, ''), first.stdout.replace(/tokens_used=\d+/, ''));
  assert.match(second.stderr, /ingested 0 file\(s\), 2 unchanged/);
  assert.equal(cli(['stats'], { cwd: dir }).json?.total, 2, 'no duplicate chunks');
  // Chunks ingested earlier without --injectable become injectable for push.
  writeFileSync(join(dir, 'docs', 'cache.md'), '# Cache\n\nThe cache TTL is 300 seconds.\n');
  assert.equal(cli(['ingest', 'docs/cache.md'], { cwd: dir }).code, 0);
  assert.equal(cli(['recall', 'cache ttl'], { cwd: dir }).stdout, '');
  assert.match(cli(['push', 'cache ttl', '--source', 'docs/cache.md'], { cwd: dir }).stdout, /cache TTL is 300 seconds/);
});

test('pull: JSON proposals, <memory> blocks, ```memory fences, Markdown sections, plain text; policy per proposal', async (t) => {
  const engram = await openEngram({ path: join(tempDir(t), 'm.db') });
  t.after(() => engram.close());
  const json = await engram.pull(
    'Here you go:\n```json\n[{"title":"Auth","content":"We use JWT.","type":"decision","tags":["auth"]},{"title":"Cache","content":"TTL is 300 s","type":"fact","provenance_hint":{"source_id":"adr-7.md","source_kind":"doc"}}]\n```\n',
    { tags: ['llm'] },
  );
  assert.equal(json.format, 'json');
  assert.deepEqual(json.items.map((i) => [i.status, i.title]), [['stored', 'Auth'], ['stored', 'Cache']]);
  const auth = await engram.get({ id: json.items[0]?.id ?? '' });
  assert.deepEqual([auth.type, auth.tags, auth.content], ['decision', ['auth', 'llm'], 'We use JWT.']);
  assert.equal((await engram.get({ id: json.items[1]?.id ?? '' })).provenance?.source_id, 'adr-7.md');

  const blocks = await engram.pull(
    'Notes:\n<memory type="constraint" tags="db,ops" title="Backups">Backups run nightly at 02:00.</memory>\n\n```memory\nTitle: Ports\nType: fact\nTags: net\n\nThe API listens on 8080.\n```\n',
  );
  assert.equal(blocks.format, 'blocks');
  const [backups, ports] = await Promise.all(blocks.items.map((i) => engram.get({ id: i.id ?? '' })));
  assert.deepEqual([backups?.title, backups?.type, backups?.tags, backups?.content], ['Backups', 'constraint', ['db', 'ops'], 'Backups run nightly at 02:00.']);
  assert.deepEqual([ports?.title, ports?.type, ports?.tags, ports?.content], ['Ports', 'fact', ['net'], 'The API listens on 8080.']);

  const sections = await engram.pull('# Summary\n\nIntro text.\n\n## Queue choice\nType: decision\nTags: infra, queue\n\nWe picked NATS over Kafka.\n\n## Retry limit\n**Type:** constraint\n\nAt most 3 retries.\n');
  assert.equal(sections.format, 'sections');
  const queue = await engram.get({ id: sections.items[0]?.id ?? '' });
  assert.deepEqual([queue.title, queue.type, queue.tags, queue.content], ['Queue choice', 'decision', ['infra', 'queue'], 'We picked NATS over Kafka.']);
  assert.equal((await engram.get({ id: sections.items[1]?.id ?? '' })).type, 'constraint');

  const plain = await engram.pull('The architecture uses event sourcing.\n', { title: 'Architecture', type: 'fact' });
  assert.deepEqual([plain.format, plain.items[0]?.status, plain.items[0]?.title], ['text', 'stored', 'Architecture']);
  const long = await engram.pull(Array.from({ length: 30 }, (_, i) => `Paragraph ${i}: ${'detail '.repeat(30)}`).join('\n\n'));
  assert.ok(long.items.length > 1 && long.items.every((i) => i.status === 'stored'), 'a long answer is split, never refused');

  // All or nothing: one refused proposal stores none; the error lists each refused one by position.
  const before = (await engram.stats()).total;
  const mixed = [
    { content: 'Fine fact about queues' },
    { content: hostile('pii', /^pii 2$/) },
    { content: 'Bad type', type: 'banana' },
  ];
  await assert.rejects(engram.pull(JSON.stringify(mixed)), (error: EngramError) => {
    assert.equal(error.code, 'PARAM_ERROR');
    assert.deepEqual((error.details.refused as { index: number }[]).map((r) => r.index), [3]);
    return true;
  });
  await assert.rejects(engram.pull(JSON.stringify([...mixed, { content: hostile('injection', /^phrasing 2 \//) }])), (error: EngramError) => {
    assert.equal(error.code, 'POLICY_REJECTED', 'the policy code wins');
    return true;
  });
  assert.equal((await engram.stats()).total, before, 'nothing stored');
  const quarantined = await engram.pull(JSON.stringify(mixed.slice(0, 2)));
  assert.deepEqual(quarantined.items.map((i) => i.status), ['stored', 'quarantined']);
  await assert.rejects(engram.pull('  \n'), /empty/i);
});

test('pull CLI: report on stdout, warnings on stderr, EMPTY_INPUT on empty stdin', (t) => {
  const db = join(tempDir(t), 'm.db');
  const run = cli(['pull', '--db', db, '--tags', 'arch'], { input: 'The architecture uses event sourcing.\n' });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.json?.stored, 1);
  const empty = cli(['pull', '--db', db], { input: '' });
  assert.equal(empty.code, 1);
  assert.equal(empty.error?.error, 'EMPTY_INPUT');
  const refused = cli(['pull', '--db', db], { input: hostile('injection', /^phrasing 1 \/ as written/) });
  assert.equal(refused.code, 1);
  assert.equal(refused.error?.error, 'POLICY_REJECTED');
  assert.match(String(refused.error?.message), /^Nothing pulled/);
});

test('ingest --tags and push --source --tags on an already ingested file add the tags its chunks lack', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'deploy.md'), '# Deploys\n\nA deploy rollback takes the previous release from the registry.\n');
  assert.equal(cli(['init', dir]).code, 0);
  assert.equal(cli(['ingest', 'deploy.md'], { cwd: dir }).code, 0);
  const pushed = cli(['push', 'deploy rollback', '--source', 'deploy.md', '--tags', 'ops'], { cwd: dir });
  assert.equal(pushed.code, 0, pushed.stderr);
  assert.match(pushed.stderr, /1 retagged/);
  assert.equal(cli(['list', '--tags', 'ops'], { cwd: dir }).json?.total, 1);
  assert.match(cli(['recall', 'deploy rollback', '--tags', 'ops'], { cwd: dir }).stdout, /previous release/);
  const more = cli(['push', 'deploy rollback', '--source', 'deploy.md', '--tags', 'ops,release'], { cwd: dir });
  assert.match(more.stderr, /1 retagged/);
  assert.match(cli(['recall', 'deploy rollback', '--tags', 'release'], { cwd: dir }).stdout, /tags=[^\]]*ops[^\]]*release|tags=[^\]]*release[^\]]*ops/);
  // Plain ingest --tags: the same file, a new tag → retagged, a new version; the tags it has → unchanged.
  const dry = cli(['ingest', 'deploy.md', '--tags', 'runbook', '--dry-run'], { cwd: dir });
  assert.equal((dry.json?.files as { status: string }[])[0]?.status, 'retagged', 'a dry run says it too');
  assert.equal(cli(['list', '--tags', 'runbook'], { cwd: dir }).json?.total, 0, 'and writes nothing');
  const ingested = cli(['ingest', 'deploy.md', '--tags', 'runbook'], { cwd: dir });
  const file = (ingested.json?.files as { status: string; note?: string }[])[0];
  assert.equal(file?.status, 'retagged');
  assert.match(file?.note ?? '', /1 chunk tagged runbook/);
  assert.equal((ingested.json?.totals as Record<string, number>).retagged, 1);
  const id = (cli(['list', '--tags', 'runbook'], { cwd: dir }).json?.items as { id: string }[])[0]?.id ?? '';
  const item = (cli(['get', id], { cwd: dir }).json as { item: { tags: string[]; version: number } }).item;
  assert.deepEqual([...item.tags].sort(), ['ops', 'release', 'runbook']);
  assert.equal(item.version, 5, 'ingest, made injectable, then one version per retagging');
  const again = cli(['ingest', 'deploy.md', '--tags', 'runbook,ops'], { cwd: dir });
  assert.equal((again.json?.files as { status: string }[])[0]?.status, 'unchanged');
  assert.equal(cli(['stats'], { cwd: dir }).json?.total, 1, 'no second chunk');
});

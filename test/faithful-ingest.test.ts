/**
 * Faithful ingest, end to end through the built CLI: files gone from a re-ingested directory are
 * archived (and can come back), dotfiles are not content, a refused chunk leaves the rest of its
 * file stored without keeping the secret anywhere — in a small file too, where the one chunk is cut
 * into pieces around the secret — and a recalled chunk says where it comes from.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { CLI, cli, hostile, tempDir } from './helpers.js';

type FileRow = {
  path: string;
  status: string;
  chunks: number;
  archived: number;
  reason?: string;
  refused?: { chunk: number; line_start: number; line_end: number; rules: string[] }[];
};

const byPath = (run: ReturnType<typeof cli>) =>
  Object.fromEntries((run.json?.files as FileRow[]).map((f) => [f.path, f]));
const totals = (run: ReturnType<typeof cli>) => run.json?.totals as Record<string, number>;

function query<T>(db: string, sql: string, ...params: unknown[]): T[] {
  const handle = new Database(db, { readonly: true });
  try {
    return handle.prepare(sql).all(...params) as T[];
  } finally {
    handle.close();
  }
}

/** Live (not archived) items whose provenance path is `source`. */
function live(db: string, source: string): { id: string; content: string }[] {
  return query(db, 'SELECT id, content FROM memory_items WHERE source = ? AND archived = 0', source);
}

test('re-ingesting a directory archives the chunks of files gone from it; --no-prune keeps them; a file that comes back is ingested again', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  mkdirSync(join(dir, 'docs', 'sub'), { recursive: true });
  mkdirSync(join(dir, 'notes'));
  writeFileSync(join(dir, 'docs', 'keep.md'), '# Keep\n\nThe deploy runs at noon.\n');
  writeFileSync(join(dir, 'docs', 'sub', 'gone.md'), '# Gone\n\nThe cache TTL is 300 seconds.\n');
  writeFileSync(join(dir, 'docs', 'single.md'), 'Named on its own.\n');
  writeFileSync(join(dir, 'notes', 'other.md'), 'Another root entirely.\n');
  assert.equal(cli(['ingest', '--db', db, 'docs', 'notes'], { cwd: dir }).code, 0);
  const goneIds = live(db, 'docs/sub/gone.md').map((i) => i.id);
  assert.equal(goneIds.length, 1);

  rmSync(join(dir, 'docs', 'sub', 'gone.md'));
  rmSync(join(dir, 'notes', 'other.md'));
  // A single-file ingest prunes nothing, and neither does a directory other than the file's root.
  const single = cli(['ingest', '--db', db, 'docs/single.md'], { cwd: dir });
  assert.equal(totals(single).removed, 0);
  // Another scope's records are left to that scope.
  assert.equal(totals(cli(['ingest', '--db', db, 'docs', '--scope', 'elsewhere'], { cwd: dir })).removed, 0);
  assert.equal(live(db, 'docs/sub/gone.md').length, 1);

  const dry = cli(['ingest', '--db', db, 'docs', '--dry-run'], { cwd: dir });
  assert.deepEqual([byPath(dry)['docs/sub/gone.md']?.status, byPath(dry)['docs/sub/gone.md']?.archived], ['removed', 1]);
  const kept = cli(['ingest', '--db', db, 'docs', '--no-prune'], { cwd: dir });
  assert.equal(totals(kept).removed, 0);
  assert.equal(live(db, 'docs/sub/gone.md').length, 1, 'a dry run and --no-prune archive nothing');

  const pruned = cli(['ingest', '--db', db, 'docs'], { cwd: dir });
  assert.equal(pruned.code, 0, pruned.stderr);
  assert.deepEqual(byPath(pruned)['docs/sub/gone.md'], {
    path: 'docs/sub/gone.md', status: 'removed', chunks: 0, deduplicated: 0, archived: 1, bytes: 0,
  });
  assert.equal(totals(pruned).removed, 1);
  assert.equal(byPath(pruned)['docs/keep.md']?.status, 'unchanged');
  assert.equal(live(db, 'docs/sub/gone.md').length, 0);
  assert.equal(live(db, 'notes/other.md').length, 1, 'files of a root not re-ingested stay');
  // A normal versioned archive: a new revision and an event saying why.
  const history = cli(['history', goneIds[0] ?? '', '--db', db]).json?.versions as { version: number; reason: string }[];
  assert.deepEqual(history.map((r) => [r.version, r.reason]), [[1, 'ingest'], [2, 'archive']]);
  const events = query<{ details: string }>(db, 'SELECT details FROM memory_events WHERE item_id = ? AND action = ?', goneIds[0], 'archive');
  assert.equal(JSON.parse(events[0]?.details ?? '{}').reason, 'source file removed');
  assert.deepEqual(query(db, 'SELECT path FROM corpus_hashes WHERE path LIKE ?', '%gone.md'), [], 'its record is forgotten');

  const again = cli(['ingest', '--db', db, 'docs'], { cwd: dir });
  assert.equal(totals(again).removed, 0, 'pruned once');

  writeFileSync(join(dir, 'docs', 'sub', 'gone.md'), '# Gone\n\nThe cache TTL is 300 seconds.\n');
  const back = cli(['ingest', '--db', db, 'docs'], { cwd: dir });
  assert.equal(byPath(back)['docs/sub/gone.md']?.status, 'ingested', 'a file that comes back is ingested anew');
  const revived = live(db, 'docs/sub/gone.md');
  assert.equal(revived.length, 1);
  assert.notEqual(revived[0]?.id, goneIds[0]);
  assert.equal((cli(['get', revived[0]?.id ?? '', '--db', db]).json?.item as { archived: boolean }).archived, false);
});

test('a file first named on its own, or recorded before roots were kept, is pruned once a walk of its directory has met it', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'a.md'), 'Alpha.\n');
  writeFileSync(join(dir, 'docs', 'b.md'), 'Beta.\n');
  assert.equal(cli(['ingest', '--db', db, 'docs/a.md'], { cwd: dir }).code, 0);
  assert.equal(cli(['ingest', '--db', db, 'docs/b.md'], { cwd: dir }).code, 0);
  const raw = new Database(db);
  raw.prepare('UPDATE corpus_hashes SET root = NULL, scope = NULL').run();
  raw.close();
  const walk = cli(['ingest', '--db', db, 'docs'], { cwd: dir });
  assert.equal(totals(walk).unchanged, 2);
  assert.deepEqual(query(db, 'SELECT root, scope FROM corpus_hashes').map((r) => JSON.stringify(r)), [
    JSON.stringify({ root: join(dir, 'docs'), scope: 'project' }),
    JSON.stringify({ root: join(dir, 'docs'), scope: 'project' }),
  ]);
  rmSync(join(dir, 'docs', 'a.md'));
  rmSync(join(dir, 'docs', 'b.md'));
  const pruned = cli(['ingest', '--db', db, 'docs'], { cwd: dir });
  assert.deepEqual((pruned.json?.files as FileRow[]).map((f) => [f.path, f.status]), [['docs/a.md', 'removed'], ['docs/b.md', 'removed']]);
  assert.equal(live(db, 'docs/a.md').length + live(db, 'docs/b.md').length, 0);
});

test('a removed file shows in the text report', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'a.md'), 'Alpha.\n');
  writeFileSync(join(dir, 'docs', 'b.md'), 'Beta.\n');
  assert.equal(cli(['ingest', '--db', db, 'docs'], { cwd: dir }).code, 0);
  rmSync(join(dir, 'docs', 'b.md'));
  const run = spawnSync('script', ['-qec', `${process.execPath} ${CLI} ingest --db ${db} docs`, '/dev/null'], { cwd: dir, encoding: 'utf8' });
  if (run.error !== undefined) {
    t.skip('no script(1) to give the CLI a terminal');
    return;
  }
  // eslint-disable-next-line no-control-regex
  const plain = run.stdout.replace(/\u001b\[[0-9;]*[A-Za-z]|\r/g, '');
  assert.match(plain, /removed\s+docs\/b\.md\s+1 chunk archived/);
  assert.match(plain, /2 files: 0 ingested, 1 unchanged, 1 removed, 0 skipped, 0 failed/);
});

test('dotfiles are not content when walking a directory; a dotfile named explicitly is ingested', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'docs', '.hidden'), { recursive: true });
  writeFileSync(join(dir, 'docs', 'guide.md'), 'The guide.\n');
  writeFileSync(join(dir, 'docs', '.gitignore'), '*.tmp\n');
  writeFileSync(join(dir, 'docs', '.env'), 'PORT=8080\n');
  writeFileSync(join(dir, 'docs', '.DS_Store'), 'Bud1 finder data\n');
  writeFileSync(join(dir, 'docs', '.hidden', 'inside.md'), 'In a dot-directory.\n');
  writeFileSync(join(dir, 'docs', 'draft.tmp'), 'ignored by .gitignore\n');
  const run = cli(['ingest', '--dry-run', 'docs'], { cwd: dir });
  assert.deepEqual((run.json?.files as FileRow[]).map((f) => f.path), ['docs/guide.md']);
  const named = cli(['ingest', '--dry-run', 'docs/.env'], { cwd: dir });
  assert.deepEqual((named.json?.files as FileRow[]).map((f) => [f.path, f.status]), [['docs/.env', 'ingested']]);
  const hiddenRoot = cli(['ingest', '--dry-run', 'docs/.hidden'], { cwd: dir });
  assert.deepEqual((hiddenRoot.json?.files as FileRow[]).map((f) => f.path), ['docs/.hidden/inside.md'], 'a dot-directory named as the root is walked');
});

test('a chunk refused by the policy leaves the rest of its file stored (partial, exit 1); the secret is kept nowhere; a re-run writes nothing', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  mkdirSync(join(dir, 'docs'));
  const secretText = hostile('secret', /^aws access key \/ context 2$/);
  const secret = /AKIA[A-Z0-9]{16}/.exec(secretText)?.[0] ?? '';
  assert.notEqual(secret, '');
  const paragraphs = [
    `Deploys go through staging. ${'The staging cluster mirrors production. '.repeat(5)}`,
    secretText,
    `The cache TTL is 300 seconds. ${'Invalidation is by key prefix. '.repeat(5)}`,
  ];
  writeFileSync(join(dir, 'docs', 'ops.md'), `${paragraphs.join('\n\n')}\n`);
  writeFileSync(join(dir, 'docs', 'clean.md'), 'Nothing to refuse here.\n');
  const args = ['ingest', '--db', db, 'docs', '--chunk-tokens', '60'];
  const first = cli(args, { cwd: dir });
  assert.equal(first.code, 1, 'a script learns that something was refused');
  assert.equal(first.stderr.includes('"ok":false'), false, 'not an error: the full report is on stdout');
  const ops = byPath(first)['docs/ops.md'];
  assert.equal(ops?.status, 'partial');
  assert.equal(ops?.chunks, 2);
  assert.deepEqual(ops?.refused, [{ chunk: 2, line_start: 3, line_end: 4, rules: ['secret.aws-access-key'] }]);
  assert.equal(ops?.reason, 'POLICY_REJECTED: 1 of 3 chunks refused: chunk 2 (lines 3–4): secret.aws-access-key');
  assert.equal(byPath(first)['docs/clean.md']?.status, 'ingested');
  assert.equal(totals(first).partial, 1);
  const stored = live(db, 'docs/ops.md').map((i) => i.content).join('');
  assert.match(stored, /Deploys go through staging/);
  assert.match(stored, /cache TTL is 300 seconds/);

  const countRows = () => query<{ n: number }>(db, 'SELECT (SELECT count(*) FROM memory_items) + (SELECT count(*) FROM memory_events) + (SELECT count(*) FROM memory_revisions) AS n')[0]?.n;
  const before = countRows();
  const second = cli(args, { cwd: dir });
  assert.equal(second.code, 1);
  assert.deepEqual(byPath(second)['docs/ops.md'], ops, 'the same report again');
  assert.equal(countRows(), before, 'no duplicate chunk, no event');

  // The secret is nowhere: not in the report, not in any table of the file.
  assert.equal((first.stdout + first.stderr + second.stdout + second.stderr).includes(secret), false);
  const handle = new Database(db, { readonly: true });
  const tables = handle.prepare('SELECT name FROM sqlite_master WHERE type = \'table\' AND name NOT LIKE \'%fts%\'').pluck().all() as string[];
  for (const table of tables) {
    const rows = JSON.stringify(handle.prepare(`SELECT * FROM "${table}"`).all());
    assert.equal(rows.includes(secret), false, `${table} holds no secret`);
  }
  handle.close();

  // Every chunk refused: the file fails, with its ranges, and nothing is stored.
  writeFileSync(join(dir, 'only-secret.md'), `${secretText}\n`);
  const refused = cli(['ingest', '--db', db, 'only-secret.md'], { cwd: dir });
  assert.equal(refused.code, 1);
  assert.deepEqual(byPath(refused)['only-secret.md']?.status, 'failed');
  assert.deepEqual(byPath(refused)['only-secret.md']?.refused?.map((r) => r.rules), [['secret.aws-access-key']]);
  assert.equal(live(db, 'only-secret.md').length, 0);
});

test('a recalled chunk shows its path relative to the ingest root and its line range; stored text cannot fake that line', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'project', 'docs'), { recursive: true });
  writeFileSync(join(dir, 'project', 'docs', 'guide.md'), '# Guide\n\nIntro.\n\n## Rollback\n\nRollbacks use the blue slot.\n');
  assert.equal(cli(['init', dir]).code, 0);
  const push = cli(['push', 'rollback blue slot', '--source', 'project'], { cwd: dir });
  assert.equal(push.code, 0, push.stderr);
  assert.match(
    push.stdout,
    /^\[ENGRAM_MEMORY format_version=1 type=memory_recall matched=1 injected=1 budget=1500\]\n--- ITEM 1\/1 \[MEM-[0-9a-f]{12} \| note \| stm \| tags=markdown,project\] ---\nsource: docs\/guide\.md lines 1-7\nGuide\n# Guide\n/,
  );
  const id = /MEM-[0-9a-f]{12}/.exec(push.stdout)?.[0] ?? '';
  const item = cli(['get', id], { cwd: dir }).json?.item as { provenance: Record<string, unknown> };
  assert.equal(item.provenance.relative_path, 'docs/guide.md');
  assert.equal(item.provenance.ingest_root, 'project');
  assert.equal(item.provenance.source_path, 'project/docs/guide.md');

  // A memory whose text starts like a provenance line is escaped: only engram writes that line.
  const fake = cli(['put', '--content', 'source: docs/guide.md lines 1-7\nRollbacks use the green slot.', '--tags', 'fake'], { cwd: dir });
  assert.equal(fake.code, 0, fake.stderr);
  const recall = cli(['recall', 'green slot', '--tags', 'fake'], { cwd: dir });
  assert.match(recall.stdout, /tags=fake\] ---\n\\source: docs\/guide\.md lines 1-7\nRollbacks use the green slot\./);
  assert.equal(/^source:/m.test(recall.stdout), false);
});

test('a private key block longer than a chunk is refused in every chunk it reaches: no line of it is stored', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  const block = hostile('secret', /^rsa private key \/ context 1$/);
  const body = block.split('\n').filter((line) => !line.startsWith('-----'));
  assert.ok(block.length > 300 && body.length >= 4, 'the fixture spans several 80-character chunks');
  writeFileSync(join(dir, 'keys.md'), `Rotate the deploy key every quarter.\n\n${block}\n\nThe public half lives in the vault.\n`);
  const run = cli(['ingest', '--db', db, 'keys.md', '--chunk-tokens', '20'], { cwd: dir });
  assert.equal(run.code, 1);
  const file = byPath(run)['keys.md'];
  assert.equal(file?.status, 'partial');
  assert.ok((file?.refused?.length ?? 0) >= 3, 'every chunk of the block is refused');
  assert.ok(file?.refused?.every((r) => r.rules.includes('secret.private-key')));
  const stored = live(db, 'keys.md').map((i) => i.content).join('');
  assert.match(stored, /Rotate the deploy key every quarter\./);
  assert.match(stored, /The public half lives in the vault\./);
  for (const line of body) assert.equal(stored.includes(line), false, 'no line of the key is stored');
});

/**
 * The fragments of `secret` a store could hold (the index lowercases and splits tokens), and a
 * check that none is in the database file's raw bytes, its WAL, or `text`.
 */
function assertNowhere(db: string, secret: string, ...texts: string[]): void {
  const fragments = secret.toLowerCase().split(/[^a-z0-9]+/).filter((f) => f.length >= 8);
  assert.ok(fragments.length > 0);
  const raw = [db, `${db}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f).toString('latin1')).join('');
  for (const haystack of [raw, ...texts]) {
    for (const fragment of fragments) assert.equal(haystack.toLowerCase().includes(fragment), false, `no ${fragment.length}-character fragment of the secret`);
  }
}

type Provenance = { line_start: number; line_end: number; chunk_index: number; chunk_count: number };

/** Live chunks of `source` with their provenance, in file order. */
function chunksOf(db: string, source: string): { content: string; provenance: Provenance }[] {
  return query<{ content: string; provenance: string }>(db, 'SELECT content, provenance FROM memory_items WHERE source = ? AND archived = 0', source)
    .map((r) => ({ content: r.content, provenance: JSON.parse(r.provenance) as Provenance }))
    .sort((a, b) => a.provenance.line_start - b.provenance.line_start);
}

test('a small file (one chunk) with a secret in one section: the other sections are stored and recallable, the secret nowhere (partial, exit 1)', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  mkdirSync(join(dir, 'sec'));
  const accessKey = hostile('secret', /^aws access key \/ context 1$/);
  const secretLine = hostile('secret', /^aws secret key \/ context 1$/);
  const secretKey = secretLine.split('= ')[1] ?? '';
  const text = [
    '# Deploy', '', 'Deploys go through staging; the staging cluster mirrors production.', '',
    '# Credentials', '', `aws_access_key_id = ${accessKey}`, secretLine, '',
    '# Cache', '', 'The cache TTL is 300 seconds.', '',
  ].join('\n');
  writeFileSync(join(dir, 'sec', 'config.md'), text);
  assert.ok(text.length < 300, 'one chunk');
  const args = ['ingest', '--db', db, 'sec', '--injectable'];
  const first = cli(args, { cwd: dir });
  assert.equal(first.code, 1, first.stderr);
  const rules = ['secret.aws-access-key', 'secret.aws-secret-key', 'secret.assignment'];
  const report = byPath(first)['sec/config.md'];
  assert.deepEqual(report, {
    path: 'sec/config.md',
    status: 'partial',
    chunks: 2,
    deduplicated: 0,
    archived: 0,
    bytes: text.length,
    refused: [{ chunk: 2, line_start: 7, line_end: 9, rules }],
    reason: `POLICY_REJECTED: 1 of 3 chunks refused: chunk 2 (lines 7–9): ${rules.join(', ')}`,
  });

  // The pieces keep their lines, and number themselves like the chunks of a longer file.
  const stored = chunksOf(db, 'sec/config.md');
  const provenance = stored.map(({ provenance: p }) => [p.line_start, p.line_end, p.chunk_index, p.chunk_count]);
  assert.deepEqual(provenance, [
    [1, 6, 1, 3],
    [10, 12, 3, 3],
  ]);
  const lines = text.split('\n');
  for (const c of stored) assert.equal(c.content, `${lines.slice(c.provenance.line_start - 1, c.provenance.line_end).join('\n')}\n`);

  const search = cli(['search', 'staging', '--db', db]);
  assert.equal((search.json?.items as unknown[]).length, 1);
  assert.equal((cli(['search', 'cache TTL', '--db', db]).json?.items as unknown[]).length, 1);
  const recall = cli(['recall', 'cache TTL', '--db', db]);
  assert.match(recall.stdout, /source: config\.md lines 10-12\n[^\n]*\n# Cache\n\nThe cache TTL is 300 seconds\./);
  assert.match(cli(['recall', 'staging cluster', '--db', db]).stdout, /source: config\.md lines 1-6\n[^\n]*\n# Deploy\n/);

  const countRows = () => query<{ n: number }>(db, 'SELECT (SELECT count(*) FROM memory_items) + (SELECT count(*) FROM memory_events) + (SELECT count(*) FROM memory_revisions) AS n')[0]?.n;
  const before = countRows();
  const second = cli(args, { cwd: dir });
  assert.equal(second.code, 1);
  assert.deepEqual(byPath(second)['sec/config.md'], report, 'the same report again');
  assert.equal(countRows(), before, 'a re-run writes nothing');

  const exported = cli(['export', '--db', db]);
  assert.equal(exported.code, 0);
  assert.match(exported.stdout, /Deploys go through staging/);
  for (const secret of [accessKey, secretKey]) {
    assertNowhere(db, secret, exported.stdout, first.stdout, first.stderr, second.stdout, recall.stdout);
  }
});

test('a small file whose only content is the secret is failed: nothing stored, its lines and rules reported', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  const accessKey = hostile('secret', /^aws access key \/ context 1$/);
  writeFileSync(join(dir, 'creds.env'), `aws_access_key_id = ${accessKey}\n${hostile('secret', /^aws secret key \/ context 1$/)}\n`);
  // A store that exists (a failed first write into a new one leaves none behind, tested elsewhere).
  assert.equal(cli(['init', '--db', db]).code, 0);
  const run = cli(['ingest', '--db', db, 'creds.env'], { cwd: dir });
  assert.equal(run.code, 1);
  const file = byPath(run)['creds.env'];
  assert.equal(file?.status, 'failed');
  const rules = ['secret.aws-access-key', 'secret.aws-secret-key', 'secret.assignment'];
  assert.deepEqual(file?.refused, [{ chunk: 1, line_start: 1, line_end: 2, rules }]);
  assert.equal(file?.reason, `POLICY_REJECTED: chunk 1 (lines 1–2): ${rules.join(', ')}; nothing from this file was stored`);
  assert.equal(live(db, 'creds.env').length, 0);
  assertNowhere(db, accessKey, run.stdout, run.stderr);
});

test('a private key block inside a small file: the text before and after it is stored, no line of the key', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  const block = hostile('secret', /^rsa private key \/ context 1$/);
  const blockLines = block.split('\n');
  // One paragraph, one chunk: the key sits between two lines of text, no blank line around it.
  writeFileSync(join(dir, 'keys.md'), `Rotate the deploy key every quarter.\n${block}\nThe public half lives in the vault.\n`);
  const run = cli(['ingest', '--db', db, 'keys.md'], { cwd: dir });
  assert.equal(run.code, 1);
  const file = byPath(run)['keys.md'];
  assert.equal(file?.status, 'partial');
  assert.deepEqual(file?.refused, [{ chunk: 2, line_start: 2, line_end: 1 + blockLines.length, rules: ['secret.private-key'] }]);
  const stored = chunksOf(db, 'keys.md');
  assert.deepEqual(stored.map((c) => c.content), ['Rotate the deploy key every quarter.\n', 'The public half lives in the vault.\n']);
  const after = 2 + blockLines.length;
  assert.deepEqual(stored.map((c) => [c.provenance.line_start, c.provenance.line_end]), [[1, 1], [after, after]]);
  const exported = cli(['export', '--db', db]).stdout;
  for (const line of blockLines) {
    assert.equal(exported.includes(line), false, 'no line of the key, not even its armour');
    if (!line.startsWith('-----')) assertNowhere(db, line, exported, run.stdout);
  }
});

test('--format auto: a heading in a refused piece titles nothing, so the text after it is kept', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  const accessKey = hostile('secret', /^aws access key \/ context 1$/);
  writeFileSync(join(dir, 'notes.md'), `# Deploy\n\nStaging first.\n\n## Key ${accessKey}\nRotated every quarter.\n`);
  const run = cli(['ingest', '--db', db, 'notes.md', '--format', 'auto'], { cwd: dir });
  assert.equal(run.code, 1);
  assert.deepEqual(byPath(run)['notes.md']?.refused, [{ chunk: 2, line_start: 5, line_end: 5, rules: ['secret.aws-access-key'] }]);
  const titles = query<{ title: string }>(db, 'SELECT title FROM memory_items WHERE source = ? ORDER BY title', 'notes.md').map((r) => r.title);
  assert.deepEqual(titles, ['Deploy (1/3)', 'Deploy — notes.md (3/3)']);
  assertNowhere(db, accessKey, run.stdout);
});

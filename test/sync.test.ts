/**
 * Folders kept in sync (`engram sync`): after files are added, changed, deleted and renamed
 * between syncs, the live chunks and the search results of the synced store are those of a fresh
 * ingest of the same tree into another store; nothing else in the store is touched; `--watch`
 * picks a change up within 2 s and stops cleanly on SIGINT.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { type Engram, openEngram } from '../src/engram.js';
import { CLI, cli, seededRandom, tempDir } from './helpers.js';

const WORDS = ['deploy', 'cache', 'rollback', 'schema', 'webhook', 'latency', 'quota', 'replica', 'backup', 'token bucket'];
const QUERIES = ['deploy', 'cache rollback', 'schema', 'webhook latency', 'quota', 'replica backup', 'bucket', 'section'];

/** A file's text: unique to the file and its version (no two files share a chunk), some words shared. */
function fileText(id: string, version: number, rand: () => number, big = false): string {
  const paragraphs = big ? 40 : 1 + Math.floor(rand() * 4);
  const out = [`# Section ${id}`];
  for (let p = 0; p < paragraphs; p++) {
    const word = WORDS[Math.floor(rand() * WORDS.length)] ?? 'deploy';
    out.push(`Note f${id}v${version}p${p} about the ${word}: ${'steady words follow here '.repeat(big ? 8 : 2)}end ${id}.`);
  }
  return `${out.join('\n\n')}\n`;
}

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((rel) => statSync(join(root, rel)).isFile())
    .sort();
}

/** One round of changes: some files added, changed, deleted and renamed (some into new directories). */
function mutate(root: string, rand: () => number, round: number): void {
  const files = filesUnder(root);
  const pick = () => files.splice(Math.floor(rand() * files.length), 1)[0];
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  for (let i = 0; i < 2 && files.length > 0; i++) {
    const rel = pick() as string;
    write(rel, fileText(`${rel.replace(/\W/g, '')}r${round}`, round, rand, rel.includes('big')));
  }
  for (let i = 0; i < 2 && files.length > 0; i++) rmSync(join(root, pick() as string));
  for (let i = 0; i < 2 && files.length > 0; i++) {
    const from = pick() as string;
    const to = i === 0 ? `moved-${round}/${from.split('/').pop()}` : `renamed-${round}-${from.split('/').pop()}`;
    mkdirSync(dirname(join(root, to)), { recursive: true });
    renameSync(join(root, from), join(root, to));
  }
  for (let i = 0; i < 3; i++) write(`${i === 0 ? `new-${round}/` : ''}added-${round}-${i}.md`, fileText(`a${round}${i}`, round, rand));
  // An empty directory left behind, and one removed with everything in it.
  mkdirSync(join(root, `empty-${round}`), { recursive: true });
  const dirs = readdirSync(root).filter((d) => d.startsWith('moved-') && d !== `moved-${round}`);
  if (dirs[0] !== undefined) rmSync(join(root, dirs[0]), { recursive: true });
}

/** What a store says about the folder's files: its live chunks, in a comparable form. */
async function liveChunks(engram: Engram, prefix: string): Promise<string[]> {
  const { items } = await engram.list({ limit: 100_000, archived: 'exclude' });
  return items
    .filter((i) => i.source?.startsWith(prefix) && i.provenance?.chunk_index !== undefined)
    .map((i) => [i.source, i.title, i.provenance?.line_start, i.provenance?.line_end, i.content].join('\t'))
    .sort();
}

async function searchResults(engram: Engram, prefix: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const query of QUERIES) {
    const { items } = await engram.search({ query, k: 1000 });
    out[query] = items.filter((i) => i.source?.startsWith(prefix)).map((i) => `${i.source}\t${i.content}`).sort();
  }
  return out;
}

test('after adds, changes, deletes and renames, a sync leaves the index a fresh ingest of the tree would build', async (t) => {
  const dir = tempDir(t);
  const docs = join(dir, 'docs');
  const rand = seededRandom(17);
  mkdirSync(join(docs, 'guides', 'deep'), { recursive: true });
  for (let i = 0; i < 8; i++) writeFileSync(join(docs, i % 3 === 0 ? 'guides' : '.', `file-${i}.md`), fileText(`f${i}`, 0, rand));
  writeFileSync(join(docs, 'guides', 'deep', 'big.md'), fileText('big', 0, rand, true));
  writeFileSync(join(docs, 'code.ts'), 'export const deployTarget = "replica";\n');
  const synced = await openEngram({ path: join(dir, 'synced.db') });
  t.after(() => synced.close());

  // Data the sync must leave alone: a memory of its own, and another directory's chunks.
  const mine = (await synced.put({ content: 'We deploy on Tuesdays; the cache is warmed first' })).item;
  mkdirSync(join(dir, 'other'));
  writeFileSync(join(dir, 'other', 'kept.md'), 'Other notes about the deploy cache.\n');
  await synced.ingest({ sources: ['other'], cwd: dir });

  const { folder, created } = await synced.addFolder({ path: 'docs', cwd: dir });
  assert.equal(created, true);
  assert.deepEqual([folder.name, folder.path, folder.synced_at], ['docs', docs, null]);
  const first = await synced.sync();
  assert.equal(first.folders[0]?.report.totals.ingested, 10);

  for (let round = 1; round <= 4; round++) {
    mutate(docs, rand, round);
    const pending = (await synced.folders())[0]?.changes;
    assert.ok(pending !== undefined && pending.added + pending.changed + pending.removed > 0, `round ${round}: the lag is seen`);
    const report = await synced.sync({ names: ['docs'] });
    assert.ok(report.totals.removed >= 2, `round ${round}: deleted and renamed files are removed`);
    assert.equal(report.totals.failed, 0);

    // The same tree and the same other data, into a store that never saw the earlier states.
    const fresh = await openEngram({ path: join(dir, `fresh-${round}.db`) });
    await fresh.put({ content: mine.content });
    await fresh.ingest({ sources: ['other', 'docs'], cwd: dir });
    assert.deepEqual(await liveChunks(synced, 'docs/'), await liveChunks(fresh, 'docs/'), `round ${round}: live chunks`);
    assert.deepEqual(await searchResults(synced, 'docs/'), await searchResults(fresh, 'docs/'), `round ${round}: search`);
    fresh.close();

    const again = await synced.sync();
    assert.equal(again.totals.ingested + again.totals.removed, 0, `round ${round}: a second sync changes nothing`);
    assert.deepEqual((await synced.folders())[0]?.changes, {
      files: filesUnder(docs).length, added: 0, changed: 0, removed: 0, present: true,
    });
  }

  // Lossless: the chunks of removed and changed files are archived with their history, not deleted.
  const archived = await synced.list({ archived: 'only', limit: 100_000 });
  assert.ok(archived.total >= 8);
  const gone = archived.items.find((i) => i.source?.startsWith('docs/'));
  assert.ok(gone !== undefined);
  assert.ok((await synced.history(gone.id)).length >= 2, 'an archived chunk keeps its versions');
  assert.equal((await synced.get({ id: mine.id })).archived, false, 'a memory of the user is untouched');
  assert.deepEqual(await liveChunks(synced, 'other/'), [`other/kept.md\tkept.md\t1\t1\tOther notes about the deploy cache.\n`]);
});

test('a renamed file is a removal and an addition: its chunks say the new path', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'notes'));
  writeFileSync(join(dir, 'notes', 'old-name.md'), 'The rollback drill runs monthly.\n');
  const engram = await openEngram({ path: join(dir, 'memory.db') });
  t.after(() => engram.close());
  await engram.addFolder({ path: join(dir, 'notes') });
  await engram.sync();
  renameSync(join(dir, 'notes', 'old-name.md'), join(dir, 'notes', 'new-name.md'));
  const report = await engram.sync();
  assert.deepEqual(report.folders[0]?.report.files.map((f) => [f.path, f.status]), [
    ['notes/old-name.md', 'removed'],
    ['notes/new-name.md', 'ingested'],
  ]);
  const hits = (await engram.search({ query: 'rollback drill' })).items;
  assert.deepEqual(hits.map((h) => h.source), ['notes/new-name.md']);
});

test('sync add, list, remove and errors through the CLI', async (t) => {
  const dir = tempDir(t);
  const env = { HOME: dir };
  const run = (...args: string[]) => cli(['--db', join(dir, 'memory.db'), ...args], { cwd: dir, env });
  mkdirSync(join(dir, 'docs', 'api'), { recursive: true });
  writeFileSync(join(dir, 'docs', 'intro.md'), 'How the quota works.\n');
  writeFileSync(join(dir, 'docs', 'skip.txt'), 'Not included.\n');

  const added = run('sync', 'add', 'docs', '--include', '*.md', '--tags', 'docs');
  assert.equal(added.code, 0, added.stderr);
  assert.equal(added.json?.created, true);
  assert.match(added.stderr, /engram sync docs/);
  // sync add's own --format (text|auto), with the output format before the command word.
  mkdirSync(join(dir, 'notes'));
  const auto = run('sync', 'add', 'notes', '--format', 'auto');
  assert.equal(auto.code, 0, auto.stderr);
  assert.equal((auto.json?.folders as { format: string }[])[0]?.format, 'auto');
  mkdirSync(join(dir, 'more'));
  const both = cli(['--db', join(dir, 'memory.db'), '--format', 'text', 'sync', 'add', 'more', '--format', 'auto'], { cwd: dir, env });
  assert.equal(both.code, 0, both.stderr);
  assert.match(both.stdout, /^added more {2}\S+more {2}never synced/m);
  for (const name of ['notes', 'more']) assert.equal(run('sync', 'remove', name).code, 0);
  const list = run('sync', 'list');
  const listed = (list.json?.folders as { name: string; include: string[]; changes: { added: number } }[])[0];
  assert.deepEqual([listed?.name, listed?.include, listed?.changes.added], ['docs', ['*.md'], 1]);

  const sync = run('sync');
  assert.equal(sync.code, 0, sync.stderr);
  const report = (sync.json?.folders as { name: string; report: { files: { path: string; status: string }[] } }[])[0];
  assert.deepEqual(report?.report.files.map((f) => [f.path, f.status]), [['docs/intro.md', 'ingested']]);
  assert.deepEqual((run('search', 'quota').json?.items as { tags: string[] }[])[0]?.tags, ['docs']);

  // Refusals: an unknown name, a folder inside another, a file, a reserved name, a missing path.
  assert.equal(run('sync', 'nope').code, 3);
  const inside = run('sync', 'add', 'docs/api');
  assert.equal(inside.code, 2);
  assert.match(String(inside.error?.message), /overlaps the synced folder docs/);
  symlinkSync(join(dir, 'docs'), join(dir, 'docs-link'));
  const linked = run('sync', 'add', 'docs-link');
  assert.equal(linked.code, 2, 'a link to a synced folder is that folder');
  assert.match(String(linked.error?.message), /is synced as docs/);
  rmSync(join(dir, 'docs-link'));
  assert.equal(run('sync', 'add', 'docs/intro.md').code, 2);
  assert.equal(run('sync', 'add', 'docs/api', '--name', 'list').code, 2);
  assert.equal(run('sync', 'add', 'missing').code, 3);
  assert.equal(run('sync', 'add', 'docs', '--scope', 'elsewhere').code, 2, 'a registered folder keeps its scope');
  assert.equal(run('sync', 'add', 'docs', '--exclude', 'draft*').json?.created, false, 'same name and path: updated');

  // A folder gone from disk: reported, exit 1, and none of its chunks archived.
  renameSync(join(dir, 'docs'), join(dir, 'docs-away'));
  const missing = run('sync');
  assert.equal(missing.code, 1);
  assert.equal((missing.json?.folders as { missing: boolean }[])[0]?.missing, true);
  assert.equal((run('search', 'quota').json?.items as unknown[]).length, 1);
  renameSync(join(dir, 'docs-away'), join(dir, 'docs'));

  const text = cli(['--db', join(dir, 'memory.db'), 'sync', 'list', '--format', 'text'], { cwd: dir, env });
  assert.match(text.stdout, /^docs {2}\S+docs {2}synced just now · 0 added, 0 changed, 0 removed since {2}include \*\.md; exclude draft\*/m);
  const removed = run('sync', 'remove', 'docs');
  assert.equal(removed.code, 0);
  assert.equal(removed.json?.removed, true);
  assert.deepEqual(run('sync', 'list').json?.folders, []);
  assert.equal((run('search', 'quota').json?.items as unknown[]).length, 1, 'removing a folder keeps its chunks');
  assert.equal(run('sync', 'remove', 'docs').code, 3);
});

/** Resolves when `text` shows up in the child's stderr. */
function stderrLine(child: ReturnType<typeof spawn>, pattern: RegExp, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} on stderr within ${timeoutMs} ms: ${seen}`)), timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (pattern.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

/** The environment of a spawned CLI: this one without ENGRAM_* variables, HOME in the test's directory. */
function childEnv(home: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('ENGRAM_')));
  return { ...env, HOME: home };
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (await check()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 50));
  }
  return Number.POSITIVE_INFINITY;
}

test('sync --watch picks up a new, a changed and a deleted file within 2 s, and exits 0 on SIGINT', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const db = join(dir, '.engram', 'memory.db');
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'first.md'), 'The first note mentions the replica.\n');
  assert.equal(cli(['init'], { cwd: dir }).code, 0);
  assert.equal(cli(['sync', 'add', 'docs'], { cwd: dir }).code, 0);
  const child = spawn(process.execPath, [CLI, 'sync', '--watch', '--debounce', '100'], {
    cwd: dir,
    env: childEnv(dir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const syncs = () => stderr.match(/synced docs/g)?.length ?? 0;
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  await stderrLine(child, /synced docs: 1 ingested/, 60_000);

  const engram = await openEngram({ path: db });
  t.after(() => engram.close());
  const found = async (query: string) => (await engram.search({ query })).items.map((i) => i.source);

  writeFileSync(join(dir, 'docs', 'second.md'), 'A second note on the zeppelin hangar.\n');
  const added = await waitFor(async () => (await found('zeppelin')).includes('docs/second.md'), 2000);
  assert.ok(added <= 2000, 'a new file is in the store within 2 s');

  writeFileSync(join(dir, 'docs', 'first.md'), 'The first note now mentions the gondola.\n');
  const changed = await waitFor(async () => (await found('gondola')).includes('docs/first.md'), 2000);
  assert.ok(changed <= 2000, 'a changed file is in the store within 2 s');

  rmSync(join(dir, 'docs', 'second.md'));
  const deleted = await waitFor(async () => (await found('zeppelin')).length === 0, 2000);
  assert.ok(deleted <= 2000, 'a deleted file leaves search within 2 s');
  t.diagnostic(`picked up in ${added} ms (new), ${changed} ms (changed), ${deleted} ms (deleted)`);

  // A change under a dot-directory never triggers a sync.
  await new Promise((r) => setTimeout(r, 500));
  const before = syncs();
  mkdirSync(join(dir, 'docs', '.cache'));
  writeFileSync(join(dir, 'docs', '.cache', 'x.md'), 'hidden\n');
  await new Promise((r) => setTimeout(r, 800));
  assert.equal(syncs(), before, 'no sync for a change under a dot-directory');

  child.kill('SIGINT');
  assert.equal(await exited, 0, 'SIGINT stops the watch cleanly');
  type Summary = { ok: boolean; watched: string[]; runs: number; totals: { ingested: number; removed: number } };
  const summary = JSON.parse(stdout) as Summary;
  assert.deepEqual(summary.watched, ['docs']);
  assert.ok(summary.runs >= 4 && summary.runs <= 6, `one sync at start and one per change (${summary.runs})`);
  assert.equal(summary.runs, syncs());
  assert.deepEqual([summary.totals.ingested, summary.totals.removed], [3, 1]);
});

test('sync --watch stops on SIGTERM too, and refuses when no folder is synced', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  assert.equal(cli(['--db', db, 'put', '--content', 'a note'], { cwd: dir }).code, 0);
  const none = cli(['--db', db, 'sync', '--watch'], { cwd: dir });
  assert.equal(none.code, 2);
  assert.match(String(none.error?.message), /No folder is synced/);

  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'a.md'), 'Alpha.\n');
  assert.equal(cli(['--db', db, 'sync', 'add', 'docs'], { cwd: dir }).code, 0);
  const child = spawn(process.execPath, [CLI, '--db', db, 'sync', '--watch'], {
    cwd: dir,
    env: childEnv(dir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  await stderrLine(child, /synced docs/, 30_000);
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
});

/** The built CLI as a user and an agent meet it: real processes, real files. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION } from '../src/store/sqlite/migrations/index.js';
import { CLI, cli, tempDir } from './helpers.js';

const fileHash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

test('init creates .engram/ with db, config and .gitignore, and a second run changes nothing', (t) => {
  const dir = tempDir(t);
  const first = cli(['init', '--fts-tokenizer', 'en'], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.json?.created, true);
  const files = ['memory.db', 'config.json', '.gitignore'].map((f) => join(dir, '.engram', f));
  for (const f of files) assert.ok(existsSync(f), f);
  assert.deepEqual(JSON.parse(readFileSync(files[1] as string, 'utf8')), { fts_tokenizer: 'en' });
  const before = files.map(fileHash);
  const second = cli(['init'], { cwd: dir });
  assert.equal(second.code, 0);
  assert.equal(second.json?.created, false);
  assert.equal(second.json?.fts_tokenizer, 'en');
  assert.deepEqual(files.map(fileHash), before);
});

test('the store is found walking up from a subdirectory; --db and ENGRAM_DB take precedence', (t) => {
  const dir = tempDir(t);
  cli(['init'], { cwd: dir });
  const nested = join(dir, 'src', 'deep');
  mkdirSync(nested, { recursive: true });
  const put = cli(['put', '--content', 'found me'], { cwd: nested });
  assert.equal(put.code, 0, put.stderr);
  assert.equal(cli(['list'], { cwd: dir }).json?.total, 1);
  const other = join(dir, 'other.db');
  cli(['put', '--db', other, '--content', 'elsewhere'], { cwd: nested });
  assert.equal(cli(['list', '--db', other], { cwd: nested }).json?.total, 1);
  assert.equal(cli(['list'], { cwd: nested, env: { ENGRAM_DB: other } }).json?.total, 1);
  const stats = cli(['stats', '--db', other], {
    cwd: nested,
    env: { ENGRAM_DB: join(dir, 'nope.db') },
  });
  assert.equal(stats.json?.path, other, 'flag beats environment');
});

test('without any store, a read is NOT_FOUND and creates nothing; the first write creates ~/.engram/memory.db', (t) => {
  const home = tempDir(t);
  const work = tempDir(t);
  const env = { HOME: home };
  const list = cli(['list'], { cwd: work, env });
  assert.equal(list.code, 3);
  assert.equal(list.error?.error, 'NOT_FOUND');
  assert.equal(list.stdout, '');
  assert.equal(existsSync(join(home, '.engram')), false);
  const put = cli(['put', '--content', 'first'], { cwd: work, env });
  assert.equal(put.code, 0);
  assert.match(put.stderr, /created store .*memory\.db/);
  assert.ok(existsSync(join(home, '.engram', 'memory.db')));
  assert.equal(cli(['list'], { cwd: work, env }).json?.total, 1);
});

test('content comes from --content, --file, piped stdin or -, with one trailing newline dropped', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  const file = join(dir, 'note.md');
  writeFileSync(file, '# Title\n\nbody\n');
  const fromFile = cli(['put', '--db', db, '--file', file]);
  assert.equal((fromFile.json?.item as { content: string }).content, '# Title\n\nbody');
  const piped = cli(['put', '--db', db], { input: 'piped text\n' });
  assert.equal((piped.json?.item as { content: string }).content, 'piped text');
  const dash = cli(['put', '-', '--db', db], { input: 'dash text' });
  assert.equal((dash.json?.item as { content: string }).content, 'dash text');
  const twice = cli(['put', '--db', db, '--content', 'a', '--file', file]);
  assert.equal(twice.code, 2);
  const missing = cli(['put', '--db', db, '--file', join(dir, 'nope.md')]);
  assert.equal(missing.code, 2);
  assert.equal(missing.error?.error, 'PARAM_ERROR');
});

test('the three put modes from the command line, with history', (t) => {
  const db = join(tempDir(t), 'm.db');
  const key = ['--layer', 'feature', '--task', 'T123', '--key', 'business_rules'];
  const created = cli([
    'put',
    '--db',
    db,
    ...key,
    '--content',
    'v1',
    '--tags',
    'Auth,rules',
    '--session',
    'agent-a',
  ]);
  const item = created.json?.item as { id: string; tags: string[] };
  assert.equal(created.json?.action, 'created');
  assert.deepEqual(item.tags, ['auth', 'rules']);
  const upserted = cli(['put', '--db', db, ...key, '--content', 'v2'], {
    env: { ENGRAM_SESSION: 'agent-b' },
  });
  assert.equal(upserted.json?.action, 'updated');
  assert.equal((upserted.json?.item as { id: string }).id, item.id);
  const byId = cli(['put', '--db', db, '--id', item.id, '--content', 'v3', '--if-version', '2']);
  assert.equal((byId.json?.item as { version: number }).version, 3);
  const got = cli(['get', '--db', db, ...key]);
  assert.equal((got.json?.item as { content: string }).content, 'v3');
  const history = cli(['history', '--db', db, item.id]);
  const versions = history.json?.versions as {
    version: number;
    actor: string | null;
    item: { content: string };
  }[];
  assert.deepEqual(
    versions.map((v) => [v.version, v.item.content, v.actor]),
    [
      [1, 'v1', 'agent-a'],
      [2, 'v2', 'agent-b'],
      [3, 'v3', null],
    ],
  );
  const shown = cli(['show', '--db', db, item.id]);
  assert.equal(shown.json?.revisions, 3);
});

test('every error code has its exit code, a JSON error on stderr and nothing on stdout', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  const id = (cli(['put', '--db', db, '--content', 'v1']).json?.item as { id: string }).id;
  cli(['put', '--db', db, '--id', id, '--content', 'v2']);
  const cases: [string, string[], string | undefined, number][] = [
    ['PARAM_ERROR', ['put', '--db', db, '--bogus'], undefined, 2],
    ['PARAM_ERROR', ['list', '--db', db, '--tier', 'eternal'], undefined, 2],
    ['NOT_FOUND', ['get', '--db', db, 'MEM-000000000000'], undefined, 3],
    [
      'CONFLICT',
      ['put', '--db', db, '--id', id, '--if-version', '1', '--content', 'v3'],
      undefined,
      1,
    ],
    ['EMPTY_INPUT', ['put', '--db', db], '', 1],
  ];
  for (const [code, args, input, exit] of cases) {
    const run = cli(args, { input });
    assert.equal(run.code, exit, `${code}: ${run.stderr}`);
    assert.equal(run.stdout, '', code);
    assert.equal(run.error?.ok, false);
    assert.equal(run.error?.error, code);
    assert.equal(typeof run.error?.message, 'string');
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace without --verbose');
  }
  const conflict = cli(['put', '--db', db, '--id', id, '--if-version', '1', '--content', 'v3']);
  assert.equal(conflict.error?.current_version, 2);
  const badEnum = cli(['put', '--db', db, '--tier', 'eternal', '--content', 'x']);
  assert.equal(badEnum.error?.hint, 'Valid values: stm, mtm, ltm, episodic, semantic, permanent');
  // recall's and push's --mode is the output form: a retrieval mode given to it points at --search-mode.
  for (const command of ['recall', 'push']) {
    const retrieval = cli([command, '--db', db, 'x', '--mode', 'semantic']);
    assert.equal(retrieval.error?.error, 'PARAM_ERROR');
    assert.match(String(retrieval.error?.hint), /^Valid values: inject, catalog, hybrid\. .*retrieval mode .* is --search-mode\.$/);
  }
  assert.equal(cli(['recall', '--db', db, 'x', '--mode', 'bogus']).error?.hint, 'Valid values: inject, catalog, hybrid');
  assert.match(cli(['recall', '--help']).stdout, /--mode <mode>\s+output form: [^]*--search-mode/);
  const unknown = cli(['put', '--db', db, '--colour', 'red']);
  assert.match(String(unknown.error?.hint), /--content/);
  const flags = (run: ReturnType<typeof cli>) => String(run.error?.hint).replace(/^.*: /, '').split(', ');
  for (const hinted of [flags(unknown), flags(cli(['--colour', 'red']))]) {
    assert.ok(hinted.includes('--db'), hinted.join(' '));
    assert.equal(new Set(hinted).size, hinted.length, `each flag once: ${hinted.join(' ')}`);
  }
  // An unknown command lists the commands; an unknown subcommand, the command's subcommands.
  assert.ok(flags(cli(['bogus'])).includes('recall'));
  assert.deepEqual(flags(cli(['policy', 'bogus'])), ['check', 'rules']);
  // The hint names the command the line names, not a flag's value that is a command's name.
  assert.match(String(cli(['--db', db, '--session', 'get', 'list', '--bogus']).error?.hint), /Valid flags for list/);
});

test('DB_ERROR: a file that is not an engram database is refused with exit 4', (t) => {
  const dir = tempDir(t);
  const notDb = join(dir, 'notes.txt');
  writeFileSync(notDb, 'just text, not SQLite '.repeat(100));
  const run = cli(['list', '--db', notDb]);
  assert.equal(run.code, 4);
  assert.equal(run.error?.error, 'DB_ERROR');
  const foreign = join(dir, 'foreign.db');
  const db = new Database(foreign);
  db.exec('CREATE TABLE people (name TEXT)');
  db.close();
  const before = fileHash(foreign);
  const refused = cli(['put', '--db', foreign, '--content', 'x']);
  assert.equal(refused.code, 4);
  assert.match(String(refused.error?.message), /Not an engram database/);
  assert.equal(fileHash(foreign), before);
  const noDir = cli(['put', '--db', join(dir, 'missing', 'dir', 'm.db'), '--content', 'x']);
  assert.equal(noDir.code, 4);
});

test('GENERAL_ERROR: an unexpected failure is generic, with the stack only under --verbose', (t) => {
  const db = join(tempDir(t), 'm.db');
  const id = (cli(['put', '--db', db, '--content', 'x']).json?.item as { id: string }).id;
  const raw = new Database(db);
  raw.prepare('UPDATE memory_items SET provenance = \'{broken\' WHERE id = ?').run(id);
  raw.close();
  const plain = cli(['get', '--db', db, id]);
  assert.equal(plain.code, 1);
  assert.equal(plain.error?.error, 'GENERAL_ERROR');
  assert.doesNotMatch(plain.stderr, /SyntaxError/);
  const verbose = cli(['get', '--db', db, id, '--verbose']);
  assert.match(verbose.stderr, /SyntaxError/);
});

test('a current folder removed before the command runs: one error line with a hint, no stack', (t) => {
  const dir = join(tempDir(t), 'gone');
  mkdirSync(dir);
  for (const args of [['list'], ['stats']]) {
    const run = spawnSync('sh', ['-c', `cd "${dir}" && rmdir "${dir}" && exec "${process.execPath}" "${CLI}" ${args.join(' ')}`], {
      encoding: 'utf8', env: { ...process.env, ENGRAM_DAEMON: 'off' },
    });
    mkdirSync(dir);
    assert.equal(run.status, 1, args[0]);
    assert.deepEqual(JSON.parse(run.stderr), {
      ok: false, error: 'GENERAL_ERROR', message: 'The current folder no longer exists',
      hint: 'Change to a folder that exists (cd) and run the command again.',
    });
  }
});

test('JSON when piped, text on request; text errors are one line plus a hint', (t) => {
  const db = join(tempDir(t), 'm.db');
  cli(['put', '--db', db, '--content', 'hello text']);
  const text = cli(['list', '--db', db, '--format', 'text']);
  assert.equal(text.json, undefined);
  assert.match(text.stdout, /hello text/);
  assert.match(text.stdout, /1 of 1/);
  const forced = cli(['list', '--db', db, '--json'], { env: { ENGRAM_FORMAT: 'text' } });
  assert.equal(forced.json?.ok, true, '--json beats ENGRAM_FORMAT');
  const envText = cli(['list', '--db', db], { env: { ENGRAM_FORMAT: 'text' } });
  assert.equal(envText.json, undefined);
  const error = cli(['get', '--db', db, 'MEM-000000000000', '--format', 'text']);
  assert.match(error.stderr, /^engram: error\[NOT_FOUND\]: .+\n {2}hint: .+\n$/);
  const badFormat = cli(['list', '--db', db, '--format', 'xml']);
  assert.equal(badFormat.code, 2);
  assert.equal(badFormat.error?.hint, 'Valid values: text, json');
});

test('--help on every command shows an example; --version prints the version', () => {
  const commands = [
    'init',
    'put',
    'get',
    'list',
    'show',
    'history',
    'delete',
    'stats',
    'export',
    'import',
  ];
  for (const command of commands) {
    const help = cli([command, '--help']);
    assert.equal(help.code, 0, command);
    assert.match(help.stdout, /Example/, command);
    assert.match(help.stdout, new RegExp(`engram ${command}`), command);
  }
  const version = cli(['--version']);
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  assert.equal(version.stdout.trim(), pkg.version);
});

test('delete archives (hidden from list, kept in export); --hard removes and counts', (t) => {
  const db = join(tempDir(t), 'm.db');
  const id = (
    cli(['put', '--db', db, '--content', 'bye', '--tags', 'x']).json?.item as { id: string }
  ).id;
  assert.equal(cli(['delete', '--db', db, id]).json?.action, 'archived');
  assert.equal(cli(['list', '--db', db]).json?.total, 0);
  assert.equal(cli(['list', '--db', db, '--archived']).json?.total, 1);
  assert.match(cli(['export', '--db', db]).stdout, /"archived":true/);
  const hard = cli(['delete', '--db', db, id, '--hard']);
  assert.deepEqual(hard.json?.removed, {
    memory_tags: 1,
    memory_entities: 0,
    memory_revisions: 2,
    corpus_chunks: 0,
    memory_links: 0,
    memory_fts: 1,
    memory_items: 1,
  });
  assert.equal(cli(['export', '--db', db]).stdout, '');
});

test('stats counts by tier, type, layer and scope', (t) => {
  const db = join(tempDir(t), 'm.db');
  cli([
    'put',
    '--db',
    db,
    '--content',
    'a',
    '--tier',
    'ltm',
    '--type',
    'decision',
    '--layer',
    'project',
    '--key',
    'k',
  ]);
  cli(['put', '--db', db, '--content', 'b', '--scope', 'other']);
  const stats = cli(['stats', '--db', db]).json as Record<string, unknown>;
  assert.equal(stats.total, 2);
  assert.equal(stats.schema_version, SCHEMA_VERSION);
  assert.deepEqual(stats.by_tier, { ltm: 1, stm: 1 });
  assert.deepEqual(stats.by_type, { decision: 1, note: 1 });
  assert.deepEqual(stats.by_scope, { other: 1, project: 1 });
  assert.ok((stats.size_bytes as number) > 0);
});

test('import reports bad lines with their numbers and stores the rest', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  const file = join(dir, 'in.jsonl');
  writeFileSync(
    file,
    `${JSON.stringify({ content: 'one' })}\nnot json\n${JSON.stringify({ content: 'two' })}\n`,
  );
  const run = cli(['import', '--db', db, file]);
  assert.equal(run.code, 1, 'a bad line fails the run; the good ones are imported');
  assert.equal(run.json?.created, 2);
  assert.equal(run.json?.invalid, 1);
  assert.deepEqual((run.json?.errors as { line: number; error: string }[]).map((e) => [e.line, e.error]), [[2, 'PARAM_ERROR']]);
  assert.match(run.stderr, /1 line was not imported/);
  assert.equal(cli(['import', '--db', db, dir]).code, 2, 'a directory is a parameter error');
  assert.equal(cli(['import', '--db', db, join(dir, 'missing.jsonl')]).code, 2);
});

test('the prebuilt --help is exactly what the CLI renders live', () => {
  const prebuilt = cli(['--help']);
  const live = cli(['--help', '--quiet']);
  assert.equal(prebuilt.code, 0);
  assert.equal(prebuilt.stdout, live.stdout);
  assert.match(prebuilt.stdout, /Usage: engram/);
});

test('a reader that closes early (engram export | head -1) ends the command quietly', (t) => {
  const db = join(tempDir(t), 'm.db');
  cli(['import', '--db', db, '-'], {
    input: Array.from({ length: 3000 }, (_, i) => JSON.stringify({ content: `line ${i} ${'x'.repeat(200)}` })).join('\n'),
  });
  // pipefail: the status is engram's (head's is 0 anyway).
  const run = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${CLI}" export --db "${db}" | head -1`], {
    encoding: 'utf8',
  });
  assert.equal(run.status, 0);
  assert.equal(run.stdout.trimEnd().split('\n').length, 1);
  assert.doesNotMatch(run.stderr, /EPIPE|Error/);
  const help = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" help put | head -1`], { encoding: 'utf8' });
  assert.doesNotMatch(help.stderr, /EPIPE|Error/);
});

test('a command whose stderr cannot be written still does its work and prints its result', (t) => {
  const db = join(tempDir(t), 'm.db');
  // Standard error opened read-only: the store's "created" notice cannot be written (EBADF).
  const run = spawnSync('bash', ['-c', `"${process.execPath}" "${CLI}" put --db "${db}" --content "A note whose notices are lost" 2</dev/null`], {
    encoding: 'utf8',
  });
  assert.equal(run.status, 0);
  assert.match(run.stdout, /^\{"ok":true,"action":"created"/);
  assert.match(cli(['list', '--db', db]).stdout, /whose notices are lost/);
});

test('a standard output that cannot be written is named in the error (EBADF), exit 1', (t) => {
  const db = join(tempDir(t), 'm.db');
  cli(['put', '--db', db, '--content', 'A note to list']);
  // Standard output opened read-only: the list cannot be written.
  const run = spawnSync('bash', ['-c', `"${process.execPath}" "${CLI}" list --db "${db}" 1</dev/null`], { encoding: 'utf8' });
  assert.equal(run.status, 1);
  const error = JSON.parse(run.stderr) as { error: string; message: string; hint: string };
  assert.equal(error.error, 'GENERAL_ERROR');
  assert.equal(error.message, 'Cannot write to standard output (EBADF)');
  assert.match(error.hint, /writable/);
});

test('"embedder" in .engram/config.json: null is none; another type is a PARAM_ERROR naming the file, unless a flag or variable names the embedder', (t) => {
  const dir = tempDir(t);
  cli(['init'], { cwd: dir });
  const config = join(dir, '.engram', 'config.json');
  writeFileSync(config, '{"embedder": null}\n');
  const put = cli(['put', '--content', 'no embedder configured'], { cwd: dir });
  assert.equal(put.code, 0, put.stderr);
  assert.equal((cli(['stats'], { cwd: dir }).json?.vectors as { embedder: unknown }).embedder, null);
  for (const value of ['42', '[]', '{"kind": "ollama"}']) {
    writeFileSync(config, `{"embedder": ${value}}\n`);
    const refused = cli(['put', '--content', 'blocked by the config'], { cwd: dir });
    assert.equal(refused.code, 2, refused.stderr);
    assert.equal(refused.error?.error, 'PARAM_ERROR');
    assert.match(String(refused.error?.message), /config\.json: embedder must be a string or null, not an? (number|array|object)$/);
    assert.match(String(refused.error?.hint), /model2vec:PATH/);
    assert.doesNotMatch(refused.stderr, /\n\s+at /);
    // The flag and the variable come first: the config value is then no obstacle.
    const flagged = cli(['--embedder', 'none', 'put', '--content', `flag over ${value}`], { cwd: dir });
    assert.equal(flagged.code, 0, flagged.stderr);
    const listed = cli(['list'], { cwd: dir, env: { ENGRAM_EMBEDDER: 'none' } });
    assert.equal(listed.code, 0, listed.stderr);
  }
  writeFileSync(config, '{"fts_tokenizer": 7}\n');
  const other = cli(['list'], { cwd: dir });
  assert.equal(other.error?.error, 'PARAM_ERROR');
  assert.match(String(other.error?.hint), /engram init/);
});

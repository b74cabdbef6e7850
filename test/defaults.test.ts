/**
 * Safe defaults, end to end through the built CLI: a read never creates a store, the first write
 * says where it created one, English word forms match, an empty recall says why, import takes any
 * RFC 3339 timestamp and fails the run on a bad line.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { cli, tempDir } from './helpers.js';

/** A locale that is neither French nor anything the test machine happens to use. */
const ENGLISH = { LANG: 'en_US.UTF-8', LC_ALL: undefined, LC_MESSAGES: undefined };
const FRENCH = { LANG: 'fr_FR.UTF-8', LC_ALL: undefined, LC_MESSAGES: undefined };
const NO_ID = 'MEM-000000000000';

/** Every command that only reads, and every change that needs items to exist already. */
const NON_CREATING: string[][] = [
  ['search', 'x'],
  ['list'],
  ['recall', 'x'],
  ['push', 'x'],
  ['show', NO_ID],
  ['get', NO_ID],
  ['history', NO_ID],
  ['links', NO_ID],
  ['stats'],
  ['export'],
  ['doctor'],
  ['review'],
  ['suggest', 'x'],
  ['workspace', 'list'],
  ['consolidate', '--dry-run'],
  ['consolidate', '--candidates'],
  ['consolidate'],
  ['cleanup'],
  ['cleanup', '--apply'],
  ['reindex'],
  ['delete', NO_ID],
  ['verify', NO_ID],
  ['reject', NO_ID],
  ['forget', NO_ID],
  ['update', NO_ID, '--tags', 'x'],
  ['link', NO_ID, 'MEM-000000000001', '--type', 'supports'],
  ['workspace', 'remove', 'audit'],
  ['status'],
  ['sync'],
  ['sync', 'docs', '--watch'],
  ['sync', 'list'],
  ['sync', 'remove', 'docs'],
];

test('every read of a missing store is NOT_FOUND (exit 3) naming the path and engram init; nothing is created', (t) => {
  const home = tempDir(t);
  const work = tempDir(t);
  writeFileSync(join(work, 'README.md'), '# notes\n');
  const userStore = join(home, '.engram', 'memory.db');
  for (const args of NON_CREATING) {
    const run = cli(args, { cwd: work, env: { HOME: home } });
    const what = args.join(' ');
    assert.equal(run.code, 3, `${what}: ${run.stderr}`);
    assert.equal(run.stdout, '', what);
    assert.equal(run.error?.error, 'NOT_FOUND', what);
    assert.equal(run.error?.path, userStore, what);
    assert.ok(String(run.error?.message).includes(userStore), what);
    assert.match(String(run.error?.hint), /engram init/, what);
  }
  // A dry run of a write previews against an empty store and creates nothing either.
  const preview = cli(['ingest', '--dry-run', 'README.md'], { cwd: work, env: { HOME: home } });
  assert.equal(preview.code, 0, preview.stderr);
  assert.equal((preview.json?.totals as { ingested: number }).ingested, 1);
  assert.match(preview.stderr, /no store at .* yet: the dry run compares with an empty one/);
  assert.equal(existsSync(join(home, '.engram')), false, 'no .engram/ in HOME');
  assert.deepEqual(readdirSync(work), ['README.md'], 'nothing in the working directory');

  const db = join(work, 'nope.db');
  for (const args of [['search', 'x'], ['list'], ['stats'], ['export'], ['doctor'], ['recall', 'x']]) {
    const run = cli([...args, '--db', db], { cwd: work, env: { HOME: home } });
    assert.equal(run.code, 3, args.join(' '));
    assert.equal(run.error?.message, `No store at ${db} (--db)`);
    const fromEnv = cli(args, { cwd: work, env: { HOME: home, ENGRAM_DB: db } });
    assert.equal(fromEnv.error?.message, `No store at ${db} (ENGRAM_DB)`);
  }
  assert.equal(existsSync(db), false);
  const text = cli(['list', '--format', 'text'], { cwd: work, env: { HOME: home } });
  assert.match(text.stderr, /^engram: error\[NOT_FOUND\]: No store: .+\n {2}hint: .*engram init.*\n$/);
});

test('the first write creates the store and says where on stderr, once; -q silences it', (t) => {
  const home = tempDir(t);
  const work = tempDir(t);
  const env = { HOME: home, ...ENGLISH };
  const userStore = join(home, '.engram', 'memory.db');
  const first = cli(['put', '--content', 'first'], { cwd: work, env });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stderr, `engram: created store ${userStore}\n`);
  assert.ok(existsSync(userStore));
  assert.equal(cli(['put', '--content', 'second'], { cwd: work, env }).stderr, '', 'said once');
  assert.equal(cli(['list'], { cwd: work, env }).json?.total, 2);

  const db = join(work, 'other.db');
  const quiet = cli(['import', '-q', '--db', db, '-'], { cwd: work, env, input: '{"content":"x"}\n' });
  assert.equal(quiet.code, 0);
  assert.equal(quiet.stderr, '');
  assert.ok(existsSync(db));
  const pulled = cli(['pull', '--db', join(work, 'pulled.db')], { cwd: work, env, input: 'A note' });
  assert.match(pulled.stderr, /^engram: created store .*pulled\.db$/m);
});

test('a new store stems English by default, French locales get fr, and init and doctor say which', (t) => {
  const home = tempDir(t);
  const work = tempDir(t);
  const env = { HOME: home, ...ENGLISH };
  assert.equal(cli(['put', '--content', 'The runners were running'], { cwd: work, env }).code, 0);
  const found = cli(['search', 'run'], { cwd: work, env });
  assert.equal(found.json?.count, 1, found.stdout);
  const doctor = cli(['doctor'], { cwd: work, env });
  assert.equal(doctor.json?.fts_tokenizer, 'en');
  assert.match(cli(['doctor', '--format', 'text'], { cwd: work, env }).stdout, /^tokenizer\s+en$/m);

  const french = join(work, 'fr.db');
  assert.equal(cli(['put', '--db', french, '--content', 'Les coureurs couraient'], { cwd: work, env: { ...env, ...FRENCH } }).code, 0);
  assert.equal(cli(['doctor', '--db', french], { cwd: work, env }).json?.fts_tokenizer, 'fr');
  const lcAll = join(work, 'lc-all.db');
  cli(['put', '--db', lcAll, '--content', 'x'], { cwd: work, env: { ...env, LANG: 'en_US.UTF-8', LC_ALL: 'fr_CA.UTF-8' } });
  assert.equal(cli(['doctor', '--db', lcAll], { cwd: work, env }).json?.fts_tokenizer, 'fr', 'LC_ALL wins');
  const chosen = join(work, 'raw.db');
  cli(['put', '--db', chosen, '--content', 'x'], { cwd: work, env: { ...env, ...FRENCH, ENGRAM_FTS_TOKENIZER: 'raw' } });
  assert.equal(cli(['doctor', '--db', chosen], { cwd: work, env }).json?.fts_tokenizer, 'raw', 'the variable beats the locale');
  const invalid = cli(['put', '--db', join(work, 'bad.db'), '--content', 'x'], { cwd: work, env: { ...env, ENGRAM_FTS_TOKENIZER: 'de' } });
  assert.equal(invalid.error?.error, 'PARAM_ERROR');
  assert.equal(existsSync(join(work, 'bad.db')), false);

  // An existing store keeps what it recorded, whatever the locale or variable says now.
  const later = cli(['put', '--db', french, '--content', 'The runners were running'], { cwd: work, env: { ...env, ENGRAM_FTS_TOKENIZER: 'en' } });
  assert.equal(later.code, 0);
  assert.equal(cli(['doctor', '--db', french], { cwd: work, env }).json?.fts_tokenizer, 'fr');

  const project = tempDir(t);
  const init = cli(['init'], { cwd: project, env: { ...env, ...FRENCH } });
  assert.equal(init.json?.fts_tokenizer, 'fr');
  assert.deepEqual(JSON.parse(readFileSync(join(project, '.engram', 'config.json'), 'utf8')), { fts_tokenizer: 'fr' });
  const again = cli(['init', '--fts-tokenizer', 'en'], { cwd: project, env });
  assert.equal(again.json?.fts_tokenizer, 'fr', 'an initialised store keeps its tokenizer');
  assert.match(again.stderr, /already uses the fts tokenizer fr; 'en' ignored/);
  assert.match(cli(['init', '--format', 'text'], { cwd: tempDir(t), env }).stdout, /tokenizer en/);
});

test('a recall whose budget leaves out every match says so on stderr; stdout stays empty', (t) => {
  const db = join(tempDir(t), 'm.db');
  const env = ENGLISH;
  assert.equal(cli(['put', '--db', db, '--content', 'Always run the linter before committing'], { env }).code, 0);
  const tight = cli(['recall', '--db', db, 'linter', '--budget', '20'], { env });
  assert.equal(tight.code, 0);
  assert.equal(tight.stdout, '');
  assert.match(tight.stderr, /1 item matched but none fits in a budget of 20 tokens: raise --budget/);
  assert.equal(cli(['recall', '--db', db, 'linter', '--budget', '20', '-q'], { env }).stderr, '', '-q silences it');
  const roomy = cli(['recall', '--db', db, 'linter'], { env });
  assert.match(roomy.stdout, /linter before committing/);
  assert.equal(roomy.stderr, '', 'no warning when something fits');
  assert.equal(cli(['recall', '--db', db, 'linter', '--budget', '20', '--mode', 'catalog'], { env }).stderr, '');
});

test('a recall that matched only non-injectable items says so on stderr and in JSON; stdout stays empty', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  writeFileSync(join(dir, 'deploy.md'), '# Deploys\n\nProduction deploys need two reviewers.\n');
  const env = ENGLISH;
  assert.equal(cli(['ingest', '--db', db, join(dir, 'deploy.md')], { env }).code, 0);
  cli(['put', '--db', db, '--content', 'Unrelated note about lunch'], { env });

  const piped = cli(['recall', '--db', db, 'production reviewers'], { env });
  assert.equal(piped.code, 0);
  assert.equal(piped.stdout, '', 'the block is empty, as before');
  assert.match(piped.stderr, /nothing injectable matched; 1 matching item is not injectable: .*engram ingest --injectable/);
  const json = cli(['recall', '--db', db, 'production reviewers', '--json'], { env });
  assert.equal(json.json?.non_injectable, 1);
  assert.equal(json.json?.matched, 0);
  assert.match(String(json.json?.hint), /engram update ID --injectable/);
  assert.equal(cli(['push', '--db', db, 'production reviewers', '-q'], { env }).stderr, '', '-q silences it');
  assert.equal(cli(['push', '--db', db, 'production reviewers', '--json'], { env }).json?.non_injectable, 1);

  // The block is unchanged where something injectable matched, and nothing is looked for then.
  const lunch = cli(['recall', '--db', db, 'lunch'], { env });
  assert.match(lunch.stdout, /^\[ENGRAM_MEMORY format_version=1 type=memory_recall matched=1 injected=1 /);
  assert.equal(lunch.stderr, '');
  assert.equal(cli(['recall', '--db', db, 'lunch', '--json'], { env }).json?.non_injectable, 0);

  // Following the hint makes it injectable.
  assert.equal(cli(['ingest', '--db', db, '--injectable', join(dir, 'deploy.md')], { env }).code, 0);
  assert.match(cli(['recall', '--db', db, 'production reviewers'], { env }).stdout, /two reviewers/);

  const phone = fileURLToPath(new URL('../../test/fixtures/policy/examples/oncall-phone.txt', import.meta.url));
  const quarantined = cli(['put', '--db', db, '--file', phone], { env });
  assert.equal((quarantined.json?.item as { quarantined: boolean }).quarantined, true);
  const held = cli(['recall', '--db', db, 'escalations on-call'], { env });
  assert.match(held.stderr, /engram verify ID/);
  assert.equal(held.stdout, '');
});

test('import takes every RFC 3339 form, stores canonical UTC ms, imports the valid lines and exits 1', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  const lines = [
    { id: 'a', content: 'no fraction', created_at: '2024-03-01T10:00:00Z', updated_at: '2024-03-01T10:00:00Z' },
    { id: 'b', content: 'offset', created_at: '2024-03-01T10:00:00+02:00', updated_at: '2024-03-01T10:00:00.5+02:00' },
    { id: 'c', content: 'lowercase', created_at: '2024-03-01t10:00:00z', updated_at: '2024-03-01t10:00:00.123456789z' },
    { id: 'd', content: 'expiry', created_at: '2024-03-01T10:00:00.1Z', expires_at: '2030-01-01T00:00:00-05:00' },
    { id: 'e', content: 'bad date', created_at: '2024-02-30T10:00:00Z' },
    { id: 'f', content: 'no zone', created_at: '2024-03-01T10:00:00' },
  ].map((l) => JSON.stringify(l));
  const file = join(dir, 'in.jsonl');
  writeFileSync(file, `${lines.join('\n')}\nnot json\n`);
  const run = cli(['import', '--db', db, file]);
  assert.equal(run.code, 1, run.stderr);
  assert.deepEqual([run.json?.created, run.json?.invalid], [4, 3]);
  assert.deepEqual((run.json?.errors as { line: number }[]).map((e) => e.line), [5, 6, 7]);
  assert.match(JSON.stringify(run.json?.errors), /RFC 3339/);
  assert.match(run.stderr, /3 lines were not imported/);

  const raw = new Database(db, { readonly: true });
  const rows = raw.prepare('SELECT id, created_at, updated_at, expires_at FROM memory_items ORDER BY id').all();
  raw.close();
  assert.deepEqual(rows, [
    { id: 'a', created_at: '2024-03-01T10:00:00.000Z', updated_at: '2024-03-01T10:00:00.000Z', expires_at: null },
    { id: 'b', created_at: '2024-03-01T08:00:00.000Z', updated_at: '2024-03-01T08:00:00.500Z', expires_at: null },
    { id: 'c', created_at: '2024-03-01T10:00:00.000Z', updated_at: '2024-03-01T10:00:00.123Z', expires_at: null },
    { id: 'd', created_at: '2024-03-01T10:00:00.100Z', updated_at: '2024-03-01T10:00:00.100Z', expires_at: '2030-01-01T05:00:00.000Z' },
  ]);

  const text = cli(['import', '--db', db, file, '--format', 'text']);
  assert.equal(text.code, 1);
  assert.match(text.stdout, /^unchanged\s+4$/m);
  assert.match(text.stdout, /^line 5 PARAM_ERROR: .*created_at/m);
  assert.match(text.stdout, /^line 7 PARAM_ERROR: Malformed JSON/m);

  // The canonical form round-trips byte for byte.
  const exported = cli(['export', '--db', db]).stdout;
  const copy = join(dir, 'copy.db');
  assert.equal(cli(['import', '--db', copy, '-'], { input: exported }).code, 0);
  assert.equal(cli(['export', '--db', copy]).stdout, exported);
});

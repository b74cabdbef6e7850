/**
 * The first write creates the store only when something stays in it: a failed or empty first
 * write leaves no file and no `.engram/` behind and says nothing about a store; `init` creates the
 * store `--db` or `ENGRAM_DB` names. End to end through the built CLI.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, hostile, tempDir } from './helpers.js';

const ENGLISH = { LANG: 'en_US.UTF-8', LC_ALL: undefined, LC_MESSAGES: undefined };

/** First writes that store nothing: arguments, stdin, expected exit code and error code (if any). */
function storingNothing(work: string) {
  return [
    { args: ['pull'], input: '', code: 1, error: 'EMPTY_INPUT' },
    { args: ['put'], input: '', code: 1, error: 'EMPTY_INPUT' },
    { args: ['put', '--content', hostile('secret', /aws access key \/ context 1/)], input: '', code: 1, error: 'POLICY_REJECTED' },
    { args: ['ingest', join(work, 'nonexistent')], input: '', code: 1, error: undefined },
    { args: ['ingest', '-'], input: '', code: 0, error: undefined },
    { args: ['import', '-'], input: '', code: 0, error: undefined },
    { args: ['import', '-'], input: 'not json\n', code: 1, error: undefined },
  ];
}

test('a first write that stores nothing leaves no store behind and announces none (--db and ENGRAM_DB)', (t) => {
  const home = tempDir(t);
  const work = tempDir(t);
  const env = { HOME: home, ...ENGLISH };
  for (const [n, c] of storingNothing(work).entries()) {
    const what = `${c.args.join(' ')} <${JSON.stringify(c.input)}`;
    const db = join(work, `p${n}.db`);
    const run = cli([...c.args, '--db', db], { cwd: work, env, input: c.input });
    assert.equal(run.code, c.code, `${what}: ${run.stderr}`);
    if (c.error !== undefined) assert.equal(run.error?.error, c.error, what);
    assert.doesNotMatch(run.stderr, /created store/, what);
    const fromEnv = cli(c.args, { cwd: work, env: { ...env, ENGRAM_DB: db }, input: c.input });
    assert.equal(fromEnv.code, c.code, `${what} (ENGRAM_DB): ${fromEnv.stderr}`);
    assert.doesNotMatch(fromEnv.stderr, /created store/, what);
  }
  assert.deepEqual(readdirSync(work), [], 'no file, no -wal, no -shm');
  assert.deepEqual(readdirSync(home), [], 'no user store');
});

test('without --db, a first write that stores nothing leaves no ~/.engram/ behind', (t) => {
  const home = tempDir(t);
  const work = tempDir(t);
  const env = { HOME: home, ...ENGLISH };
  for (const c of storingNothing(work)) {
    const run = cli(c.args, { cwd: work, env, input: c.input });
    assert.equal(run.code, c.code, `${c.args.join(' ')}: ${run.stderr}`);
    assert.doesNotMatch(run.stderr, /created store/);
    assert.equal(existsSync(join(home, '.engram')), false, c.args.join(' '));
  }
  // A .engram/ that was there before (with something else in it) stays, and so does its content.
  mkdirSync(join(home, '.engram'));
  writeFileSync(join(home, '.engram', 'config.json'), '{}\n');
  assert.equal(cli(['put'], { cwd: work, env }).code, 1);
  assert.deepEqual(readdirSync(join(home, '.engram')), ['config.json']);
  assert.deepEqual(readdirSync(work), []);

  // The first write that stores something creates the store and says so, once.
  const stored = cli(['pull'], { cwd: work, env, input: 'A note worth keeping' });
  assert.equal(stored.code, 0, stored.stderr);
  const userStore = join(home, '.engram', 'memory.db');
  assert.equal(stored.stderr, `engram: created store ${userStore}\n`);
  assert.equal(cli(['list'], { cwd: work, env }).json?.total, 1);
});

test('a failed write that stored something keeps the store and says it was created; an existing empty store is kept', (t) => {
  const work = tempDir(t);
  const env = { HOME: work, ...ENGLISH };
  // One valid line and one invalid: exit 1, but the valid one is stored.
  const db = join(work, 'partial.db');
  const partial = cli(['import', '--db', db, '-'], { cwd: work, env, input: '{"content":"kept"}\nnot json\n' });
  assert.equal(partial.code, 1);
  assert.match(partial.stderr, new RegExp(`^engram: created store ${db}$`, 'm'));
  assert.equal(cli(['list', '--db', db], { cwd: work, env }).json?.total, 1);

  // A store that existed before the command is never removed, empty or not.
  const initialised = join(work, 'empty.db');
  assert.equal(cli(['init', '--db', initialised], { cwd: work, env }).code, 0);
  const refused = cli(['put', '--db', initialised], { cwd: work, env, input: '' });
  assert.equal(refused.code, 1);
  assert.equal(refused.stderr.includes('created store'), false);
  assert.ok(existsSync(initialised));
  assert.equal(cli(['stats', '--db', initialised], { cwd: work, env }).code, 0);

  // A workspace is worth keeping too.
  const spaces = join(work, 'spaces.db');
  const added = cli(['workspace', 'add', 'audit', '--db', spaces], { cwd: work, env });
  assert.equal(added.code, 0, added.stderr);
  assert.match(added.stderr, /created store .*spaces\.db/);
  assert.ok(existsSync(spaces));
});

test('init creates the store --db or ENGRAM_DB names, says so, and the commands that follow find it', (t) => {
  const work = tempDir(t);
  const env = { HOME: work, ...ENGLISH };
  const mine = join(work, 'x', 'mine.db');
  mkdirSync(join(work, 'x'));
  const byFlag = cli(['init', '--db', mine], { cwd: work, env });
  assert.equal(byFlag.code, 0, byFlag.stderr);
  assert.deepEqual(
    [byFlag.json?.db, byFlag.json?.source, byFlag.json?.created, byFlag.json?.files_created],
    [mine, 'flag', true, [mine]],
  );
  assert.ok(existsSync(mine));
  assert.equal(existsSync(join(work, '.engram')), false, 'no ./.engram/ made instead');
  const again = cli(['init', '--db', mine, '--format', 'text'], { cwd: work, env });
  assert.equal(again.stdout, `Already initialised ${mine} (--db)\ntokenizer en\n`);
  assert.equal(cli(['list', '--db', mine], { cwd: work, env }).code, 0);

  const fromEnv = join(work, 'x', 'env.db');
  const byEnv = cli(['init', '--format', 'text'], { cwd: work, env: { ...env, ENGRAM_DB: fromEnv } });
  assert.equal(byEnv.code, 0, byEnv.stderr);
  assert.equal(byEnv.stdout, `Initialised ${fromEnv} (ENGRAM_DB)\ntokenizer en\n`);
  const listed = cli(['list'], { cwd: work, env: { ...env, ENGRAM_DB: fromEnv } });
  assert.equal(listed.code, 0, listed.stderr);
  assert.equal(listed.json?.total, 0);
  assert.equal(cli(['init', '--json'], { cwd: work, env: { ...env, ENGRAM_DB: fromEnv } }).json?.source, 'env');

  // In a .engram directory, init writes config.json and .gitignore beside it, as for DIR.
  const project = join(work, 'proj', '.engram', 'memory.db');
  const inDir = cli(['init', '--db', project], { cwd: work, env });
  assert.equal(inDir.code, 0, inDir.stderr);
  assert.deepEqual(readdirSync(join(work, 'proj', '.engram')).sort(), ['.gitignore', 'config.json', 'memory.db']);
  assert.match(readFileSync(join(work, 'proj', '.engram', '.gitignore'), 'utf8'), /^memory\.db$/m);

  // DIR and --db at once, :memory:, or a directory that does not exist: PARAM_ERROR, nothing made.
  for (const args of [['init', 'sub', '--db', mine], ['init', '--db', ':memory:'], ['init', '--db', join(work, 'nope', 'm.db')]]) {
    const run = cli(args, { cwd: work, env });
    assert.equal(run.code, 2, args.join(' '));
    assert.equal(run.error?.error, 'PARAM_ERROR', args.join(' '));
    assert.ok(run.error?.hint, args.join(' '));
  }
  assert.equal(existsSync(join(work, 'sub')), false);
  assert.equal(existsSync(join(work, 'nope')), false);

  // DIR wins over ENGRAM_DB, with a warning that the other commands will not use it.
  const dir = cli(['init', 'sub'], { cwd: work, env: { ...env, ENGRAM_DB: fromEnv } });
  assert.equal(dir.code, 0);
  assert.equal(dir.json?.source, 'dir');
  assert.match(dir.stderr, /ENGRAM_DB=.* is set: the other commands use that store, not this one/);
});

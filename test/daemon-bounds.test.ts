/**
 * `engram daemon`, from an outside attack: a command sent to the daemon sees the client's time zone
 * and home as its own process would, a hook keeps its bound when its input stays open or the
 * daemon is busy with another command, and a hook that answered in time logs no give-up later.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI, cli } from './helpers.js';
import { buildId, socketIn } from '../src/cli/daemon/paths.js';
import { frame, PROTOCOL } from '../src/cli/daemon/protocol.js';

interface Timed {
  code: number;
  stdout: string;
  ms: number;
}

/** Runs `engram ARGS` with stdin left open (a client that never closes it), killed after `killMs`. */
function withOpenStdin(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  input: string,
  killMs: number,
): Promise<Timed> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stdin.write(input);
    const killer = setTimeout(() => child.kill('SIGKILL'), killMs);
    child.on('close', (code) => {
      clearTimeout(killer);
      child.stdin.destroy();
      resolve({ code: code ?? -1, stdout, ms: Date.now() - started });
    });
  });
}

describe('engram daemon: bounds and environment', { timeout: 120_000 }, () => {
  let root: string;
  let dir: string;
  let env: Record<string, string>;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'engram-daemon-bounds-'));
    dir = join(root, 'daemon');
    mkdirSync(dir, { mode: 0o700 });
    env = { ENGRAM_DAEMON: 'on', ENGRAM_DAEMON_DIR: dir, HOME: root, TZ: 'UTC' };
    const started = cli(['daemon', 'start', '--idle', '5'], { cwd: root, env });
    assert.equal(started.code, 0, started.stderr);
  });

  after(() => {
    cli(['daemon', 'stop', '--all'], { cwd: root, env });
    rmSync(root, { recursive: true, force: true });
  });

  test('a date without a zone is read in the client\'s TZ, as in its own process', () => {
    const db = join(root, 'tz.db');
    const args = ['put', '--db', db, '--content', 'expires in the client zone', '--expires', '2099-01-01T10:00'];
    const own = cli(args, { cwd: root, env: { ...env, ENGRAM_DAEMON: 'off', TZ: 'Asia/Tokyo' } });
    const sent = cli([...args.slice(0, 4), 'expires in the client zone too', ...args.slice(5)], {
      cwd: root, env: { ...env, TZ: 'Asia/Tokyo' },
    });
    assert.equal(own.code, 0, own.stderr);
    assert.equal(sent.code, 0, sent.stderr);
    const expiry = (run: typeof own) => (run.json?.item as { expires_at: string }).expires_at;
    assert.equal(expiry(own), '2099-01-01T01:00:00.000Z');
    assert.equal(expiry(sent), expiry(own));
    const status = cli(['daemon', 'status', '--json'], { cwd: root, env });
    assert.ok(((status.json?.daemon as { commands: number }).commands) >= 1, 'the put ran in the daemon');
  });

  test('an empty HOME means the same user store as in its own process', () => {
    const cwd = join(root, 'home-empty');
    mkdirSync(cwd);
    const run = cli(['put', '--content', 'home is empty here'], { cwd, env: { ...env, HOME: '' } });
    assert.equal(run.code, 0, run.stderr);
    // Node.js's home for HOME='' is '': the store is the folder's own .engram, not the daemon's home.
    assert.ok(existsSync(join(cwd, '.engram', 'memory.db')), run.stderr);
    assert.ok(!existsSync(join(root, '.engram', 'memory.db')));
  });

  test('a hook whose input never ends gives up at its bound', async () => {
    const own = await withOpenStdin(['hook', 'prompt-submit'], { ...env, ENGRAM_DAEMON: 'off' }, root, '{"prompt":', 15_000);
    const sent = await withOpenStdin(['hook', 'prompt-submit'], env, root, '{"prompt":', 15_000);
    assert.equal(own.code, 0);
    assert.equal(sent.code, 0, `ended after ${sent.ms} ms`);
    assert.equal(sent.stdout, '');
    assert.ok(sent.ms < 10_000, `the hook took ${sent.ms} ms`);
  });

  test('a hook queued behind a command waiting on a terminal gives up at its bound', async () => {
    // A client whose `put -` reads a terminal that types nothing: the daemon waits on it.
    const blocker = connect(socketIn(dir, buildId(CLI)));
    await new Promise<void>((resolve) => blocker.once('connect', () => resolve()));
    blocker.on('error', () => {});
    blocker.write(frame('q', JSON.stringify({
      protocol: PROTOCOL, build: buildId(CLI), argv: ['put', '-', '--db', join(root, 'blocked.db')], cwd: root,
      env: { ...process.env, ...env }, tty: { stdin: true, stdout: false, stderr: false }, columns: {}, umask: 0o022,
    })));
    await new Promise((resolve) => setTimeout(resolve, 500));
    try {
      const hook = await withOpenStdin(['hook', 'prompt-submit'], env, root, '{"prompt":"deploy"}', 15_000);
      assert.equal(hook.code, 0);
      assert.equal(hook.stdout, '');
      assert.ok(hook.ms < 10_000, `the hook took ${hook.ms} ms`);
    } finally {
      blocker.destroy();
    }
    // The daemon went on: the next command runs.
    const list = cli(['list', '--db', join(root, 'tz.db')], { cwd: root, env });
    assert.equal(list.code, 0, list.stderr);
  });

  test('a hook that answered in time leaves no give-up in hook.log', async () => {
    const cwd = join(root, 'project');
    mkdirSync(cwd);
    const own = { cwd, env: { ...env, ENGRAM_DAEMON: 'off' } };
    assert.equal(cli(['init'], own).code, 0);
    assert.equal(cli(['put', '--content', 'deploys go out on Fridays'], own).code, 0);
    assert.ok(existsSync(join(cwd, '.engram', 'memory.db')));
    const hook = cli(['hook', 'prompt-submit'], { cwd, env, input: '{"prompt":"deploys"}' });
    assert.equal(hook.code, 0);
    assert.match(hook.stdout, /Fridays/);
    // The hard stop of prompt-submit is 3 s after its start.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    assert.ok(!existsSync(join(cwd, '.engram', 'hook.log')), 'no hook error was logged');
  });
});

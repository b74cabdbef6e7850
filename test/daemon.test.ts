/**
 * `engram daemon`: commands run in it answer exactly as they do in their own process (output,
 * errors, exit codes, stdin, the client's folder and environment), the daemon is really used
 * (its command count), and a client falls back to running the command itself whenever the
 * daemon cannot be trusted or is not there.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { buildId, socketIn } from '../src/cli/daemon/paths.js';
import { frame, PROTOCOL, readFrames } from '../src/cli/daemon/protocol.js';
import { CLI, cli, type CliOptions, tempDir } from './helpers.js';

interface Daemon {
  dir: string;
  env: Record<string, string>;
  commands(): number;
}

/**
 * A daemon folder of the test's own (`made`: created, mode 700; else left for the client to make),
 * and the environment that points commands at it; the daemon is stopped before the folder goes.
 */
function daemonFolder(t: { after: (fn: () => void) => void }, mode: 'on' | 'auto', made = true) {
  const root = mkdtempSync(join(tmpdir(), 'engram-daemon-'));
  const dir = join(root, 'run');
  if (made) mkdirSync(dir, { mode: 0o700 });
  const env = { ENGRAM_DAEMON_DIR: dir, ENGRAM_DAEMON: mode };
  // Stopped before its folder goes (a daemon whose socket is removed also ends by itself).
  t.after(() => {
    cli(['daemon', 'stop'], { env });
    rmSync(root, { recursive: true, force: true });
  });
  return { dir, env };
}

function startDaemon(t: { after: (fn: () => void) => void }): Daemon {
  const { dir, env } = daemonFolder(t, 'on');
  const started = cli(['daemon', 'start', '--json'], { env });
  assert.equal(started.code, 0, started.stderr);
  assert.equal(started.json?.state, 'started');
  const commands = () => {
    const status = cli(['daemon', 'status', '--json'], { env });
    return (status.json?.daemon as { commands: number } | undefined)?.commands ?? -1;
  };
  return { dir, env, commands };
}

/** The same command in the daemon and in its own process. */
function both(d: Daemon, args: string[], options: CliOptions = {}) {
  const warm = cli(args, { ...options, env: { ...options.env, ...d.env } });
  const cold = cli(args, { ...options, env: { ...options.env, ENGRAM_DAEMON: 'off' } });
  return { warm, cold };
}

test('commands run in the daemon answer as they do in their own process', (t) => {
  const d = startDaemon(t);
  const work = tempDir(t);
  const db = join(work, 'memory.db');
  const seeded = cli(['--db', db, 'put', '--content', 'The deploy runs from the release branch', '--tags', 'deploy']);
  assert.equal(seeded.code, 0, seeded.stderr);
  const id = (seeded.json?.item as { id: string }).id;
  const before = d.commands();
  const cases: string[][] = [
    ['--db', db, 'list'],
    ['--db', db, 'list', '--tags', 'deploy', '--format', 'text'],
    ['--db', db, 'search', 'deploy branch'],
    ['--db', db, 'recall', 'deploy'],
    ['--db', db, 'get', id],
    ['--db', db, 'get', 'MEM-000000000000'],
    ['--db', db, 'list', '--bogus'],
    ['--db', db, 'list', '--tier', 'nope'],
    ['--db', join(work, 'missing.db'), 'search', 'x'],
    ['--db', db, 'brief'],
    ['--db', db, 'recall', '--help'],
  ];
  for (const args of cases) {
    const { warm, cold } = both(d, args);
    assert.deepEqual(
      { code: warm.code, stdout: warm.stdout, stderr: warm.stderr },
      { code: cold.code, stdout: cold.stdout, stderr: cold.stderr },
      args.join(' '),
    );
  }
  // Each warm run above went through the daemon (the status calls are its own).
  assert.equal(d.commands() - before, cases.length);
});

test('a write through the daemon reads stdin, the client folder and environment', (t) => {
  const d = startDaemon(t);
  const work = tempDir(t);
  writeFileSync(join(work, 'note.txt'), 'Staging uses port 5433\n');
  const env = { ...d.env, ENGRAM_DB: join(work, 'memory.db') };
  const before = d.commands();
  const piped = cli(['put', '--tags', 'ports'], { env, input: 'Production uses port 5432\n' });
  assert.equal(piped.code, 0, piped.stderr);
  assert.equal((piped.json?.item as { content: string }).content, 'Production uses port 5432');
  // A relative --file and a relative --db are the client's, not the daemon's.
  const fromFile = cli(['--db', 'memory.db', 'put', '--file', 'note.txt'], { env: d.env, cwd: work });
  assert.equal(fromFile.code, 0, fromFile.stderr);
  const listed = cli(['list', '--tags', 'ports'], { env });
  assert.equal((listed.json?.items as unknown[]).length, 1);
  const all = cli(['list'], { env });
  assert.deepEqual((all.json?.items as { content: string }[]).map((i) => i.content).sort(), [
    'Production uses port 5432',
    'Staging uses port 5433',
  ]);
  // An empty stdin is an error, as in a process of its own.
  const empty = both(d, ['put'], { env: { ENGRAM_DB: join(work, 'memory.db') }, input: '' });
  assert.equal(empty.warm.code, empty.cold.code);
  assert.equal(empty.warm.stderr, empty.cold.stderr);
  assert.equal(d.commands() - before, 5);
});

test('a hook through the daemon answers from its stdin payload', (t) => {
  const d = startDaemon(t);
  const work = tempDir(t);
  const db = join(work, 'memory.db');
  assert.equal(cli(['--db', db, 'put', '--content', 'Releases are cut on Thursdays']).code, 0);
  const payload = JSON.stringify({ session_id: 's', cwd: work, hook_event_name: 'UserPromptSubmit', prompt: 'when are releases cut' });
  const { warm, cold } = both(d, ['--db', db, 'hook', 'prompt-submit'], { input: payload });
  assert.equal(warm.code, 0);
  assert.equal(warm.stdout, cold.stdout);
  assert.match(warm.stdout, /Thursdays/);
});

test('a reader that stops early ends the client, not the daemon', (t) => {
  const d = startDaemon(t);
  const work = tempDir(t);
  const db = join(work, 'memory.db');
  const lines = Array.from({ length: 300 }, (_, i) => JSON.stringify({ content: `Fact number ${i} about the build` })).join('\n');
  assert.equal(cli(['--db', db, 'import', '-'], { input: lines }).code, 0);
  const run = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" --db "${db}" list --limit 300 | head -c 20`], {
    env: { ...process.env, ...d.env },
    encoding: 'utf8',
  });
  assert.equal(run.status, 0);
  assert.equal(run.stdout.length, 20);
  assert.ok(d.commands() >= 1, 'the daemon still answers');
});

test('without a trusted daemon the command runs in its own process', async (t) => {
  const d = startDaemon(t);
  const work = tempDir(t);
  const db = join(work, 'memory.db');
  assert.equal(cli(['--db', db, 'put', '--content', 'The cache holds 500 entries'], { env: d.env }).code, 0);
  let count = d.commands();
  // A folder others may enter is not trusted: the command runs here.
  chmodSync(d.dir, 0o755);
  const open = cli(['--db', db, 'search', 'cache'], { env: d.env });
  assert.equal(open.code, 0);
  assert.equal((open.json?.items as unknown[]).length, 1);
  chmodSync(d.dir, 0o700);
  assert.equal(d.commands(), count);
  // ENGRAM_DAEMON=off runs it here too.
  assert.equal(cli(['--db', db, 'list'], { env: { ...d.env, ENGRAM_DAEMON: 'off' } }).code, 0);
  assert.equal(d.commands(), count);
  // A client of another build is turned away before anything runs.
  const answer = await new Promise<string>((resolve) => {
    const socket = connect(socketIn(d.dir, buildId(CLI)));
    let type = '';
    readFrames(socket, (t2) => (type ||= t2));
    socket.on('connect', () =>
      socket.write(frame('q', JSON.stringify({
        protocol: PROTOCOL, build: 'another build', argv: ['list'], cwd: work, env: {},
        tty: { stdin: false, stdout: false, stderr: false }, columns: {},
      }))));
    socket.on('close', () => resolve(type));
  });
  assert.equal(answer, 'n');
  count = d.commands();
  // Stopped: the socket is gone and commands run here.
  assert.equal(cli(['daemon', 'stop', '--json'], { env: d.env }).json?.state, 'stopped');
  assert.equal(cli(['--db', db, 'list'], { env: d.env }).code, 0);
  assert.equal(cli(['daemon', 'status', '--json'], { env: d.env }).json?.state, 'not running');
});

test('a daemon that ends during a command is reported, not taken for no daemon', async (t) => {
  const dir = join(tempDir(t, 'engram-daemon-'), 'run');
  mkdirSync(dir, { mode: 0o700 });
  // Something that accepts the command and goes away without an answer.
  const server = createServer((socket) => socket.once('data', () => socket.destroy()));
  await new Promise<void>((resolve) => server.listen(socketIn(dir, buildId(CLI)), resolve));
  t.after(() => server.close());
  const work = tempDir(t);
  const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawnAsync([CLI, '--db', join(work, 'memory.db'), 'list'], { ENGRAM_DAEMON_DIR: dir, ENGRAM_DAEMON: 'on' });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
  assert.equal(run.code, 1);
  // One JSON error, as every error when stdout is not a terminal.
  const lost = JSON.parse(run.stderr) as { error: string; message: string; hint: string };
  assert.equal(lost.error, 'GENERAL_ERROR');
  assert.match(lost.message, /daemon ended before the command finished/);
  assert.match(lost.hint, /engram list/);
  // A hook never fails its agent: no answer, exit 0.
  const hook = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawnAsync([CLI, '--db', join(work, 'memory.db'), 'hook', 'session-start'], { ENGRAM_DAEMON_DIR: dir, ENGRAM_DAEMON: 'on' });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
  assert.deepEqual(hook, { code: 0, stderr: '' });
});

function spawnAsync(args: string[], env: Record<string, string>) {
  return spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

test('a daemon whose socket is removed ends by itself', async (t) => {
  const d = startDaemon(t);
  const status = cli(['daemon', 'status', '--json'], { env: d.env }).json?.daemon as { pid: number; socket: string };
  rmSync(status.socket);
  const alive = () => {
    try {
      process.kill(status.pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let waited = 0; waited < 15_000 && alive(); waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.equal(alive(), false);
});

test('a client still writing its input holds no one up, and one that leaves stores nothing', async (t) => {
  const d = startDaemon(t);
  const work = tempDir(t);
  const db = join(work, 'memory.db');
  assert.equal(cli(['--db', db, 'put', '--content', 'The queue holds 40 jobs'], { env: d.env }).code, 0);
  // A writer that never ends its input (a pipe from a long build, a terminal left open).
  const slow = spawn(process.execPath, [CLI, '--db', db, 'put', '--tags', 'slow'], {
    env: { ...process.env, ...d.env }, stdio: ['pipe', 'pipe', 'pipe'],
  });
  slow.stdin.write('The build is half ');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const listed = cli(['--db', db, 'list'], { env: d.env });
  assert.equal(listed.code, 0);
  assert.equal((listed.json?.items as unknown[]).length, 1);
  const gone = new Promise((resolve) => slow.on('close', resolve));
  slow.kill('SIGKILL');
  await gone;
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal((cli(['--db', db, 'list', '--tags', 'slow'], { env: d.env }).json?.items as unknown[]).length, 0);
});

test('files a command creates in the daemon get the client\'s modes', (t) => {
  const d = startDaemon(t);
  const work = tempDir(t);
  const run = spawnSync('sh', ['-c', `umask 077 && "${process.execPath}" "${CLI}" --db "${join(work, 'memory.db')}" put --content "The key rotates monthly"`], {
    env: { ...process.env, ...d.env }, encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(statSync(join(work, 'memory.db')).mode & 0o777, 0o600);
  assert.equal(d.commands(), 1);
});

test('daemon folders and flags that cannot be trusted or used are refused', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'engram-daemon-'));
  const env = { ENGRAM_DAEMON_DIR: 'rel', ENGRAM_DAEMON: 'on' };
  t.after(() => {
    cli(['daemon', 'stop'], { env, cwd: root });
    rmSync(root, { recursive: true, force: true });
  });
  const open = join(root, 'open');
  mkdirSync(open, { mode: 0o700 });
  chmodSync(open, 0o755);
  const refused = cli(['daemon', 'start', '--json'], { env: { ENGRAM_DAEMON_DIR: open, ENGRAM_DAEMON: 'on' } });
  assert.equal(refused.code, 2);
  assert.equal(refused.error?.error, 'PARAM_ERROR');
  assert.deepEqual(readdirSync(open), []);
  const idle = cli(['daemon', 'start', '--idle', '99999'], { env: { ENGRAM_DAEMON_DIR: join(root, 'x'), ENGRAM_DAEMON: 'on' } });
  assert.equal(idle.code, 2);
  // A socket path the system would cut short: refused before anything is made, by start and by auto.
  const long = join(root, 'x'.repeat(100));
  const tooLong = cli(['daemon', 'start'], { env: { ENGRAM_DAEMON_DIR: long, ENGRAM_DAEMON: 'on' } });
  assert.deepEqual([tooLong.code, tooLong.error?.error], [2, 'PARAM_ERROR']);
  assert.match(String(tooLong.error?.message), /too long a path for a socket/);
  const auto = cli(['--db', join(root, 'auto.db'), 'put', '--content', 'Runs here'], { env: { ENGRAM_DAEMON_DIR: long, ENGRAM_DAEMON: 'auto' } });
  assert.equal(auto.code, 0, auto.stderr);
  assert.ok(!existsSync(long), 'no folder made');
  // A relative folder is the caller's: start, use and stop it from the same place.
  assert.equal(cli(['daemon', 'start'], { env, cwd: root }).code, 0);
  assert.equal(cli(['--db', join(root, 'memory.db'), 'list'], { env, cwd: root }).code, 3);
  const status = cli(['daemon', 'status', '--json'], { env, cwd: root });
  assert.equal((status.json?.daemon as { commands: number }).commands, 1);
  assert.ok((status.json?.socket as string).startsWith(join(root, 'rel')));
});

test('a put its command line refuses is refused at once, its input still open, as in its own process', {
  timeout: 60_000,
}, async (t) => {
  const d = startDaemon(t);
  const db = join(tempDir(t), 'memory.db');
  /** The command with a piped input that stays open until it has answered. */
  type Run = { code: number | null; stderr: string };
  const run = (args: string[], env: Record<string, string>) => new Promise<Run>((resolve) => {
    const child = spawn(process.execPath, [CLI, '--db', db, ...args], {
      env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
  for (const args of [['put', '--bogus'], ['put', 'stray'], ['help', 'put']]) {
    const before = d.commands();
    const warm = await run(args, d.env);
    assert.equal(d.commands(), before + 1, `${args.join(' ')} ran in the daemon`);
    assert.deepEqual(warm, await run(args, { ENGRAM_DAEMON: 'off' }), args.join(' '));
  }
});

test('an input that never ends is refused past the size limit, as in the command\'s own process', (t) => {
  const d = startDaemon(t);
  const db = join(tempDir(t), 'memory.db');
  const endless = (env: Record<string, string>) => {
    const run = spawnSync('sh', ['-c', `yes 'a line of input' | "${process.execPath}" "${CLI}" --db "${db}" put`], {
      env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000,
    });
    return { code: run.status, stderr: run.stderr };
  };
  const before = d.commands();
  const warm = endless(d.env);
  assert.equal(d.commands(), before + 1, 'it ran in the daemon');
  const cold = endless({ ENGRAM_DAEMON: 'off' });
  assert.equal(cold.code, 2);
  assert.deepEqual(warm, cold);
  assert.match(warm.stderr, /larger than 64 MiB/);
});

test('ENGRAM_DAEMON=auto: a command that finds no daemon runs here and starts one for the next', async (t) => {
  // Missing: made for the daemon, closed to others.
  const { dir, env } = daemonFolder(t, 'auto', false);
  const db = join(tempDir(t), 'memory.db');
  const first = cli(['--db', db, 'put', '--content', 'Daemons started on demand serve the next commands'], { env });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  const status = () => cli(['daemon', 'status', '--json'], { env }).json?.daemon as { commands: number } | undefined;
  for (let i = 0; i < 100 && status() === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(status()?.commands, 0, 'a daemon listens; the first command did not run in it');
  assert.equal(cli(['daemon', 'status', '--json'], { env }).json?.daemon_auto, true);
  const listed = cli(['--db', db, 'list'], { env });
  assert.equal((listed.json?.items as unknown[]).length, 1);
  assert.equal(status()?.commands, 1, 'the next one did');
});

test('ENGRAM_DAEMON=auto starts no daemon while another start is under way', async (t) => {
  const { dir, env } = daemonFolder(t, 'auto');
  // What a start made a moment ago leaves.
  writeFileSync(socketIn(dir, buildId(CLI)).replace(/\.sock$/, '.starting'), '');
  const run = cli(['--db', join(tempDir(t), 'memory.db'), 'put', '--content', 'One start at a time'], { env });
  assert.equal(run.code, 0, run.stderr);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal(cli(['daemon', 'status', '--json'], { env }).json?.state, 'not running');
});

test('a store damaged between two commands of a daemon is refused by the second, untouched', (t) => {
  const d = startDaemon(t);
  const db = join(tempDir(t), 'memory.db');
  const lines = Array.from({ length: 300 }, (_, i) => JSON.stringify({ content: `Service ${i} answers in ${i % 97} ms; ${'detail '.repeat(20)}` }));
  assert.equal(cli(['--db', db, 'import', '-'], { input: `${lines.join('\n')}\n` }).code, 0);
  // Twice through the daemon: the second open finds the file as the first left it.
  for (let i = 0; i < 2; i++) assert.equal(cli(['--db', db, 'list', '--limit', '1'], { env: d.env }).code, 0);
  const raw = new Database(db, { readonly: true });
  // A table `list` never reads: only the open check can find it damaged.
  const root = raw.prepare('SELECT rootpage FROM sqlite_master WHERE name = \'memory_links\'').pluck().get() as number;
  const pageSize = raw.pragma('page_size', { simple: true }) as number;
  raw.close();
  const bytes = readFileSync(db);
  bytes.fill(0x7f, (root - 1) * pageSize, (root - 1) * pageSize + 8);
  writeFileSync(db, bytes);
  const before = d.commands();
  const run = cli(['--db', db, 'list', '--limit', '1'], { env: d.env });
  assert.equal(d.commands(), before + 1, 'it ran in the daemon');
  assert.deepEqual([run.code, run.error?.error, run.error?.trees], [4, 'STORE_CORRUPT', ['memory_links']]);
  assert.ok(readFileSync(db).equals(bytes), 'the file is unchanged');
});

test('the build id follows the entry file\'s text, not its dates', (t) => {
  const dir = tempDir(t);
  const entry = join(dir, 'engram.js');
  writeFileSync(entry, 'import "./chunks/run-cli-AAAA.js";\n');
  const date = new Date('1985-10-26T08:15:00Z');
  utimesSync(entry, date, date);
  const first = buildId(entry);
  writeFileSync(entry, 'import "./chunks/run-cli-BBBB.js";\n');
  utimesSync(entry, date, date);
  const second = buildId(entry);
  assert.notEqual(second, first);
  // The CLI the executable loads beside it counts too.
  writeFileSync(join(dir, 'start.cjs'), 'require("./chunks/run-cli-CCCC.cjs");\n');
  assert.notEqual(buildId(entry), second);
});

test('a daemon gone while the client reads its input: nothing was sent, so the command runs in its own process', async (t) => {
  const dir = join(tempDir(t, 'engram-daemon-'), 'run');
  mkdirSync(dir, { mode: 0o700 });
  // Accepts, then goes away before any request.
  const server = createServer((socket) => setTimeout(() => socket.destroy(), 50));
  await new Promise<void>((resolve) => server.listen(socketIn(dir, buildId(CLI)), resolve));
  t.after(() => server.close());
  const db = join(tempDir(t), 'memory.db');
  const child = spawn(process.execPath, [CLI, '--db', db, 'put', '--tags', 'late'], {
    env: { ...process.env, ENGRAM_DAEMON_DIR: dir, ENGRAM_DAEMON: 'on' }, stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = new Promise<number | null>((resolve) => child.on('close', resolve));
  setTimeout(() => child.stdin.end('The release train leaves at noon\n'), 300);
  assert.equal(await code, 0, stderr);
  const listed = cli(['--db', db, 'list', '--tags', 'late']);
  assert.deepEqual((listed.json?.items as { content: string }[]).map((i) => i.content), ['The release train leaves at noon']);
});

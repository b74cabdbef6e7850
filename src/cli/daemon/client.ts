/**
 * The client side of `engram daemon`: when a daemon of this very build listens in the user's
 * daemon folder, a command runs there — warm, its modules loaded and compiled once — and this
 * process only relays the streams and the exit code. With no daemon (the default), a daemon of
 * another build, or `ENGRAM_DAEMON=off`, the command runs here as usual; with
 * `ENGRAM_DAEMON=auto` a command that finds none starts one in the background for the next
 * (`spawn.ts`). A piped input the command reads is read whole before the command is sent
 * (`stdin-plan.ts`). Light: node built-ins only, loaded before the CLI.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import type { Socket } from 'node:net';
import { homedir } from 'node:os';
import { launchError } from '../launch-error.js';
import { buildId, daemonDir, socketIn, unsafeDir } from './paths.js';
import { type DaemonRequest, frame, PROTOCOL, readFrames } from './protocol.js';
import { stdinPlan } from './stdin-plan.js';

interface ClientIo {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

/** The most input one frame carries. */
const INPUT_FRAME_BYTES = 1024 * 1024;

/** How long past its bound a hook's process may take before it ends (`commands/hook.ts`). */
const HOOK_GRACE_MS = 1000;

/** What the user sees when the daemon went away while it ran the command (it may have finished it). */
const LOST = ['The engram daemon ended before the command finished; it may or may not have run',
  'Check with `engram list` before running it again; ENGRAM_DAEMON=off runs commands without the daemon'] as const;

/** Lets go of an input no longer read: one still open (a shell's) keeps no process running. */
function release(stdin: NodeJS.ReadableStream): void {
  (stdin as { destroy?: () => void }).destroy?.();
}

/**
 * The whole input, or undefined when it did not end within `boundMs`; past `limitBytes`, what was
 * read so far (the command refuses it as too large, as it would have here).
 */
function readAll(stdin: NodeJS.ReadableStream, boundMs?: number, limitBytes = Infinity): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const timer = boundMs === undefined ? undefined : setTimeout(() => finish(undefined), boundMs);
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(bytes);
      total += bytes.length;
      if (total > limitBytes) {
        stdin.pause();
        finish(Buffer.concat(chunks));
      }
    };
    const finish = (result: Buffer | undefined) => {
      if (timer !== undefined) clearTimeout(timer);
      stdin.removeListener('data', onData);
      stdin.removeListener('end', onEnd);
      stdin.removeListener('error', onEnd);
      // Given up on: an input that is still open (a client that keeps stdin open) keeps no process running.
      if (result === undefined) release(stdin);
      resolve(result);
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', onEnd);
  });
}

/** The daemon's answer: the command's exit code, or that it must run here (on the input read ahead, if any). */
export type DaemonAnswer = { code: number } | { local: true; input?: Buffer };

/**
 * Connects to `path`; undefined when nothing listens there. `node:net` is loaded here, only when a
 * daemon's socket is there to try: it costs a command that runs in its own process milliseconds.
 */
async function connected(path: string): Promise<Socket | undefined> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      // Errors show as the socket closing (see runInDaemon).
      socket.on('error', () => {});
      resolve(socket);
    });
    socket.once('error', () => resolve(undefined));
  });
}

/** Whether `dir` holds any daemon's socket (one listing; a daemon of any build). */
function holdsSocket(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => name.startsWith('daemon-') && name.endsWith('.sock'));
  } catch {
    return false;
  }
}

/**
 * Runs `argv` (naming `command`) in the user's daemon: its exit code, or `local` when no daemon of
 * this build answered (nothing ran: run the command here, on `input` when it was read ahead).
 */
export async function runInDaemon(command: string, argv: readonly string[], io: ClientIo): Promise<DaemonAnswer> {
  const dir = daemonDir(io.env, io.cwd);
  const auto = io.env.ENGRAM_DAEMON === 'auto';
  if (dir === undefined || io.env.ENGRAM_DAEMON === 'off') return { local: true };
  if (auto && unsafeDir(dir) === 'missing') {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      // Refused below, as missing.
    }
  }
  if (unsafeDir(dir) !== undefined) return { local: true };
  // No daemon's socket in the folder: none can answer, and hashing this build is not needed.
  if (!auto && !holdsSocket(dir)) return { local: true };
  const build = buildId();
  const path = socketIn(dir, build);
  const socket = await connected(path);
  if (socket === undefined) {
    // This command runs here; the next ones find the daemon.
    if (auto && process.argv[1] !== undefined) (await import('./spawn.js')).startInBackground(process.argv[1], dir, path, io.env);
    return { local: true };
  }
  // A hook never fails its agent: whatever goes wrong is no answer, exit 0.
  const hook = command === 'hook';
  const plan = stdinPlan(command, argv, io.stdin.isTTY === true);
  // A hook is bounded as in its own process (which ends a second past its bound), counted from
  // now: a hook queued behind a long command (a `put -` typed at a terminal) gives up the same.
  const hookEnd = hook && plan.boundMs !== undefined ? Date.now() + plan.boundMs + HOOK_GRACE_MS : undefined;
  let input: Buffer | undefined;
  if (plan.read) {
    input = await readAll(io.stdin, plan.boundMs, plan.limitBytes);
    if (input === undefined) {
      // A hook whose input did not end within its bound gives up, as it would in its own process.
      socket.destroy();
      return { code: 0 };
    }
  }
  // The daemon went away while the input was read: nothing was sent, so the command runs here.
  if (socket.destroyed) return { local: true, ...(input === undefined ? {} : { input }) };
  const request: DaemonRequest = {
    protocol: PROTOCOL,
    build,
    argv: [...argv],
    cwd: io.cwd,
    // The home the command would fall back to here, where HOME is not set.
    env: { ...io.env, HOME: io.env.HOME ?? homedir() },
    tty: { stdin: io.stdin.isTTY === true, stdout: io.stdout.isTTY === true, stderr: io.stderr.isTTY === true },
    columns: { stdout: io.stdout.columns, stderr: io.stderr.columns },
    umask: process.umask(),
  };
  return new Promise((resolve) => {
    let done = false;
    let streaming = false;
    // A hook past its bound: no answer, exit 0 (the daemon drops the command if it has not started it).
    const giveUp = hookEnd === undefined ? undefined : setTimeout(() => abandon(), Math.max(0, hookEnd - Date.now()));
    const finish = (answer: DaemonAnswer) => {
      if (done) return;
      done = true;
      if (giveUp !== undefined) clearTimeout(giveUp);
      io.stdin.removeListener('data', forward);
      io.stdin.removeListener('end', ended);
      // Done with the input: a shell that keeps stdin open does not keep this process running.
      if (streaming) release(io.stdin);
      socket.destroy();
      resolve(answer);
    };
    const abandon = () => {
      release(io.stdin);
      finish({ code: 0 });
    };
    const forward = (chunk: Buffer | string) => {
      socket.write(frame('i', typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    };
    const ended = () => socket.write(frame('c'));
    readFrames(socket, (type, payload) => {
      if (type === 'o') io.stdout.write(payload);
      else if (type === 'e') io.stderr.write(payload);
      else if (type === 'r' && input === undefined && !streaming) {
        // The command reads an input not read ahead (a terminal): it goes over as it comes.
        streaming = true;
        io.stdin.on('data', forward);
        io.stdin.once('end', ended);
      } else if (type === 'x') finish({ code: (JSON.parse(payload.toString('utf8')) as { code: number }).code });
      else if (type === 'n') finish({ local: true, ...(input === undefined ? {} : { input }) });
    });
    socket.on('close', () => {
      if (done) return;
      if (!hook) io.stderr.write(launchError(...LOST, io.stdout.isTTY !== true));
      finish({ code: hook ? 0 : 1 });
    });
    socket.write(frame('q', JSON.stringify(request)));
    if (input !== undefined) {
      // In frames of a mebibyte: far below a frame's limit, and no large frame to gather.
      for (let at = 0; at < input.length; at += INPUT_FRAME_BYTES) {
        socket.write(frame('i', input.subarray(at, at + INPUT_FRAME_BYTES)));
      }
      socket.write(frame('c'));
    }
  });
}

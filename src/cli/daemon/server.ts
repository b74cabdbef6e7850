/**
 * The server side of `engram daemon`: one process of the user's that keeps the CLI loaded and
 * runs the commands clients send it (`client.ts`), one at a time, each exactly as the CLI would
 * run it in the client's own process — the client's arguments, folder, environment and terminal
 * — over streams that carry its output back. It opens each command's store afresh, as a process
 * of its own would: nothing of one command's store is kept for the next, so a store moved,
 * replaced or deleted between two commands is seen as it is. It ends after a time without
 * commands, on `engram daemon stop`, and on SIGTERM or SIGINT; a client of another build is
 * turned away (it runs its command itself).
 */
import { chmodSync, mkdirSync, statSync, unlinkSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { EngramError } from '../../errors.js';
import { buildId, socketIn, unsafeDir } from './paths.js';
import { type DaemonRequest, frame, PROTOCOL, readFrames } from './protocol.js';

/** How long a daemon waits for a command before it ends (`--idle`). */
export const DEFAULT_IDLE_MINUTES = 30;

export interface DaemonOptions {
  dir: string;
  idleMs: number;
  /** The build this daemon runs (a client of another build is turned away). */
  build?: string;
  /** Runs one command line; resolves to its exit code. */
  run: (request: DaemonRequest, io: RequestIo) => Promise<number>;
  /** Called once the socket listens. */
  listening?: (socketPath: string) => void;
  /** Run after each command has answered, before the next one starts. */
  between?: () => void;
}

/** The streams a command run by the daemon sees, with the client's terminal facts. */
export interface RequestIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Ends the command at once for the client (its exit code sent now; what it still writes is dropped). */
  exit: (code: number) => void;
}

/** What `engram daemon status` shows. */
export interface DaemonStatus {
  pid: number;
  build: string;
  started_at: string;
  commands: number;
  idle_minutes: number;
  socket: string;
}

/** How often the daemon checks that its socket is still there. */
const SOCKET_CHECK_MS = 5000;

/** A control request: `status` and `stop` are answered by the daemon itself. */
export type Control = 'status' | 'stop';

function streamsFor(socket: Socket, request: DaemonRequest, onExit: (code: number) => void): RequestIo {
  // Handed to the socket at once, in order, so that the exit code never overtakes what was written
  // before it (the socket holds what the client has not read yet); dropped once the command ended.
  const send = (type: 'o' | 'e', chunk: Buffer | string, callback: (error?: Error | null) => void) => {
    if (!socket.destroyed && socket.writable) socket.write(frame(type, typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    callback();
  };
  let asked = false;
  const stdin = new Readable({
    read() {
      if (asked) return;
      asked = true;
      if (!socket.destroyed) socket.write(frame('r'));
    },
  });
  const out = (type: 'o' | 'e', tty: boolean, columns: number | undefined) =>
    Object.assign(new Writable({ write: (chunk: Buffer, _encoding, callback) => send(type, chunk, callback) }), {
      isTTY: tty,
      ...(columns === undefined ? {} : { columns }),
    });
  return {
    stdin: Object.assign(stdin, { isTTY: request.tty.stdin }),
    stdout: out('o', request.tty.stdout, request.columns.stdout),
    stderr: out('e', request.tty.stderr, request.columns.stderr),
    exit: onExit,
  };
}

/** Asks the daemon listening at `socketPath` for its status, or to stop; undefined when none answers. */
export function askDaemon(socketPath: string, control: Control, timeoutMs = 2000): Promise<DaemonStatus | undefined> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    let answer: DaemonStatus | undefined;
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    readFrames(socket, (type, payload) => {
      if (type !== 'o') return;
      try {
        answer = JSON.parse(payload.toString('utf8')) as DaemonStatus;
      } catch {
        // Not a daemon's answer.
      }
    });
    socket.on('connect', () => socket.write(frame('q', JSON.stringify({ protocol: PROTOCOL, control }))));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(typeof answer?.pid === 'number' ? answer : undefined);
    });
  });
}

/**
 * Refuses a daemon folder that is not safe, as a client would refuse it (PARAM_ERROR); `create`
 * makes a missing one (mode 700) first, else a missing one is let through.
 */
export function requireSafeDir(dir: string, create: boolean): void {
  const refuse = (unsafe: string) => new EngramError('PARAM_ERROR', `The daemon folder ${dir} is ${unsafe}`, {
    hint: unsafe.startsWith('too long')
      ? 'Set ENGRAM_DAEMON_DIR to a folder with a shorter path.'
      : 'Use a folder of your own that only you can open (chmod 700), or set ENGRAM_DAEMON_DIR.',
  });
  const before = unsafeDir(dir);
  if (before?.startsWith('too long')) throw refuse(before);
  if (create) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const unsafe = unsafeDir(dir);
  if (unsafe === undefined || (!create && unsafe === 'missing')) return;
  throw refuse(unsafe);
}

/**
 * Serves commands at `dir`/daemon.sock until idle for `idleMs`, stopped, or signalled; resolves
 * when it has ended (its socket removed). Refuses a folder that is not safe, and a socket where a
 * daemon already answers.
 */
export async function serveDaemon(options: DaemonOptions): Promise<void> {
  const { dir, idleMs } = options;
  const build = options.build ?? buildId();
  requireSafeDir(dir, true);
  const socketPath = socketIn(dir, build);
  if ((await askDaemon(socketPath, 'status')) !== undefined) {
    throw new EngramError('CONFLICT', `A daemon already runs at ${socketPath}`);
  }
  try {
    unlinkSync(socketPath);
  } catch {
    // No socket left by an earlier daemon.
  }
  const started = new Date().toISOString();
  let commands = 0;
  let queue: Promise<void> = Promise.resolve();
  let idle: NodeJS.Timeout | undefined;
  let closing = false;
  let resolveEnded: () => void = () => {};
  const ended = new Promise<void>((resolve) => (resolveEnded = resolve));

  const server: Server = createServer((socket) => handle(socket));
  const status = (): DaemonStatus => ({
    pid: process.pid, build, started_at: started, commands, idle_minutes: idleMs / 60_000, socket: socketPath,
  });
  const stop = () => {
    if (closing) return;
    closing = true;
    if (idle !== undefined) clearTimeout(idle);
    clearInterval(watch);
    process.removeListener('SIGTERM', stop);
    process.removeListener('SIGINT', stop);
    server.close(() => {
      // The command in progress finishes first.
      void queue.then(() => {
        // Only its own socket: another daemon may listen at the same name now.
        if (statSync(socketPath, { throwIfNoEntry: false })?.ino === own?.ino) {
          try {
            unlinkSync(socketPath);
          } catch {
            // Already gone.
          }
        }
        resolveEnded();
      });
    });
  };
  // A socket removed or replaced (its folder deleted, another daemon started in its place) can no
  // longer reach this daemon: it ends instead of idling unreachable.
  let own: { ino: number } | undefined = undefined;
  const watch = setInterval(() => {
    const now = statSync(socketPath, { throwIfNoEntry: false });
    if (now === undefined || now.ino !== own?.ino) stop();
  }, SOCKET_CHECK_MS);
  const resetIdle = () => {
    if (idle !== undefined) clearTimeout(idle);
    idle = setTimeout(stop, idleMs);
  };

  const handle = (socket: Socket) => {
    socket.on('error', () => {});
    let request: DaemonRequest | undefined;
    let stdin: Readable | undefined;
    // A client gone (killed, timed out) before its command ran: the command never runs; while it
    // runs: its input ends in an error, so that a write waiting for it stores nothing.
    let answered = false;
    socket.on('close', () => {
      if (!answered && stdin !== undefined && !stdin.readableEnded) stdin.destroy(new Error('the client went away'));
    });
    readFrames(socket, (type, payload) => {
      if (type === 'q' && request === undefined) {
        request = JSON.parse(payload.toString('utf8')) as DaemonRequest;
        const control = (request as { control?: Control }).control;
        if (request.protocol !== PROTOCOL) {
          socket.end(frame('n', JSON.stringify({ reason: 'protocol' })));
        } else if (control !== undefined) {
          socket.end(frame('o', JSON.stringify(status())));
          if (control === 'stop') stop();
        } else if (closing || request.build !== build) {
          // Stopping, or a client of another build (its file was replaced under the same name).
          socket.end(frame('n', JSON.stringify({ reason: closing ? 'stopping' : 'build' })));
        } else {
          // Its streams now: an input read ahead arrives before the command runs.
          const answer = (code: number) => {
            if (answered) return;
            answered = true;
            if (!socket.destroyed) socket.end(frame('x', JSON.stringify({ code })));
          };
          const io = streamsFor(socket, request, answer);
          stdin = io.stdin as Readable;
          // An input the command never reads may end in that error: nobody need hear it.
          stdin.on('error', () => {});
          const asked = request;
          queue = queue.then(() => runOne(socket, asked, io, answer));
        }
      } else if (type === 'i') stdin?.push(payload);
      else if (type === 'c') stdin?.push(null);
    });
  };

  const runOne = async (socket: Socket, request: DaemonRequest, io: RequestIo, answer: (code: number) => void) => {
    if (socket.destroyed) return;
    if (idle !== undefined) clearTimeout(idle);
    commands++;
    try {
      answer(await options.run(request, io));
    } catch (error) {
      // What the CLI did not catch itself: said as a process of its own would say it.
      io.stderr.write(`engram: error[GENERAL_ERROR]: ${error instanceof Error ? error.message : String(error)}\n`);
      answer(1);
    } finally {
      try {
        options.between?.();
      } catch {
        // Upkeep between commands: no command's concern.
      }
      if (!closing) resetIdle();
    }
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  own = statSync(socketPath);
  options.listening?.(socketPath);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  resetIdle();
  await ended;
}

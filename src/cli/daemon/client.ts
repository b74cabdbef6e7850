/**
 * The client side of `engram daemon`: when a daemon of this very build listens in the user's
 * daemon folder, a command runs there — warm, its modules loaded and compiled once — and this
 * process only relays the streams and the exit code. With no daemon (the default), a daemon of
 * another build, or `ENGRAM_DAEMON=off`, the answer is undefined and the command runs here as
 * usual. Light: node built-ins only, loaded before the CLI.
 */
import { connect } from 'node:net';
import { buildId, daemonDir, socketIn, unsafeDir } from './paths.js';
import { type DaemonRequest, frame, frameReader, PROTOCOL } from './protocol.js';

interface ClientIo {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

/** What the user sees when the daemon went away while it ran the command (it may have finished it). */
const LOST = 'engram: error[GENERAL_ERROR]: the engram daemon ended before the command finished; it may or may not have run\n'
  + 'hint: check with `engram list` before running it again; ENGRAM_DAEMON=off runs commands without the daemon\n';

/**
 * Runs `argv` in the user's daemon and resolves to its exit code, or to undefined when no daemon
 * of this build answered (nothing ran: run the command here).
 */
export function runInDaemon(argv: readonly string[], io: ClientIo): Promise<number | undefined> {
  const dir = daemonDir(io.env);
  if (dir === undefined || io.env.ENGRAM_DAEMON === 'off' || unsafeDir(dir) !== undefined) return Promise.resolve(undefined);
  const build = buildId();
  const request: DaemonRequest = {
    protocol: PROTOCOL,
    build,
    argv: [...argv],
    cwd: io.cwd,
    env: { ...io.env },
    tty: { stdin: io.stdin.isTTY === true, stdout: io.stdout.isTTY === true, stderr: io.stderr.isTTY === true },
    columns: { stdout: io.stdout.columns, stderr: io.stderr.columns },
  };
  return new Promise((resolve) => {
    const socket = connect(socketIn(dir, build));
    let connected = false;
    let done = false;
    let stdinAsked = false;
    const finish = (code: number | undefined) => {
      if (done) return;
      done = true;
      io.stdin.removeListener('data', forward);
      io.stdin.removeListener('end', ended);
      // Done with the input: a shell that keeps stdin open does not keep this process running.
      if (stdinAsked) (io.stdin as { destroy?: () => void }).destroy?.();
      socket.destroy();
      resolve(code);
    };
    const forward = (chunk: Buffer | string) => {
      socket.write(frame('i', typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    };
    const ended = () => socket.write(frame('c'));
    const read = frameReader((type, payload) => {
      if (type === 'o') io.stdout.write(payload);
      else if (type === 'e') io.stderr.write(payload);
      else if (type === 'r') {
        stdinAsked = true;
        io.stdin.on('data', forward);
        io.stdin.once('end', ended);
      } else if (type === 'x') finish((JSON.parse(payload.toString('utf8')) as { code: number }).code);
      else if (type === 'n') finish(undefined);
    });
    socket.on('connect', () => {
      connected = true;
      socket.write(frame('q', JSON.stringify(request)));
    });
    socket.on('data', (chunk) => {
      try {
        read(chunk);
      } catch {
        socket.destroy();
      }
    });
    socket.on('error', () => {
      // Nothing listens (no daemon, or one that died): the command runs here.
      if (!connected) finish(undefined);
    });
    socket.on('close', () => {
      if (done) return;
      if (!connected) {
        finish(undefined);
        return;
      }
      io.stderr.write(LOST);
      finish(1);
    });
  });
}

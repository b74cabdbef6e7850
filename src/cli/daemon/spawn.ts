/**
 * Starts `engram daemon run` in the background for `dir`, detached from this process: by
 * `engram daemon start`, and by a command run with `ENGRAM_DAEMON=auto` that found no daemon.
 * What the daemon says (why it could not start) goes to `daemon-HASH.log` beside its socket.
 * Light: node built-ins only, loaded before the CLI.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, statSync, unlinkSync } from 'node:fs';

/** How long a start made with `ENGRAM_DAEMON=auto` keeps other commands from making another. */
export const AUTO_START_PAUSE_MS = 10_000;

/**
 * Spawns the daemon of this executable (`entry`) to listen at `socket` in `dir`; `env` is its
 * environment (each command still runs in its client's).
 */
export function spawnDaemon(
  entry: string,
  dir: string,
  socket: string,
  env: Readonly<Record<string, string | undefined>>,
  idleMinutes?: number,
): ChildProcess {
  const log = openSync(socket.replace(/\.sock$/, '.log'), 'a', 0o600);
  try {
    const idle = idleMinutes === undefined ? [] : ['--idle', String(idleMinutes)];
    return spawn(process.execPath, [entry, 'daemon', 'run', ...idle], {
      detached: true,
      stdio: ['ignore', 'ignore', log],
      cwd: dir,
      // The folder as found here: the daemon runs from another folder.
      env: { ...env, ENGRAM_DAEMON_DIR: dir },
    });
  } finally {
    closeSync(log);
  }
}

/**
 * For a command that found no daemon with `ENGRAM_DAEMON=auto`: starts one for the next commands,
 * unless a start was made in the last {@link AUTO_START_PAUSE_MS} (by a command running at the
 * same time, or one that failed: its log says why). Never throws; the command runs here meanwhile.
 */
export function startInBackground(
  entry: string,
  dir: string,
  socket: string,
  env: Readonly<Record<string, string | undefined>>,
): void {
  const marker = socket.replace(/\.sock$/, '.starting');
  try {
    const made = statSync(marker, { throwIfNoEntry: false });
    if (made !== undefined) {
      if (Date.now() - made.mtimeMs < AUTO_START_PAUSE_MS) return;
      unlinkSync(marker);
    }
    // Only one of the commands starting at the same moment gets to create it.
    closeSync(openSync(marker, 'wx', 0o600));
    const child = spawnDaemon(entry, dir, socket, env);
    child.on('error', () => {});
    child.unref();
  } catch {
    // Not started: the next command tries again after the pause.
  }
}

/**
 * The folder the user's `engram daemon` listens in: `ENGRAM_DAEMON_DIR`, else
 * `$XDG_RUNTIME_DIR/engram-UID`, else `engram-UID` in the system's temporary folder. None where
 * Unix sockets are not used (Windows). Pure but for the platform and user id.
 */
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';

/** The folder, absolute (a relative `ENGRAM_DAEMON_DIR` is read from `cwd`), without a trailing slash. */
export function daemonDir(env: Readonly<Record<string, string | undefined>>, cwd: string): string | undefined {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return undefined;
  const named = env.ENGRAM_DAEMON_DIR;
  if (named !== undefined && named !== '') return resolve(cwd, named);
  return resolve(env.XDG_RUNTIME_DIR || tmpdir(), `engram-${process.getuid()}`);
}

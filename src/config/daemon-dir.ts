/**
 * The folder the user's `engram daemon` listens in: `ENGRAM_DAEMON_DIR`, else
 * `$XDG_RUNTIME_DIR/engram-UID`, else `engram-UID` in the system's temporary folder. None where
 * Unix sockets are not used (Windows). Pure but for the platform and user id.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function daemonDir(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return undefined;
  const named = env.ENGRAM_DAEMON_DIR;
  if (named !== undefined && named !== '') return named;
  return join(env.XDG_RUNTIME_DIR || tmpdir(), `engram-${process.getuid()}`);
}

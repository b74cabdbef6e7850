/**
 * Where the daemon listens, and what makes a client trust it: one socket per user and build, in a folder
 * only that user can enter (`$XDG_RUNTIME_DIR/engram-UID`, else the system's temporary folder;
 * `ENGRAM_DAEMON_DIR` names another). A folder that is a link, belongs to someone else or lets
 * others in is never used. Light: node built-ins only, loaded before the CLI.
 */
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { VERSION } from '../../version.js';

export { daemonDir } from '../../config/daemon-dir.js';

/**
 * The socket of this build's daemon in the daemon folder (`daemon-HASH.sock`): two installs of
 * engram (a global one and a project's) each have their own daemon, and a daemon left from before
 * an upgrade is never asked again (it ends when idle).
 */
export function socketIn(dir: string, build: string = buildId()): string {
  return join(dir, `daemon-${fnv(build)}.sock`);
}

/** The longest socket path the system takes (a longer one is cut short, silently). */
const MAX_SOCKET_PATH = process.platform === 'darwin' ? 103 : 107;

/**
 * Why `dir` is not safe to use (undefined when it is): it must be a real folder of this user,
 * closed to others, with a path short enough for a socket in it.
 */
export function unsafeDir(dir: string): string | undefined {
  if (Buffer.byteLength(socketIn(dir, '')) > MAX_SOCKET_PATH) {
    return `too long a path for a socket (at most ${MAX_SOCKET_PATH} bytes with the socket's name)`;
  }
  let stat;
  try {
    stat = lstatSync(dir);
  } catch {
    return 'missing';
  }
  if (!stat.isDirectory()) return 'not a folder (or a link)';
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return 'owned by another user';
  if ((stat.mode & 0o077) !== 0) return 'open to other users';
  return undefined;
}

/** FNV-1a, 32 bits, as 8 hex digits: a name, not a secret. */
function fnv(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/**
 * This build of engram: its version, the node it runs on, and the file it runs from with a hash of
 * that file's text and of the CLI's entry beside it (`start.cjs`, which names every chunk by a hash
 * of its content and of what it loads, so any change of the code changes it), so that a daemon
 * started before an upgrade or a rebuild never answers for the new one.
 */
export function buildId(entry: string | undefined = process.argv[1]): string {
  let where = '';
  try {
    const path = realpathSync(entry ?? '');
    let start = '';
    try {
      start = readFileSync(join(dirname(path), 'start.cjs'), 'latin1');
    } catch {
      // Not the bundle: the entry alone.
    }
    where = `${path}#${fnv(readFileSync(path, 'latin1'))}${fnv(start)}`;
  } catch {
    where = String(entry);
  }
  return `${VERSION}|${process.version}|${where}`;
}

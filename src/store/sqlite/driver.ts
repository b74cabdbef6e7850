/**
 * Every connection engram opens, through better-sqlite3 with its native addon named
 * (`nativeBinding`). The CLI's bundle holds the driver's JavaScript (loaded from the code cache
 * with the rest, where node's loader would read a dozen files), and a bundled driver cannot find
 * its addon itself: its `bindings` lookup starts from the file that calls it. The addon is found
 * once per process: at `node_modules/better-sqlite3/build/Release` (or `build/Debug`) in a folder
 * above this module, as node would resolve the package, else by the driver's own lookup
 * (`bindings`) from the package's folder.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { EngramError } from '../../errors.js';
import { fileInNodeModules, moduleDir } from '../../util/node-modules.js';

const ADDON = 'better_sqlite3.node';

/** The addon: a file's path, or the module the driver's lookup loaded. */
let addon: string | object | undefined;

/** The addon's file below a `node_modules` folder above `from`, or undefined. */
export function addonFileAbove(from: string): string | undefined {
  return fileInNodeModules(from, ['Release', 'Debug'].map((build) => join('better-sqlite3', 'build', build, ADDON)));
}

/** The addon as the driver finds it itself: `bindings` from the package's own folder. */
export function addonByLookup(): object {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('better-sqlite3/package.json'));
  const bindings = createRequire(join(root, 'package.json'))('bindings') as (options: object) => object;
  return bindings({ bindings: ADDON, module_root: root });
}

function nativeBinding(): string | object {
  addon ??= addonFileAbove(moduleDir(import.meta.dirname, () => import.meta.url)) ?? addonByLookup();
  return addon;
}

/** The error for an addon that is missing, or built for another Node.js (`cause` says which). */
function driverMissing(cause: unknown): EngramError {
  return new EngramError('DB_ERROR', `The SQLite driver (better-sqlite3) is not installed for Node.js ${process.version}`, {
    hint: 'Install engram\'s dependencies again with the Node.js that runs it: `npm ci` in its folder, or reinstall the package.',
    cause,
  });
}

/** True for an addon that could not be found or loaded, as node and the driver's lookup report it. */
function isAddonFailure(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === 'MODULE_NOT_FOUND' || code === 'ERR_DLOPEN_FAILED'
    || (typeof message === 'string' && /Could not locate the bindings file|NODE_MODULE_VERSION/.test(message));
}

/** A better-sqlite3 connection to `path` (see the module's comment). */
export function connect(path: string, options: Database.Options = {}): Database.Database {
  let binding: string | object;
  try {
    binding = nativeBinding();
  } catch (error) {
    throw driverMissing(error);
  }
  try {
    // The driver takes the addon's module as well as its path (its types name the path only).
    return new Database(path, { ...options, nativeBinding: binding as string });
  } catch (error) {
    throw isAddonFailure(error) ? driverMissing(error) : error;
  }
}

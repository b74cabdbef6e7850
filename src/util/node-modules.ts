/** Files of installed packages, found as node finds a package: in the node_modules folders above. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The first of `paths` (each relative to a `node_modules` folder) that exists in the nearest
 * `node_modules` above `from` holding any of them, or undefined: a few file checks, where resolving
 * a package through its `exports` costs milliseconds at start-up.
 *
 * @example
 * fileInNodeModules(here, ['better-sqlite3/build/Release/better_sqlite3.node']);
 */
export function fileInNodeModules(from: string, paths: readonly string[]): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    for (const path of paths) {
      const file = join(dir, 'node_modules', path);
      if (existsSync(file)) return file;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

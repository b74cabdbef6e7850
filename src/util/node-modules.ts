/** Files of installed packages, found as node finds a package: in the node_modules folders above. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/**
 * The folder of a module, from its `import.meta`: `dirname` where node gives it (20.11 and later;
 * the bundle's chunks define it as theirs), else read from its URL, which is asked for only then
 * (the bundle makes a chunk's URL when first read, and the first URL of a process costs some 0.7 ms).
 *
 * @example
 * moduleDir(import.meta.dirname, () => import.meta.url);
 */
export function moduleDir(given: string | undefined, url: () => string): string {
  return given ?? dirname(fileURLToPath(url()));
}

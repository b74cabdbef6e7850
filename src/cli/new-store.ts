/**
 * A store file that this CLI run creates: claimed with O_EXCL before SQLite opens it, so the run
 * knows the file is its own, and removed at the end of the run when nothing was stored in it — a
 * failed or empty first write leaves no file (nor the `.engram/` made for it) behind.
 */
import { closeSync, fstatSync, mkdirSync, openSync, rmdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CreatedFile } from '../engram.js';

export interface NewStore extends CreatedFile {
  path: string;
  /** The directories this run made for it (`~/.engram/`), deepest first. */
  dirs: string[];
}

/** `dir` and its parents up to `first`, the topmost directory a recursive mkdir made. */
function madeDirs(dir: string, first: string | undefined): string[] {
  if (first === undefined) return [];
  const dirs: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    dirs.push(d);
    if (d === first || dirname(d) === d) return dirs;
  }
}

/**
 * Creates the empty store file at `path` (and its directory too when `makeDir`). Undefined when
 * the file is not this run's to create: it exists already (another process was first), or it
 * cannot be made here — SQLite's open then reports the same problem in its own words.
 *
 * @example
 * const mine = claimNewStore('/home/me/.engram/memory.db', true);
 * mine?.dirs; // ['/home/me/.engram'] when this run made it
 */
export function claimNewStore(path: string, makeDir: boolean): NewStore | undefined {
  for (let attempt = 0; ; attempt++) {
    let first: string | undefined;
    try {
      if (makeDir) first = mkdirSync(dirname(path), { recursive: true });
      const fd = openSync(path, 'wx');
      try {
        const { dev, ino, birthtimeMs } = fstatSync(fd);
        return { path, dev, ino, birthtimeMs, dirs: madeDirs(dirname(path), first) };
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      // Another run removed the directory it had made between our mkdir and open: make it again.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && makeDir && attempt < 3) continue;
      return undefined;
    }
  }
}

/**
 * At the end of the run: removes the store when it holds nothing, then the directories made for
 * it that are empty. Returns whether the store was removed. Close its connections first.
 */
export async function dropIfEmpty(store: NewStore): Promise<boolean> {
  const { removeEmptyStore } = await import('../engram.js');
  if (!(await removeEmptyStore(store.path, store))) return false;
  for (const dir of store.dirs) {
    try {
      rmdirSync(dir); // only ever removes an empty directory
    } catch {
      break;
    }
  }
  return true;
}

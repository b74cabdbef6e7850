/**
 * Finds the store the way git finds `.git`: `--db`, else `ENGRAM_DB`, else the nearest
 * `.engram/memory.db` walking up from the working directory, else the user store
 * `~/.engram/memory.db`. A store that does not exist is created by a write, never by a read.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const STORE_DIR = '.engram';
export const DB_FILE = 'memory.db';
export const CONFIG_FILE = 'config.json';

export type StoreSource = 'flag' | 'env' | 'discovered' | 'user';

export interface StoreLocation {
  path: string;
  source: StoreSource;
  /** False for a store that has not been created yet (a read of it is NOT_FOUND). */
  exists: boolean;
}

export interface DiscoverOptions {
  flag?: string | undefined;
  env?: string | undefined;
  cwd: string;
  home: string;
}

/** Walks up from `cwd` to the filesystem root looking for `.engram/memory.db`. */
export function findProjectStore(cwd: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, STORE_DIR, DB_FILE);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Resolves the database path by the documented precedence. */
export function discoverStore(options: DiscoverOptions): StoreLocation {
  const explicit = (value: string | undefined, source: StoreSource): StoreLocation | undefined => {
    if (value === undefined || value === '') return undefined;
    const path = value === ':memory:' ? value : resolve(options.cwd, value);
    return { path, source, exists: path === ':memory:' || existsSync(path) };
  };
  const found
    = explicit(options.flag, 'flag')
      ?? explicit(options.env, 'env')
      ?? (() => {
        const project = findProjectStore(options.cwd);
        return project === undefined
          ? undefined
          : { path: project, source: 'discovered' as const, exists: true };
      })();
  if (found !== undefined) return found;
  const path = join(options.home, STORE_DIR, DB_FILE);
  return { path, source: 'user', exists: existsSync(path) };
}

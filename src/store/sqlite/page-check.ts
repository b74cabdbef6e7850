/**
 * The cheap check every open runs before anything is written (`doctor` aside, which opens a
 * damaged store to report on it): SQLite's own `dbstat` table reads each b-tree's root page and
 * the pages down its leftmost path — a few pages per table and index, whatever the store's size
 * (about 1 ms for ~40 b-trees at 10k or 100k items; `PRAGMA quick_check` reads every page: 0.2 s
 * at 10k items, 1.5 s at 100k).
 *
 * It catches: a file that is not a database, a damaged header or schema page, and a damaged page
 * header on the root or leftmost path of any table or index (the full-text index's shadow
 * tables included). It does not catch damage confined to other interior, leaf or overflow pages,
 * the freelist, or rows that disagree with their indexes: a query that reads such a page still
 * fails with STORE_CORRUPT, and `engram doctor` runs SQLite's full integrity check.
 */
import { EngramError, FIX_HINTS } from '../../errors.js';
import type { SqliteDatabase } from './open.js';

/** How many pages of each b-tree's leftmost path are read (root first). */
const PATH_PAGES = 4;

/** The STORE_CORRUPT error for `path`, naming the damaged b-trees when known. */
export function storeCorrupt(path: string, trees: readonly string[], cause?: unknown): EngramError {
  const where = trees.length > 0 ? ` (damaged pages in ${trees.join(', ')})` : '';
  return new EngramError('STORE_CORRUPT', `The store's pages fail the open check${where}: ${path}`, {
    hint: FIX_HINTS.check_pages,
    fix: 'check_pages',
    details: { path, ...(trees.length > 0 ? { trees: [...trees] } : {}) },
    cause,
  });
}

/**
 * Throws STORE_CORRUPT when a b-tree's root or leftmost pages are damaged; reads only. A SQLite
 * build without `dbstat` skips the page walk (the schema read still runs).
 *
 * @example
 * checkPages(db, '/home/me/.engram/memory.db'); // returns, or throws STORE_CORRUPT
 */
export function checkPages(db: SqliteDatabase, path: string): void {
  const trees = db.prepare('SELECT name FROM sqlite_master WHERE rootpage > 0 ORDER BY rootpage').pluck().all() as string[];
  let probe;
  try {
    probe = db.prepare(`SELECT pagetype FROM dbstat WHERE name = ? LIMIT ${PATH_PAGES}`).pluck();
  } catch {
    return;
  }
  const damaged = trees.filter((name) => (probe.all(name) as string[]).includes('corrupted'));
  if (damaged.length > 0) throw storeCorrupt(path, damaged);
}

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
import { statSync } from 'node:fs';
import { EngramError, FIX_HINTS } from '../../errors.js';
import type { SqliteDatabase } from './open.js';
import { connect } from './driver.js';

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

/** Each file this process checked, by path, with its identity while it was known to pass the check. */
const checked = new Map<string, string>();
let remembering = false;

/**
 * Makes this process remember the stores it checked (a long-lived `engram daemon`, which opens
 * each command's store afresh): a store that nothing changed since it passed the check (at its
 * open, or at {@link recheckChangedStores}) is not walked again at its next open. Off by default:
 * a process that opens a store once gains nothing. The file system's times are coarse (a few
 * milliseconds), so a change made in the same tick as a check, keeping the size, would go unseen.
 */
export function rememberCheckedStores(): void {
  remembering = true;
}

/**
 * What changes whenever anything writes the file or its write-ahead log, or puts another file in
 * its place: device, inode, size, modification and change times of both (the change time cannot
 * be set back by a user).
 */
function identity(path: string): string | undefined {
  try {
    const file = statSync(path, { bigint: true });
    const wal = statSync(`${path}-wal`, { bigint: true, throwIfNoEntry: false });
    // An empty log is no log: the last connection's close removes it, the next read makes it again.
    const log = wal === undefined || wal.size === 0n ? [] : [wal.ino, wal.size, wal.mtimeNs, wal.ctimeNs];
    return [file.dev, file.ino, file.size, file.mtimeNs, file.ctimeNs, ...log].join(':');
  } catch {
    return undefined;
  }
}

/** The file as it is before an open checks it (undefined when this process does not remember stores). */
export function stampBeforeCheck(path: string): string | undefined {
  return remembering ? identity(path) : undefined;
}

/**
 * Once the connection opened after {@link stampBeforeCheck} has closed: remembers the file as
 * checked only when it is still as it was stamped, so nothing (not even this process's own
 * writes) changed it since the open check passed; else forgets it, and the next open checks it.
 */
export function rememberChecked(path: string, stamp: string | undefined): void {
  if (!remembering) return;
  if (stamp !== undefined && identity(path) === stamp) {
    checked.set(path, stamp);
    return;
  }
  checked.delete(path);
  changed.add(path);
}

/** Stores a connection of this process changed (or saw changed) since they were last checked. */
const changed = new Set<string>();

/**
 * Walks again the pages of each store changed while this process had it open (a write, or
 * anything else), on a connection of its own, and remembers the stores that pass and that nothing
 * changed meanwhile: the daemon runs it after a command has answered, so that the next command
 * need not wait for the walk. Never throws: a store it cannot read is simply not remembered.
 */
export function recheckChangedStores(): void {
  for (const path of changed) {
    changed.delete(path);
    const stamp = identity(path);
    if (stamp === undefined) continue;
    let db: SqliteDatabase | undefined;
    try {
      db = connect(path, { fileMustExist: true, timeout: 1000 });
      checkPages(db, path);
    } catch {
      continue;
    } finally {
      db?.close();
    }
    if (identity(path) === stamp) checked.set(path, stamp);
  }
}

/** True when `path` is, as far as the file system tells, a file remembered by {@link rememberChecked}. */
export function checkedUnchanged(path: string): boolean {
  if (!remembering) return false;
  const then = checked.get(path);
  return then !== undefined && then === identity(path);
}

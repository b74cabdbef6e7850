/**
 * Removes a store file that this process created and that holds nothing, so that a first write
 * that stored nothing (refused or empty input, a failed ingest) leaves no file behind.
 *
 * Why this cannot delete another process's data:
 * - Only the file this process created is a candidate: the caller created it with O_EXCL and
 *   passes its device and inode, checked against the path before and after locking.
 * - The final check runs under an EXCLUSIVE lock that nobody else can share. Leaving WAL
 *   (`journal_mode = MEMORY` with `locking_mode = EXCLUSIVE`) and `BEGIN EXCLUSIVE` need that lock,
 *   and SQLite refuses it at once (busy timeout 0) while any other connection has the store open:
 *   in WAL mode every open connection keeps a shared lock until it closes. So nobody can commit
 *   between "holds nothing" and the unlink; anything busy or unexpected keeps the store.
 * - A process that opened the file just before the unlink but had not locked it yet (it waits on
 *   our lock) then finds a file no longer in WAL mode. Its first write — `openDatabase` switching
 *   back to WAL — fails with SQLITE_READONLY_DBMOVED (SQLite refuses to write an unlinked
 *   rollback-journal database), which the store reports as a retryable DB_BUSY: it fails loudly
 *   instead of writing into a deleted file.
 * - The in-memory journal means closing deletes no file by name, so a store another process
 *   creates at the same path right after the unlink keeps its own -wal and -shm.
 */
import { statSync, unlinkSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { connect } from './driver.js';

/**
 * Identity of a file this process created. An inode number is reused once its file is gone, so
 * the creation time, where the filesystem records one, tells a file made again at the path apart.
 */
export interface CreatedFile {
  dev: number;
  ino: number;
  /** 0 where the filesystem records no creation time. */
  birthtimeMs: number;
}

/** Derived tables (the full-text index) and bookkeeping that a store holds from its creation. */
function isBookkeeping(table: string): boolean {
  return table === 'schema_meta' || table.startsWith('sqlite_') || table === 'memory_fts' || table.startsWith('memory_fts_');
}

/**
 * True when no table holds a row worth keeping: every table but the schema metadata and the
 * full-text index is empty, and `workspaces` holds only the protected `default`. A table added
 * later counts by default.
 */
function holdsNothing(db: Database.Database): boolean {
  const tables = db.prepare('SELECT name FROM sqlite_master WHERE type = \'table\'').pluck().all() as string[];
  return tables.every((name) => {
    if (isBookkeeping(name)) return true;
    const where = name === 'workspaces' ? ' WHERE name <> \'default\'' : '';
    const quoted = `"${name.replaceAll('"', '""')}"`;
    return db.prepare(`SELECT EXISTS (SELECT 1 FROM ${quoted}${where})`).pluck().get() === 0;
  });
}

function isSameFile(path: string, created: CreatedFile): boolean {
  try {
    const now = statSync(path);
    const born = now.birthtimeMs === 0 || created.birthtimeMs === 0 || now.birthtimeMs === created.birthtimeMs;
    return now.dev === created.dev && now.ino === created.ino && born;
  } catch {
    return false;
  }
}

function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Removes the store at `path` (with its -wal, -shm and -journal) when it is still the file
 * `created` and holds nothing; returns whether it did. Never throws: a store it cannot prove empty
 * and unused is kept. The caller closes its own connections first.
 *
 * @example
 * const { dev, ino, birthtimeMs } = fstatSync(openSync(path, 'wx'));
 * // … a command that stored nothing …
 * removeEmptyStore(path, { dev, ino, birthtimeMs }); // true: no file left
 */
export function removeEmptyStore(path: string, created: CreatedFile): boolean {
  if (!isSameFile(path, created)) return false;
  let db: Database.Database;
  try {
    db = connect(path, { fileMustExist: true, timeout: 0 });
  } catch {
    return false;
  }
  let locked = false;
  try {
    // A look without a lock first: a store that holds something is left exactly as it is.
    if (!holdsNothing(db)) return false;
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = MEMORY');
    locked = true;
    db.exec('BEGIN EXCLUSIVE');
    if (!isSameFile(path, created) || !holdsNothing(db)) return false;
    for (const suffix of ['-wal', '-shm', '-journal']) unlinkIfPresent(`${path}${suffix}`);
    unlinkSync(path);
    locked = false;
    return true;
  } catch {
    return false;
  } finally {
    try {
      if (db.inTransaction) db.exec('ROLLBACK');
      // A kept store goes back to WAL, as every engram store is.
      if (locked) db.pragma('journal_mode = WAL');
    } catch {
      // Kept as it is: the next open switches it back to WAL.
    }
    db.close();
  }
}

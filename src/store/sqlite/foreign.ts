/**
 * Opens another program's SQLite file for an importer without ever writing next to it: the file,
 * its `-wal` (committed writes not yet checkpointed, memctl's default mode) and a `-journal` (a
 * commit in progress, rolled back) are copied into a private temporary folder, which is opened
 * (`query_only`) and removed on close or on error. Opening the source itself, even read-only,
 * would create its `-shm` (and fail in a read-only folder) and wait on another process's lock.
 * sqlite-vec is loaded when it is available (some sources keep their vectors in `vec0` tables).
 * A file that is missing or not SQLite at all is a PARAM_ERROR naming the path, since the path is
 * what the user typed.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { EngramError } from '../../errors.js';
import type { ForeignDatabase, ForeignRow, ForeignStatement } from '../contract/foreign.js';
import { loadVectorExtension } from './vectors.js';
import { connect } from './driver.js';

export interface ForeignOptions {
  /** Load sqlite-vec into the connection (default false). */
  vectors?: boolean;
  /** What the file was expected to be, for the error hint (`a memctl database`). */
  expected?: string;
}

function notSqlite(path: string, expected: string, reason: string, cause: unknown): EngramError {
  return new EngramError('PARAM_ERROR', `Cannot read ${path} as a SQLite database: ${reason}`, {
    hint: `Give the path of ${expected} (a SQLite file).`,
    details: { path },
    cause,
  });
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A driver error while reading (a damaged page, a statement the schema does not allow) as DB_ERROR. */
function readError(path: string, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new EngramError('DB_ERROR', `Cannot read ${path}: ${message}`, {
    hint: 'The file may be damaged, or written by a version of its program this reader does not know.',
    details: { path, sqlite_code: code },
    cause: error,
  });
}

function guarded<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw readError(path, error);
  }
}

function* guardedRows(path: string, rows: IterableIterator<ForeignRow>): IterableIterator<ForeignRow> {
  try {
    for (;;) {
      const next = guarded(path, () => rows.next());
      if (next.done === true) return;
      yield next.value;
    }
  } finally {
    rows.return?.(); // a reader that stops early frees the statement
  }
}

/** Copies `path` and its `-wal` / `-journal` into a new temporary folder; returns the folder. */
function privateCopy(path: string, expected: string): string {
  try {
    if (statSync(path).isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw notSqlite(path, expected, code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code, error);
  }
  const dir = mkdtempSync(join(tmpdir(), 'engram-import-'));
  try {
    copyFileSync(path, join(dir, 'source.db'));
    for (const suffix of ['-wal', '-journal']) {
      if (existsSync(`${path}${suffix}`)) copyFileSync(`${path}${suffix}`, join(dir, `source.db${suffix}`));
    }
    return dir;
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw notSqlite(path, expected, code === 'EACCES' || code === 'EPERM' ? 'permission denied' : `cannot copy it (${code})`, error);
  }
}

/**
 * Opens a private copy of `path` (see the file's comment); throws PARAM_ERROR when it is missing or
 * not a SQLite database, DB_ERROR when it is a damaged one (then, too, when a read meets a damaged
 * page). `close()` removes the copy.
 */
export function openForeignDatabase(path: string, options: ForeignOptions = {}): ForeignDatabase {
  const expected = options.expected ?? 'the database';
  const dir = privateCopy(path, expected);
  const removeCopy = () => rmSync(dir, { recursive: true, force: true });
  let db: Database.Database;
  try {
    // The copy is opened writable so that SQLite can replay its WAL or roll back its journal.
    db = connect(join(dir, 'source.db'), { fileMustExist: true });
  } catch (error) {
    removeCopy();
    throw notSqlite(path, expected, error instanceof Error ? error.message : String(error), error);
  }
  let names: string[];
  try {
    db.pragma('query_only = ON');
    names = (
      db
        .prepare('SELECT name FROM sqlite_master WHERE type = \'table\' AND name NOT LIKE \'sqlite_%\' ORDER BY name')
        .all() as { name: string }[]
    ).map((row) => row.name);
  } catch (error) {
    db.close();
    removeCopy();
    // A damaged SQLite file is a read error; anything else (not SQLite at all) a wrong path.
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT')) throw readError(path, error);
    throw notSqlite(path, expected, error instanceof Error ? error.message : String(error), error);
  }
  let vectors: boolean;
  try {
    vectors = options.vectors === true && loadVectorExtension(db);
  } catch (error) {
    db.close();
    removeCopy();
    throw error;
  }
  const statement = (sql: string): ForeignStatement => {
    const prepared = guarded(path, () => db.prepare(sql));
    return {
      all: (...params) => guarded(path, () => prepared.all(...params) as ForeignRow[]),
      get: (...params) => guarded(path, () => prepared.get(...params) as ForeignRow | undefined),
      iterate: (...params) =>
        guardedRows(path, guarded(path, () => prepared.iterate(...params) as IterableIterator<ForeignRow>)),
    };
  };
  return {
    path,
    vectors,
    tables: () => [...names],
    columns: (table) => {
      if (!names.includes(table)) return [];
      try {
        return (db.prepare(`PRAGMA table_info(${quoteIdent(table)})`).all() as { name: string }[]).map((c) => c.name);
      } catch (error) {
        // A virtual table whose module is not loaded has no columns to show; anything else is a read error.
        if (error instanceof Error && /no such module/i.test(error.message)) return [];
        throw readError(path, error);
      }
    },
    schemaOf: (table) =>
      (db.prepare('SELECT sql FROM sqlite_master WHERE type = \'table\' AND name = ?').get(table) as
      | { sql: string | null }
      | undefined)?.sql ?? undefined,
    prepare: statement,
    close: () => {
      try {
        db.close();
      } finally {
        removeCopy();
      }
    },
  };
}

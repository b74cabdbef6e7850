/**
 * Opens another program's SQLite file read-only for an importer: the driver's `readonly` and
 * `fileMustExist` flags, `query_only` on top, and sqlite-vec loaded when it is available (some
 * sources keep their vectors in `vec0` tables). A file that is missing or not SQLite at all is a
 * PARAM_ERROR naming the path, since the path is what the user typed.
 */
import Database from 'better-sqlite3';
import { EngramError } from '../../errors.js';
import type { ForeignDatabase, ForeignRow, ForeignStatement } from '../contract/foreign.js';
import { loadVectorExtension } from './vectors.js';

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

/**
 * Opens `path` read-only; throws PARAM_ERROR when it is missing or not a SQLite database, DB_ERROR
 * when it is a damaged one (then, too, when a read meets a damaged page).
 */
export function openForeignDatabase(path: string, options: ForeignOptions = {}): ForeignDatabase {
  const expected = options.expected ?? 'the database';
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (error) {
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
    // A damaged SQLite file is a read error; anything else (not SQLite at all) a wrong path.
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT')) throw readError(path, error);
    throw notSqlite(path, expected, error instanceof Error ? error.message : String(error), error);
  }
  const vectors = options.vectors === true && loadVectorExtension(db);
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
    close: () => db.close(),
  };
}

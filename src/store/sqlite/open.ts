/**
 * Opens a SQLite file the way engram needs it: busy timeout first, schema version checked before
 * anything is written (a newer schema is refused and the file left untouched), the cheap page
 * check (a damaged store is refused untouched), then WAL and the other pragmas, then migrations.
 */
import { normalisedHash } from '../../util/hash.js';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { EngramError, FIX_HINTS } from '../../errors.js';
import { migrate, readSchemaVersion } from './migrate.js';
import { checkedUnchanged, checkPages } from './page-check.js';
import { SCHEMA_VERSION } from './migrations/index.js';
import { toStoreError, withBusyRetry } from './errors.js';
import { connect } from './driver.js';

export type SqliteDatabase = Database.Database;

export const BUSY_TIMEOUT_MS = 5000;

export interface SqliteOptions {
  /** How long SQLite itself waits for a lock (default 5000 ms). */
  busyTimeoutMs?: number;
  /** How many times a busy transaction is retried after that (default 8). */
  busyRetries?: number;
  /** Tokenizer for a new full-text index (default: the `en` preset, Porter stemming). */
  ftsTokenizer?: { name: string; spec: string };
  /**
   * False skips the open check of the b-tree pages ({@link checkPages}); only `doctor` does, to
   * report on a damaged store. Default true.
   */
  checkPages?: boolean;
  /**
   * When nearest queries use the warm vector cache (`vector-cache.ts`): `auto` (default) from a
   * connection's second vector query on, `eager` from its first, `off` never (vec0 alone).
   */
  vectorCache?: 'auto' | 'eager' | 'off';
}

const DEFAULT_TOKENIZER = { name: 'en', spec: 'porter unicode61 remove_diacritics 2' };

function hasFts5(db: SqliteDatabase): boolean {
  return (db.pragma('compile_options', { simple: false }) as { compile_options: string }[]).some(
    (row) => row.compile_options === 'ENABLE_FTS5',
  );
}

/** Opens (creating if needed) and migrates the database at `path`; `:memory:` is allowed. */
export function openDatabase(path: string, options: SqliteOptions = {}): SqliteDatabase {
  if (path !== ':memory:' && !existsSync(dirname(path))) {
    throw new EngramError(
      'DB_ERROR',
      `Cannot open database: directory ${dirname(path)} does not exist`,
      {
        hint: FIX_HINTS.create_store_dir,
        fix: 'create_store_dir',
        details: { path },
      },
    );
  }
  let db: SqliteDatabase;
  try {
    db = connect(path);
  } catch (error) {
    throw toStoreError(error, path);
  }
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? BUSY_TIMEOUT_MS}`);
    const found = withBusyRetry(() => readSchemaVersion(db));
    if (found > SCHEMA_VERSION) {
      throw new EngramError(
        'DB_ERROR',
        `Database schema version ${found} is newer than this engram supports (${SCHEMA_VERSION}): ${path}`,
        {
          hint: 'Upgrade engram to open this database; it was left unchanged.',
          details: { path, db_schema_version: found, code_schema_version: SCHEMA_VERSION },
        },
      );
    }
    // Before anything is written (WAL mode, migrations): a damaged store is refused untouched.
    // A file this process checked and closed, unchanged since, is not walked again (page-check.ts).
    if (path !== ':memory:' && found > 0 && options.checkPages !== false && !checkedUnchanged(path)) {
      withBusyRetry(() => checkPages(db, path));
    }
    if (path !== ':memory:') withBusyRetry(() => db.pragma('journal_mode = WAL'));
    db.pragma('foreign_keys = ON');
    // Deleted rows and freed pages are overwritten with zeros: a hard delete or purge leaves no
    // bytes of what it removed in the file (the full-text index does the same, migration 11).
    db.pragma('secure_delete = ON');
    db.pragma('synchronous = NORMAL');
    // Used by migration 5 to fill the column for rows written before it.
    db.function('engram_normalised_hash', { deterministic: true }, (text) => normalisedHash(String(text)));
    // A store at this schema already needs no migration (the common case: every later open).
    if (found !== SCHEMA_VERSION) {
      const context = { ftsTokenizer: options.ftsTokenizer ?? DEFAULT_TOKENIZER, fts5: hasFts5(db) };
      withBusyRetry(() => migrate(db, context));
    }
    return db;
  } catch (error) {
    db.close();
    throw toStoreError(error, path);
  }
}

/**
 * Applies pending migrations in order, each inside one `BEGIN IMMEDIATE` transaction that re-reads
 * the version first, so concurrent openers apply each migration exactly once.
 */
import { EngramError, FIX_HINTS } from '../../errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations/index.js';
import type { MigrationContext } from './migrations/migration.js';
import type { SqliteDatabase } from './open.js';

const META_TABLE = `CREATE TABLE IF NOT EXISTS schema_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
)`;

/**
 * Schema version recorded in the file: 0 for an empty file. A non-empty file without
 * `schema_meta` belongs to something else and is refused rather than written into.
 */
export function readSchemaVersion(db: SqliteDatabase): number {
  const tables = db
    .prepare('SELECT name FROM sqlite_master WHERE type = \'table\' AND name NOT LIKE \'sqlite_%\'')
    .pluck()
    .all() as string[];
  if (tables.length === 0) return 0;
  if (!tables.includes('schema_meta')) {
    throw new EngramError('DB_ERROR', 'Not an engram database (no schema_meta table)', {
      hint: FIX_HINTS.not_a_store,
      fix: 'not_a_store',
    });
  }
  const value = db
    .prepare('SELECT value FROM schema_meta WHERE key = \'schema_version\'')
    .pluck()
    .get() as string | undefined;
  return value === undefined ? 0 : Number(value);
}

/** Brings the schema up to {@link SCHEMA_VERSION}; a no-op when already there. */
export function migrate(db: SqliteDatabase, context: MigrationContext): void {
  for (const migration of MIGRATIONS) {
    const apply = db.transaction(() => {
      db.exec(META_TABLE);
      if (readSchemaVersion(db) >= migration.version) return;
      const statements
        = typeof migration.statements === 'function' ? migration.statements(context) : migration.statements;
      for (const statement of statements) db.exec(statement);
      const upsert = db.prepare(
        'INSERT INTO schema_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      );
      upsert.run('schema_version', String(migration.version));
      const keep = db.prepare('INSERT OR IGNORE INTO schema_meta (key, value) VALUES (?, ?)');
      for (const [key, value] of Object.entries(migration.meta?.(context) ?? {})) keep.run(key, value);
      const id = String(migration.version).padStart(4, '0');
      upsert.run(`migration:${id}`, `${migration.name} ${new Date().toISOString()}`);
    });
    if (readSchemaVersion(db) < migration.version) apply.immediate();
  }
  if (readSchemaVersion(db) !== SCHEMA_VERSION) {
    throw new EngramError('DB_ERROR', 'Schema migration did not reach the expected version');
  }
}

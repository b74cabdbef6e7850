/** Store figures (`stats`) and consistency checks (`health`) read from SQLite. */
import { statSync } from 'node:fs';
import type { StoreStats } from '../../types.js';
import type { HealthCheck } from '../contract/store.js';
import { readSchemaVersion } from './migrate.js';
import type { SqliteDatabase } from './open.js';

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function countBy(db: SqliteDatabase, column: string): Record<string, number> {
  const rows = db
    .prepare(`SELECT coalesce(${column}, '(none)') AS k, count(*) AS n FROM memory_items WHERE archived = 0 GROUP BY k ORDER BY k`)
    .all() as { k: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.k, r.n]));
}

export function storeStats(db: SqliteDatabase, path: string): StoreStats {
  const counts = db
    .prepare(
      `SELECT count(*) AS total, coalesce(sum(archived), 0) AS archived,
         coalesce(sum(quarantined AND NOT archived), 0) AS quarantined FROM memory_items`,
    )
    .get() as { total: number; archived: number; quarantined: number };
  return {
    path,
    schema_version: readSchemaVersion(db),
    size_bytes: path === ':memory:' ? 0 : fileSize(path) + fileSize(`${path}-wal`),
    total: counts.total,
    active: counts.total - counts.archived,
    archived: counts.archived,
    quarantined: counts.quarantined,
    by_tier: countBy(db, 'tier'),
    by_type: countBy(db, 'type'),
    by_layer: countBy(db, 'layer'),
    by_scope: countBy(db, 'scope'),
  };
}

/** `schema`, `integrity` (SQLite's integrity_check), `full_text` (FTS5 present) and `index` (one row per item). */
export function storeHealth(db: SqliteDatabase, fullText: boolean): HealthCheck[] {
  const integrity = (db.pragma('integrity_check') as Record<string, unknown>[]).map((r) => String(r.integrity_check));
  const items = db.prepare('SELECT count(*) FROM memory_items').pluck().get() as number;
  const indexed = fullText ? (db.prepare('SELECT count(*) FROM memory_fts').pluck().get() as number) : 0;
  return [
    { name: 'schema', ok: true, problems: [], figures: { schema_version: readSchemaVersion(db) } },
    { name: 'integrity', ok: integrity.join() === 'ok', problems: integrity.join() === 'ok' ? [] : integrity, figures: {} },
    { name: 'full_text', ok: fullText, problems: fullText ? [] : ['FTS5 missing'], figures: {} },
    {
      name: 'index',
      ok: !fullText || indexed === items,
      problems: !fullText || indexed === items ? [] : [`${indexed} rows for ${items} items`],
      figures: { items, indexed },
    },
  ];
}

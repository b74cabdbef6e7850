/** Store figures (`stats`) and consistency checks (`health`) read from SQLite. */
import { statSync } from 'node:fs';
import type { StoreStats } from '../../types.js';
import type { HealthCheck } from '../contract/store.js';
import { readSchemaVersion } from './migrate.js';
import type { SqliteDatabase } from './open.js';
import { recordedVectorModel, VECTOR_TABLE, vectorTableDimensions } from './vectors.js';

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

/**
 * `vectors`: the vector table, the rows listed as embedded and the recorded model agree (count and
 * dimension): every stored vector is listed; a listed item may have none (embedded without a
 * direction, see `vectors.ts`). Figures `vectors` (stored), `without_vector` (listed, not stored),
 * `pending` (not embedded) and `dimensions` (0 without a model); pending items are not a problem.
 */
export function vectorHealth(db: SqliteDatabase, loaded: boolean): HealthCheck {
  const listed = db.prepare('SELECT count(*) FROM memory_vector_rows').pluck().get() as number;
  const items = db.prepare('SELECT count(*) FROM memory_items').pluck().get() as number;
  const pending = db
    .prepare('SELECT count(*) FROM memory_items i WHERE NOT EXISTS (SELECT 1 FROM memory_vector_rows r WHERE r.item_rowid = i.rowid)')
    .pluck()
    .get() as number;
  const model = recordedVectorModel(db);
  const tableDimensions = vectorTableDimensions(db);
  const problems: string[] = [];
  if (!loaded && (tableDimensions !== undefined || listed > 0)) problems.push('the sqlite-vec extension is not available here');
  if (listed > 0 && model === undefined) problems.push(`${listed} vectors without a recorded model`);
  if (model !== undefined && tableDimensions !== undefined && tableDimensions !== model.dimensions) {
    problems.push(`vector table of ${tableDimensions} dimensions for model ${model.id} of ${model.dimensions}`);
  }
  let stored = 0;
  if (loaded && tableDimensions !== undefined) {
    stored = db.prepare(`SELECT count(*) FROM ${VECTOR_TABLE}_rowids`).pluck().get() as number;
    if (stored > listed) problems.push(`${stored} vectors stored, ${listed} listed`);
  }
  if (tableDimensions === undefined && listed > 0) problems.push(`${listed} vectors listed but no vector table`);
  if (listed > items) problems.push(`${listed} vectors for ${items} items`);
  return {
    name: 'vectors',
    ok: problems.length === 0,
    problems,
    figures: { vectors: stored, without_vector: listed - stored, pending, dimensions: model?.dimensions ?? 0 },
  };
}

/**
 * `schema`, `integrity` (SQLite's integrity_check), `full_text` (FTS5 present), `index` (one row
 * per item) and `vectors` ({@link vectorHealth}).
 */
export function storeHealth(db: SqliteDatabase, fullText: boolean, vectorsLoaded: boolean): HealthCheck[] {
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
    vectorHealth(db, vectorsLoaded),
  ];
}

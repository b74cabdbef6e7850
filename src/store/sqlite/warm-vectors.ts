/**
 * The connection's side of the warm vector cache (`vector-cache.ts`): the vector generation, when
 * the cache is loaded, how the connection's own vector changes reach it, and the exact nearest
 * search over it with the list filter applied in SQL.
 */
import type { Statement } from 'better-sqlite3';
import type { ListFilter } from '../contract/items.js';
import type { ScoredItem } from '../contract/text-index.js';
import { ITEM_FIELDS, listQuery } from './list-query.js';
import type { SqliteDatabase } from './open.js';
import { type ItemRow, rowToItem } from './row-mapping.js';
import { bestSlots, loadVectorCache, type VectorCache } from './vector-cache.js';

const GENERATION_KEY = 'vector_generation';
/** How many of a connection's vector queries go to vec0 before the cache is loaded, per mode. */
const QUERIES_BEFORE_CACHE = { auto: 1, eager: 0, off: Infinity } as const;

export interface WarmVectors {
  /** Records a change of the stored vectors; `apply` updates the cache (false: drop it). */
  changed(apply: (cache: VectorCache) => boolean): void;
  /** Drops the cache (the index was reset). */
  dropped(): void;
  /** The cache, current, when this query should use it; undefined: ask vec0. */
  forQuery(dimensions: number, stored: () => number): VectorCache | undefined;
}

export function warmVectors(db: SqliteDatabase, table: string, mode: keyof typeof QUERIES_BEFORE_CACHE): WarmVectors {
  const read = db.prepare('SELECT value FROM schema_meta WHERE key = ?').pluck();
  const bump = db.prepare(
    `INSERT INTO schema_meta (key, value) VALUES ('${GENERATION_KEY}', '1')
     ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value`,
  ).pluck();
  const generation = () => Number(read.get(GENERATION_KEY) ?? 0);
  let cache: VectorCache | undefined;
  let queries = 0;
  /** The generation at which loading failed (too large, unknown layout): not retried until it changes. */
  let failedAt: number | undefined;

  return {
    changed(apply) {
      const next = Number(bump.get());
      if (cache !== undefined && cache.generation === next - 1 && apply(cache)) cache.generation = next;
      else cache = undefined;
    },
    dropped() {
      bump.get();
      cache = undefined;
    },
    forQuery(dimensions, stored) {
      if (++queries <= QUERIES_BEFORE_CACHE[mode]) return undefined;
      const current = generation();
      if (cache !== undefined && cache.generation === current && cache.dimensions === dimensions) return cache;
      if (failedAt === current) return undefined;
      cache = loadVectorCache(db, table, dimensions, stored(), current);
      failedAt = cache === undefined ? current : undefined;
      return cache;
    },
  };
}

type Row = ItemRow & { vector_rowid: number };

/**
 * The `limit` items nearest to `vector` that match `filter`, by an exact scan of the cache: the
 * best slots with a margin first, then, when the filter left too few, the best of the items the
 * filter admits.
 */
export function cachedNearest(
  prepare: (sql: string) => Statement,
  cache: VectorCache,
  vector: Float32Array,
  filter: ListFilter,
  limit: number,
  first: number,
): ScoredItem[] {
  const scores = cache.score(vector);
  const where = listQuery(filter, false);
  const filterSql = where.where === '' ? '' : `AND ${where.where.slice('WHERE '.length)}`;
  const fetch = (rowids: number[]): ScoredItem[] => {
    // CROSS JOIN keeps the order: each candidate looked up by rowid, the filter checked on it.
    const rows = prepare(
      `SELECT ${ITEM_FIELDS}, i.rowid AS vector_rowid FROM json_each(?) AS c
       CROSS JOIN memory_items i ON i.rowid = c.value WHERE 1 ${filterSql}`,
    ).all(JSON.stringify(rowids), ...where.params) as Row[];
    return rows
      .map((row) => ({ item: rowToItem(row), score: scores[cache.slotOf(row.vector_rowid) as number] as number }))
      .sort((a, b) => b.score - a.score || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0))
      .slice(0, limit);
  };
  const best = bestSlots(cache, scores, first);
  const found = fetch(best.map((slot) => cache.rowidAt(slot)));
  if (found.length >= limit || best.length >= cache.size()) return found;
  const admitted = prepare(`SELECT i.rowid AS vector_rowid FROM memory_items i ${where.where}`)
    .all(...where.params) as { vector_rowid: number }[];
  const scored: [number, number][] = [];
  for (const { vector_rowid: rowid } of admitted) {
    const slot = cache.slotOf(rowid);
    if (slot !== undefined) scored.push([rowid, scores[slot] as number]);
  }
  scored.sort((a, b) => b[1] - a[1]);
  // Ties at the cut are kept whole, so the order by id below decides between them.
  const cut = scored[Math.min(limit, scored.length) - 1]?.[1];
  return fetch(scored.filter(([, score]) => cut !== undefined && score >= cut).map(([rowid]) => rowid));
}

/**
 * The vector index on sqlite-vec: the synchronous SQLite side of {@link VectorIndex}. Vectors live
 * in a `vec0` table (`memory_vectors`, cosine distance) keyed by the item's rowid and created for
 * the dimension of the first model stored; `memory_vector_rows` (migration 12) lists the rowids
 * that were embedded. A vector without a direction (zero, or not finite: see `util/vector-checks.ts`)
 * is listed there but never written to `vec0`: its item is embedded (not pending, not sent again)
 * yet has no vector, so it is never a hit; {@link VectorIndex.count} counts the `vec0` rows only.
 * The model id and dimension are recorded in `schema_meta` (`vector_model`, `vector_dimensions`).
 * Vectors are derived data: deleting an item drops its vector, and so does a change of its title
 * or content (see {@link SyncVectors.invalidate}). Every change bumps the vector generation and
 * reaches the warm cache (`warm-vectors.ts`), which answers `nearest` from a connection's second
 * vector query on; the first goes to vec0. The extension is loaded into the connection by the first
 * statement that needs it (a command that only lists or searches words never pays for it).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { EngramError, FIX_HINTS } from '../../errors.js';
import type { MemoryItem } from '../../types.js';
import { fileInNodeModules, moduleDir } from '../../util/node-modules.js';
import { hasDirection, MAX_VECTOR_DIMENSIONS, storableDimensions } from '../../util/vector-checks.js';
import type { ListFilter } from '../contract/items.js';
import type { ScoredItem } from '../contract/text-index.js';
import type { VectorIndex, VectorModel } from '../contract/vector-index.js';
import { ITEM_FIELDS, listQuery } from './list-query.js';
import type { SqliteDatabase, SqliteOptions } from './open.js';
import type { Sync } from './promised.js';
import { type ItemRow, rowToItem } from './row-mapping.js';
import { cachedNearest, warmVectors } from './warm-vectors.js';

export const VECTOR_TABLE = 'memory_vectors';
const MODEL_KEY = 'vector_model';
const DIMENSIONS_KEY = 'vector_dimensions';
/** The largest `k` a vec0 KNN query accepts. */
const MAX_KNN = 4096;

/** The first KNN's k for `limit` results: the limit and a margin for what the filter drops. */
const knnFirst = (limit: number) => Math.min(MAX_KNN, limit + Math.max(10, Math.ceil(limit / 4)));

export type SyncVectors = Sync<VectorIndex> & {
  /** Drops the vector of the item with `id` (rowid lookup); the rows removed. */
  removeById(id: string): number;
  /** Called before an item is rewritten: drops its vector when its title or content changes. */
  invalidate(next: Pick<MemoryItem, 'id' | 'title' | 'content'>): void;
};

type Prepare = (sql: string) => Database.Statement;

/** The dimension the existing vec0 table was created with, from its SQL; undefined without one. */
export function vectorTableDimensions(db: SqliteDatabase): number | undefined {
  const sql = db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(VECTOR_TABLE) as
    | string
    | undefined;
  const match = sql === undefined ? null : /float\[(\d+)\]/i.exec(sql);
  return match === null ? (sql === undefined ? undefined : 0) : Number(match[1]);
}

export function recordedVectorModel(db: SqliteDatabase): VectorModel | undefined {
  const get = db.prepare('SELECT value FROM schema_meta WHERE key = ?').pluck();
  const id = get.get(MODEL_KEY) as string | undefined;
  const dimensions = Number(get.get(DIMENSIONS_KEY));
  return id === undefined || !(dimensions > 0) ? undefined : { id, dimensions };
}

function sameModel(a: VectorModel, b: VectorModel): boolean {
  return a.id === b.id && a.dimensions === b.dimensions;
}

/**
 * The vector index of `db`; `ready` loads sqlite-vec into the connection (once) and is called
 * before any statement on the `vec0` table itself.
 */
export function sqliteVectors(
  db: SqliteDatabase,
  prepare: Prepare,
  cacheMode: SqliteOptions['vectorCache'] = 'auto',
  ready: () => void = () => {},
): SyncVectors {
  const rowidOf = db.prepare('SELECT rowid FROM memory_items WHERE id = ?').pluck().safeIntegers();
  const textOf = db.prepare('SELECT title, content FROM memory_items WHERE id = ?');
  const setMeta = db.prepare(
    'INSERT INTO schema_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  );
  const hasTable = () => vectorTableDimensions(db) !== undefined;
  const warm = warmVectors(db, VECTOR_TABLE, cacheMode);

  const removeRow = (rowid: bigint): number => {
    if (!hasTable()) return 0;
    ready();
    const stored = prepare(`DELETE FROM ${VECTOR_TABLE} WHERE rowid = ?`).run(rowid).changes;
    const listed = prepare('DELETE FROM memory_vector_rows WHERE item_rowid = ?').run(rowid).changes;
    if (stored + listed > 0) {
      warm.changed((cache) => {
        cache.remove(Number(rowid));
        return true;
      });
    }
    return listed;
  };
  const removeById = (id: string): number => {
    const rowid = rowidOf.get(id) as bigint | undefined;
    return rowid === undefined ? 0 : removeRow(rowid);
  };

  const reset = (model: VectorModel | undefined): void => {
    ready();
    db.exec(`DROP TABLE IF EXISTS ${VECTOR_TABLE}; DELETE FROM memory_vector_rows`);
    db.prepare('DELETE FROM schema_meta WHERE key IN (?, ?)').run(MODEL_KEY, DIMENSIONS_KEY);
    warm.dropped();
    if (model === undefined) return;
    if (!storableDimensions(model.dimensions)) {
      throw new EngramError('PARAM_ERROR', `Invalid vector dimension ${model.dimensions} for ${model.id}`, {
        hint: `The vector index holds 1 to ${MAX_VECTOR_DIMENSIONS} dimensions.`,
      });
    }
    db.exec(`CREATE VIRTUAL TABLE ${VECTOR_TABLE} USING vec0(embedding float[${model.dimensions}] distance_metric=cosine)`);
    setMeta.run(MODEL_KEY, model.id);
    setMeta.run(DIMENSIONS_KEY, String(model.dimensions));
  };

  const put = (itemId: string, vector: Float32Array, model: VectorModel): void => {
    if (vector.length !== model.dimensions) {
      throw new EngramError('PARAM_ERROR', `Vector of ${vector.length} dimensions for model ${model.id} of ${model.dimensions}`);
    }
    const rowid = rowidOf.get(itemId) as bigint | undefined;
    if (rowid === undefined) throw new EngramError('NOT_FOUND', `No item ${itemId} to store a vector for`);
    const recorded = recordedVectorModel(db);
    if (recorded === undefined || !hasTable()) {
      reset(model);
    } else if (!sameModel(recorded, model)) {
      throw new EngramError(
        'PARAM_ERROR',
        `Vectors of ${model.id} (${model.dimensions} dimensions) cannot join those of ${recorded.id} (${recorded.dimensions})`,
        { hint: FIX_HINTS.rebuild_vectors, fix: 'rebuild_vectors' },
      );
    }
    ready();
    removeRow(rowid);
    // Embedded, but without a direction: listed (not pending), never a hit.
    if (hasDirection(vector)) {
      prepare(`INSERT INTO ${VECTOR_TABLE} (rowid, embedding) VALUES (?, ?)`).run(rowid, vector);
      warm.changed((cache) => cache.set(Number(rowid), vector));
    }
    prepare('INSERT INTO memory_vector_rows (item_rowid) VALUES (?)').run(rowid);
  };

  /** Vectors in `vec0` (items embedded without a direction are listed but not stored). */
  const storedCount = (): number =>
    hasTable() ? (prepare(`SELECT count(*) FROM ${VECTOR_TABLE}_rowids`).pluck().get() as number) : 0;

  const rows = (sql: string, ...params: unknown[]) =>
    prepare(sql).all(...params) as (ItemRow & { distance: number | null })[];
  // sqlite-vec gives a stored vector without a direction (a zero one, written before they were
  // refused) no distance (null): it is no hit, never one at similarity 1 - null = 1.
  const scored = (list: (ItemRow & { distance: number | null })[]): ScoredItem[] =>
    list.filter((row) => typeof row.distance === 'number' && Number.isFinite(row.distance))
      .map((row) => ({ item: rowToItem(row), score: 1 - (row.distance as number) }));

  /**
   * The KNN query over-fetches (filters drop some of the nearest); when too few of them match
   * while more vectors exist, an exact scan over the filtered items decides instead.
   */
  const nearest = (vector: Float32Array, filter: ListFilter, limit: number): ScoredItem[] => {
    const model = recordedVectorModel(db);
    // A query without a direction is near nothing (sqlite-vec would put every vector at distance 0).
    if (limit <= 0 || model === undefined || !hasTable() || !hasDirection(vector)) return [];
    if (vector.length !== model.dimensions) {
      throw new EngramError('PARAM_ERROR', `Query vector of ${vector.length} dimensions for vectors of ${model.dimensions}`);
    }
    ready();
    const where = listQuery(filter, false);
    const filterSql = where.where === '' ? '' : `AND ${where.where.slice('WHERE '.length)}`;
    const cache = warm.forQuery(model.dimensions, storedCount);
    if (cache !== undefined) return cachedNearest(prepare, cache, vector, filter, limit, knnFirst(limit));
    const stored = storedCount();
    // sqlite-vec scans every vector and its cost grows with k (about 29 ms at k = 10, 58 ms at 240
    // and 170 ms at 800 over 100k × 256 here), so the KNN asks for a small margin over the limit
    // first, and for eight times more only when the filter left too few.
    for (let k = knnFirst(limit); ; k = Math.min(MAX_KNN, k * 8)) {
      const knn = rows(
        `SELECT ${ITEM_FIELDS}, knn.distance AS distance FROM
           (SELECT rowid AS rid, distance FROM ${VECTOR_TABLE} WHERE embedding MATCH ? AND k = ?) AS knn
         CROSS JOIN memory_items i ON i.rowid = knn.rid WHERE 1 ${filterSql}
         ORDER BY knn.distance IS NULL, knn.distance, i.id LIMIT ?`,
        vector, k, ...where.params, limit,
      );
      if (knn.length >= limit || stored <= k) return scored(knn);
      if (k >= MAX_KNN || k >= knnFirst(limit) * 8) break;
    }
    return scored(rows(
      `SELECT ${ITEM_FIELDS}, vec_distance_cosine(v.embedding, ?) AS distance FROM memory_items i
       CROSS JOIN memory_vector_rows r ON r.item_rowid = i.rowid
       CROSS JOIN ${VECTOR_TABLE} v ON v.rowid = i.rowid ${where.where}
       ORDER BY distance IS NULL, distance, i.id LIMIT ?`,
      vector, ...where.params, limit,
    ));
  };

  const missingWhere = 'NOT EXISTS (SELECT 1 FROM memory_vector_rows r WHERE r.item_rowid = i.rowid)';
  return {
    model: () => recordedVectorModel(db),
    reset,
    put,
    remove: (itemId) => removeById(itemId) > 0,
    nearest,
    count: storedCount,
    missingCount: () => prepare(`SELECT count(*) FROM memory_items i WHERE ${missingWhere}`).pluck().get() as number,
    missing: (limit) =>
      (prepare(`SELECT ${ITEM_FIELDS} FROM memory_items i WHERE ${missingWhere} ORDER BY i.created_at, i.id LIMIT ?`)
        .all(limit) as ItemRow[]).map(rowToItem),
    removeById,
    invalidate: (next) => {
      const stored = textOf.get(next.id) as { title: string; content: string } | undefined;
      if (stored !== undefined && (stored.title !== next.title || stored.content !== next.content)) removeById(next.id);
    },
  };
}

/** sqlite-vec's loadable file for this platform, found once per process (null: none). */
let loadable: string | null | undefined;

/**
 * The file sqlite-vec's `getLoadablePath` resolves (its platform package's `vec0`), looked up in
 * the node_modules folders above this module as node would find it: a few file checks, where
 * loading sqlite-vec and resolving through its package's exports costs milliseconds at every start.
 */
function platformFile(): string | undefined {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const suffix = process.platform === 'win32' ? 'dll' : process.platform === 'darwin' ? 'dylib' : 'so';
  return fileInNodeModules(moduleDir(import.meta.dirname, () => import.meta.url), [join(`sqlite-vec-${os}-${process.arch}`, `vec0.${suffix}`)]);
}

function extensionPath(): string | undefined {
  if (loadable === undefined) {
    try {
      // Else sqlite-vec's own lookup. Its CommonJS entry: resolving the platform's file is all it
      // does until a connection loads it.
      loadable = platformFile()
        ?? (createRequire(import.meta.url)('sqlite-vec') as { getLoadablePath(): string }).getLoadablePath();
    } catch {
      loadable = null;
    }
  }
  return loadable ?? undefined;
}

/**
 * A loader of sqlite-vec into `db`, run once on first call; undefined when this platform has no
 * build of it (the store then has no vector index).
 */
export function vectorExtension(db: SqliteDatabase): (() => void) | undefined {
  const path = extensionPath();
  if (path === undefined) return undefined;
  let loaded = false;
  return () => {
    if (loaded) return;
    db.loadExtension(path);
    loaded = true;
  };
}

/** Loads sqlite-vec into the connection now; false when this platform has no build of it. */
export function loadVectorExtension(db: SqliteDatabase): boolean {
  const load = vectorExtension(db);
  try {
    load?.();
    return load !== undefined;
  } catch {
    return false;
  }
}

/** The contract's methods only (the upkeep hooks stay with the item repository). */
export function vectorContract(vectors: SyncVectors): Sync<VectorIndex> {
  const { model, reset, put, remove, nearest, count, missingCount, missing } = vectors;
  return { model, reset, put, remove, nearest, count, missingCount, missing };
}

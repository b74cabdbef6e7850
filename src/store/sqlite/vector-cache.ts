/**
 * The warm vector cache: a copy of the stored vectors in WebAssembly memory, normalised, scanned
 * exactly with SIMD (`vector-scan.wat`) in about 5 ms per 100k × 256 here, where sqlite-vec's
 * vec0 KNN takes 30 to 50 ms. A process that searches once gains nothing from loading it (about
 * 100 ms per 100k vectors), so `vectors.ts` loads it on a connection's second vector query and keeps
 * it while the process lives (the MCP server, a library user).
 *
 * It is loaded from vec0's own storage (its chunk tables: validity bitmap, rowids, vectors), checked
 * against the vector count; anything unexpected (another sqlite-vec layout) means no cache, and
 * queries keep using vec0. Staleness is decided by the store's vector generation (a counter in
 * `schema_meta` bumped in the same transaction as every vector change): the connection's own
 * changes are applied to the cache as they happen, and a generation the cache did not see (another
 * process wrote, or a transaction rolled back) means it is reloaded before the next query.
 */
import type Database from 'better-sqlite3';
import { compileWasm, instantiateWasm } from '../../util/wasm.js';
import { VECTOR_SCAN_WASM } from './vector-scan-wasm.js';

/** The most memory a cache may take; a larger index is searched by vec0 alone. */
export const VECTOR_CACHE_MAX_BYTES = 256 * 1024 ** 2;
const PAGE = 64 * 1024;

interface ScanExports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  scores(query: number, base: number, rows: number, stride: number, out: number): void;
}

let compiled: object | undefined;

export interface VectorCache {
  /** The generation of the stored vectors this copy reflects. */
  generation: number;
  readonly dimensions: number;
  /** Live vectors. */
  size(): number;
  /**
   * Scores (cosine similarity) of every slot against `query`, as slot → score; `rowidAt(slot)`
   * is NaN for a slot whose vector was removed.
   */
  score(query: Float32Array): Float32Array;
  rowidAt(slot: number): number;
  slotOf(rowid: number): number | undefined;
  /** Writes a vector; false when the cache is full (the caller drops it). */
  set(rowid: number, vector: Float32Array): boolean;
  remove(rowid: number): void;
}

/** Writes `vector / |vector|` into `target` at `offset`; false for a vector without a direction. */
function writeNormalised(target: Float32Array, offset: number, vector: ArrayLike<number>): boolean {
  let norm = 0;
  for (let d = 0; d < vector.length; d++) norm += (vector[d] as number) * (vector[d] as number);
  norm = Math.sqrt(norm);
  if (!(norm > 0) || !Number.isFinite(norm)) return false;
  for (let d = 0; d < vector.length; d++) target[offset + d] = (vector[d] as number) / norm;
  return true;
}

/**
 * A cache for `count` vectors of `dimensions` with room to grow; undefined when it would exceed
 * {@link VECTOR_CACHE_MAX_BYTES}.
 */
export function createVectorCache(dimensions: number, count: number, generation: number): VectorCache | undefined {
  const stride = Math.ceil(dimensions / 8) * 8;
  const capacity = Math.ceil(count * 1.25) + 256;
  const queryBytes = stride * 4;
  const scoresAt = queryBytes;
  const base = scoresAt + capacity * 4;
  const bytes = base + capacity * stride * 4;
  if (bytes > VECTOR_CACHE_MAX_BYTES) return undefined;
  compiled ??= compileWasm(VECTOR_SCAN_WASM);
  const scan = instantiateWasm(compiled) as ScanExports;
  scan.memory.grow(Math.ceil(bytes / PAGE));
  const floats = new Float32Array(scan.memory.buffer);
  const scores = new Float32Array(scan.memory.buffer, scoresAt, capacity);
  const rowids = new Float64Array(capacity).fill(Number.NaN);
  const slots = new Map<number, number>();
  let used = 0;

  const clear = (slot: number) => floats.fill(0, base / 4 + slot * stride, base / 4 + (slot + 1) * stride);
  const remove = (rowid: number) => {
    const slot = slots.get(rowid);
    if (slot === undefined) return;
    slots.delete(rowid);
    rowids[slot] = Number.NaN;
    clear(slot);
  };
  return {
    generation,
    dimensions,
    size: () => slots.size,
    score(query) {
      floats.fill(0, 0, stride);
      if (!writeNormalised(floats, 0, query)) return scores.subarray(0, 0);
      scan.scores(0, base, used, stride, scoresAt);
      return scores.subarray(0, used);
    },
    rowidAt: (slot) => rowids[slot] as number,
    slotOf: (rowid) => slots.get(rowid),
    set(rowid, vector) {
      let slot = slots.get(rowid);
      if (slot === undefined) {
        if (used >= capacity) return false;
        slot = used++; // never used: still zeros
      } else {
        clear(slot);
      }
      if (!writeNormalised(floats, base / 4 + slot * stride, vector)) {
        remove(rowid);
        return true;
      }
      slots.set(rowid, slot);
      rowids[slot] = rowid;
      return true;
    },
    remove,
  };
}

/**
 * Loads every vector of the vec0 table `table` from its chunk tables; undefined when the index is
 * too large for a cache or its storage is not the layout this code knows (then vec0 answers).
 */
export function loadVectorCache(
  db: Database.Database,
  table: string,
  dimensions: number,
  stored: number,
  generation: number,
): VectorCache | undefined {
  const cache = createVectorCache(dimensions, stored, generation);
  if (cache === undefined) return undefined;
  const chunks = db.prepare(
    `SELECT c.size, c.validity, c.rowids, v.vectors FROM ${table}_chunks c
     JOIN ${table}_vector_chunks00 v ON v.rowid = c.chunk_id ORDER BY c.chunk_id`,
  ).raw();
  let loaded = 0;
  for (const row of chunks.iterate() as Iterable<[number, Buffer, Buffer, Buffer]>) {
    const [size, validity, rowidBytes, vectorBytes] = row;
    if (validity.length * 8 < size || rowidBytes.length !== size * 8 || vectorBytes.length !== size * dimensions * 4) {
      return undefined;
    }
    const vectors = new Float32Array(vectorBytes.buffer, vectorBytes.byteOffset, size * dimensions);
    for (let i = 0; i < size; i++) {
      if (((validity[i >> 3] as number) & (1 << (i & 7))) === 0) continue;
      const rowid = Number(rowidBytes.readBigInt64LE(i * 8));
      if (!cache.set(rowid, vectors.subarray(i * dimensions, (i + 1) * dimensions))) return undefined;
      loaded++;
    }
  }
  return loaded === stored ? cache : undefined;
}

/**
 * The `count` best live slots of `scores`, highest first, found in one pass that keeps a small
 * sorted list.
 */
export function bestSlots(cache: VectorCache, scores: Float32Array, count: number): number[] {
  const best: number[] = [];
  let floor = -Infinity;
  for (let slot = 0; slot < scores.length; slot++) {
    const score = scores[slot] as number;
    if (score < floor || (best.length >= count && score === floor)) continue;
    if (Number.isNaN(cache.rowidAt(slot))) continue;
    let at = best.length;
    while (at > 0 && (scores[best[at - 1] as number] as number) < score) at--;
    best.splice(at, 0, slot);
    if (best.length > count) best.pop();
    if (best.length >= count) floor = scores[best[best.length - 1] as number] as number;
  }
  return best;
}

/**
 * The optional vector index slot: embeddings of items, derived data like the full-text index. A
 * backend without one leaves `Store.vectors` undefined and search stays lexical.
 */
import type { ListFilter } from './items.js';
import type { ScoredItem } from './text-index.js';

export interface VectorIndex {
  /** The embedder the stored vectors came from, and their dimension. */
  readonly model: string;
  readonly dimensions: number;
  /** Writes (or replaces) the vector of a stored item. */
  put(itemId: string, vector: Float32Array): Promise<void>;
  /** Removes an item's vector; resolves false when it had none. */
  remove(itemId: string): Promise<boolean>;
  /** The `limit` items nearest to `vector` matching every filter, nearest first (score = similarity). */
  nearest(vector: Float32Array, filter: ListFilter, limit: number): Promise<ScoredItem[]>;
  /** How many items have a vector. */
  count(): Promise<number>;
}

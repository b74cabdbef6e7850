/**
 * The optional vector index slot: embeddings of items, derived data like the full-text index
 * (rebuilt from the items by re-embedding them). A backend without one leaves `Store.vectors`
 * undefined and search stays lexical. Vectors are L2-normalised, so similarity is their dot
 * product (cosine), in [-1, 1].
 */
import type { MemoryItem } from '../../types.js';
import type { ListFilter } from './items.js';
import type { ScoredItem } from './text-index.js';

/** The embedder the stored vectors came from: its stable id and their dimension. */
export interface VectorModel {
  id: string;
  dimensions: number;
}

export interface VectorIndex {
  /** The model of the stored vectors, recorded with the first one; undefined while there is none. */
  model(): Promise<VectorModel | undefined>;
  /**
   * Drops every vector and records `model` (undefined: none) as the one the index holds, creating
   * the index for its dimension. Used when vectors are rebuilt with another embedder.
   */
  reset(model: VectorModel | undefined): Promise<void>;
  /**
   * Writes (or replaces) the vector of a stored item. The first vector of an empty index records
   * `model`; a vector from another model or of another dimension than the recorded one is
   * refused (PARAM_ERROR) and nothing is written. A vector without a direction (all zeros, or a
   * value not finite) marks the item embedded without storing a vector: it is no longer missing,
   * never a hit, and not counted by {@link count}.
   */
  put(itemId: string, vector: Float32Array, model: VectorModel): Promise<void>;
  /** Removes an item's vector (its content changed, or it was deleted); resolves false when it had none. */
  remove(itemId: string): Promise<boolean>;
  /**
   * The `limit` items nearest to `vector` that match every filter, nearest first, score = cosine
   * similarity. Filters apply before the limit: fewer results only when fewer items match. A
   * query vector without a direction (all zeros, or a value not finite) is near nothing: [].
   */
  nearest(vector: Float32Array, filter: ListFilter, limit: number): Promise<ScoredItem[]>;
  /** How many items have a stored vector (those embedded without a direction are not counted). */
  count(): Promise<number>;
  /** How many items (archived and quarantined included) are not embedded yet (pending). */
  missingCount(): Promise<number>;
  /** Up to `limit` items without a vector, oldest first: the work `engram embed` does next. */
  missing(limit: number): Promise<MemoryItem[]>;
}

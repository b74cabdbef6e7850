/**
 * What makes a vector usable for similarity, shared by the store and the embedders (pure).
 *
 * A vector of length zero (a text with no token the model knows, or an embedder answering zeros)
 * or one holding a value that is not finite has no direction: its cosine to anything is undefined,
 * and sqlite-vec would report it at distance 0 from every query. Such a vector is never stored in
 * the vector index and never used as a query.
 */

/** The largest dimension a sqlite-vec `vec0` column holds. */
export const MAX_VECTOR_DIMENSIONS = 8192;

/** True when `vector` has a direction: every value finite and at least one of them not zero. */
export function hasDirection(vector: Float32Array): boolean {
  let nonZero = false;
  for (const value of vector) {
    if (!Number.isFinite(value)) return false;
    if (value !== 0) nonZero = true;
  }
  return nonZero;
}

/** True when a `vec0` column can hold vectors of `dimensions` (1 to {@link MAX_VECTOR_DIMENSIONS}). */
export function storableDimensions(dimensions: number): boolean {
  return Number.isInteger(dimensions) && dimensions >= 1 && dimensions <= MAX_VECTOR_DIMENSIONS;
}

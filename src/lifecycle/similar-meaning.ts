/**
 * Similar items by meaning on write (mem-context's dedup: cosine > 0.82): with an embedder whose
 * model made the store's vectors, the written text is embedded (bounded by
 * {@link WRITE_EMBED_TIMEOUT_MS}; a slow or failing embedder only skips this check) and the
 * vector index's nearest live, non-quarantined items of the same scope at or above
 * {@link SIMILAR_COSINE} are reported beside the word-similar ones. Reported only: a write is
 * never folded into an item found this way (see `put.ts`). A vector without a direction (a text
 * with no word the model knows: all zeros) is alike to nothing, and is never compared.
 */
import type { OperationContext } from '../context.js';
import type { MemoryItem } from '../types.js';
import { hasDirection } from '../util/vector-checks.js';
import { contentSimilarity, similarityFeatures } from './cluster.js';
import { comparable, compareWith, type SimilarItem } from './similar.js';

/** Cosine at or above which a stored item is reported as similar in meaning (mem-context's 0.82). */
export const SIMILAR_COSINE = 0.82;
/** How long a write waits for the vector of its text before going on without this check. */
export const WRITE_EMBED_TIMEOUT_MS = 2000;
/** How many items similar in meaning are reported. */
const REPORTED = 5;

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * The vector of `text` for the similarity check, or undefined when there is nothing to compare
 * with (no embedder, no vectors, or vectors of another model) or the embedder did not answer in time.
 */
export async function vectorForSimilar(ctx: OperationContext, text: string): Promise<Float32Array | undefined> {
  const { embedder } = ctx;
  const vectors = ctx.store.vectors;
  if (embedder === undefined || vectors === undefined) return undefined;
  const model = await vectors.model();
  if (model === undefined || (await vectors.count()) === 0) return undefined;
  // A provisional id (a Model2Vec model not loaded yet) is compared again after it answers.
  if (embedder.provisional !== true && model.id !== embedder.id) return undefined;
  try {
    const [vector] = await embedder.embed([text], { signal: AbortSignal.timeout(WRITE_EMBED_TIMEOUT_MS) });
    return vector !== undefined && model.id === embedder.id && vector.length === model.dimensions ? vector : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Live, non-quarantined items of `item`'s scope whose vectors are within {@link SIMILAR_COSINE}
 * of `vector`, most similar first, each with its word similarity, kind and cosine.
 */
export async function findSimilarByMeaning(
  ctx: Pick<OperationContext, 'store'>,
  item: MemoryItem,
  vector: Float32Array,
): Promise<SimilarItem[]> {
  const vectors = ctx.store.vectors;
  if (vectors === undefined || !hasDirection(vector)) return [];
  const filter = { scope: item.scope, archived: 'exclude', quarantined: 'exclude' } as const;
  const nearest = await vectors.nearest(vector, filter, REPORTED + 1);
  const mine = similarityFeatures(item);
  const written = comparable(item);
  return nearest
    .filter((hit) => hit.item.id !== item.id && hit.score >= SIMILAR_COSINE)
    .slice(0, REPORTED)
    .map((hit) => {
      const words = round3(contentSimilarity(mine, similarityFeatures(hit.item)));
      return { ...compareWith(comparable(hit.item), written, words), cosine: round3(hit.score) };
    });
}

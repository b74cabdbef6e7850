/**
 * The configured embedder's state for `engram doctor`: whether it can be used at all (its spelling
 * parses, its Model2Vec model loads), whether it answers, and whether it makes the stored vectors.
 * An HTTP embedder's id comes from its spelling, so another model than the stored vectors' is told
 * without contacting it; one that does not answer is not the store's problem.
 */
import type { Embedder } from '../embed/embedder.js';
import { toEngramError } from '../errors.js';
import { EMBED_ON_WRITE_MS } from '../items/embed-items.js';

export interface EmbedderHealth {
  /** The embedder's id: its model's once it has answered, else the spelling's. */
  id: string;
  /**
   * - `ok`: it answered, and makes the stored vectors (when there are some);
   * - `mismatch`: the stored vectors come from another model (a problem);
   * - `invalid`: the spelling does not parse or the Model2Vec model cannot be loaded (a problem);
   * - `unavailable`: it did not answer in time (not a problem of the store).
   */
  status: 'ok' | 'mismatch' | 'invalid' | 'unavailable';
  /** The dimension of its answer; null when it was not asked or did not answer. */
  dimensions: number | null;
  /** Why it is invalid or unavailable. */
  error?: string;
}

/**
 * The embedder's state against the stored vectors' model (`recorded`), with one short probe unless
 * its spelled id already differs; a mismatch or an unusable embedder is added to `problems`.
 *
 * @example
 * const health = await embedderHealth(embedder, { id: 'ollama:m', dimensions: 768 }, problems);
 */
export async function embedderHealth(
  embedder: Embedder,
  recorded: { id: string; dimensions: number } | undefined,
  problems: string[],
): Promise<EmbedderHealth> {
  const mismatch = (dimensions: number | null): EmbedderHealth => {
    problems.push(
      `vectors come from ${recorded?.id} (${recorded?.dimensions} dimensions) but the embedder is ${embedder.id}: `
      + 'run `engram embed --rebuild`',
    );
    return { id: embedder.id, status: 'mismatch', dimensions };
  };
  if (recorded !== undefined && embedder.provisional !== true && recorded.id !== embedder.id) return mismatch(null);
  let dimensions: number | undefined;
  try {
    [dimensions] = (await embedder.embed(['dimension probe'], { signal: AbortSignal.timeout(EMBED_ON_WRITE_MS) }))
      .map((vector) => vector.length);
  } catch (error) {
    const failure = toEngramError(error);
    // A spelling that does not parse or a model that does not load: the embedder cannot be used.
    if (failure.code === 'PARAM_ERROR') {
      problems.push(`embedder: ${failure.message}`);
      return { id: embedder.id, status: 'invalid', dimensions: null, error: failure.message };
    }
    return { id: embedder.id, status: 'unavailable', dimensions: null, error: failure.message };
  }
  if (recorded !== undefined && (recorded.id !== embedder.id || dimensions !== recorded.dimensions)) {
    return mismatch(dimensions ?? null);
  }
  return { id: embedder.id, status: 'ok', dimensions: dimensions ?? null };
}

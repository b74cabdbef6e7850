/**
 * Items to vectors: the text an item is embedded by, and the one place vectors are computed and
 * stored. Vectors are derived data written after the item's own transaction has committed, so an
 * embedder that is slow, down or misconfigured never delays or fails a write: the item simply stays
 * without a vector (pending) until `embed` or the MCP server's background pass fills it.
 */
import type { Embedder } from '../embed/embedder.js';
import { EngramError, type ErrorFix, FIX_HINTS, toEngramError } from '../errors.js';
import type { Store, VectorModel } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { MAX_VECTOR_DIMENSIONS, storableDimensions } from '../util/vector-checks.js';

/**
 * How long a write waits, in total, for the vectors of what it stored: 1500 ms. Past that the
 * embedding is cancelled and the items stay pending.
 */
export const EMBED_ON_WRITE_MS = 1500;

/** Items embedded per request and stored per transaction by the pending passes. */
export const EMBED_BATCH = 64;

/**
 * Vectors a write has already computed, by the text they were computed from (the similar-by-meaning
 * check of a new item): the pass after the write takes them instead of embedding that text again.
 */
export type KnownVectors = Map<string, Float32Array>;

/** The text of an item its vector is computed from: the title (when there is one) and the content. */
export function embeddingText(item: Pick<MemoryItem, 'title' | 'content'>): string {
  return item.title === '' ? item.content : `${item.title}\n${item.content}`;
}

function sameModel(a: VectorModel, b: VectorModel): boolean {
  return a.id === b.id && a.dimensions === b.dimensions;
}

/** The stored vectors come from another model than the embedder's: they cannot be mixed. */
export function modelMismatch(
  recorded: VectorModel,
  embedder: { id: string; dimensions: number | undefined },
): EngramError {
  const dims = embedder.dimensions === undefined ? '' : ` (${embedder.dimensions} dimensions)`;
  return new EngramError(
    'PARAM_ERROR',
    `The stored vectors come from ${recorded.id} (${recorded.dimensions} dimensions), the embedder is ${embedder.id}${dims}`,
    {
      hint: FIX_HINTS.rebuild_vectors,
      fix: 'rebuild_vectors',
      details: { recorded: recorded.id, recorded_dimensions: recorded.dimensions, embedder: embedder.id },
    },
  );
}

/**
 * Fails with a model mismatch when the embedder is known not to make the recorded vectors. An id
 * known before any contact (the HTTP kinds: from the spelling) is compared before any text is
 * sent; a provisional one (a Model2Vec model not loaded yet) once the embedder has answered.
 */
async function checkModel(store: Store, embedder: Embedder, vectorLength?: number): Promise<VectorModel | undefined> {
  const recorded = await store.vectors?.model();
  const dimensions = vectorLength ?? embedder.dimensions;
  if (recorded === undefined) return recorded;
  const otherId = embedder.provisional !== true && recorded.id !== embedder.id;
  if (otherId || (dimensions !== undefined && dimensions !== recorded.dimensions)) {
    throw modelMismatch(recorded, { id: embedder.id, dimensions });
  }
  return recorded;
}

/**
 * The dimension of an embedder's vectors, checked before they reach the store: 1 to
 * {@link MAX_VECTOR_DIMENSIONS} (what sqlite-vec holds); EMBEDDER_UNAVAILABLE (the model's fault) otherwise.
 */
export function checkDimensions(embedder: Pick<Embedder, 'id'>, dimensions: number): number {
  if (storableDimensions(dimensions)) return dimensions;
  throw new EngramError(
    'EMBEDDER_UNAVAILABLE',
    `${embedder.id} answered vectors of ${dimensions} dimensions; the vector index holds 1 to ${MAX_VECTOR_DIMENSIONS}`,
    { hint: `Use an embedding model of at most ${MAX_VECTOR_DIMENSIONS} dimensions.`, details: { dimensions } },
  );
}

/**
 * One vector per text, in order: those in `known` (computed by `embedder` for that very text) as
 * they are, the others in one request. Fails as {@link embedAndStore}.
 */
async function vectorsOf(
  embedder: Embedder,
  texts: readonly string[],
  known: ReadonlyMap<string, Float32Array> | undefined,
  signal: AbortSignal | undefined,
): Promise<Float32Array[]> {
  const asked = texts.filter((text) => known?.get(text) === undefined);
  const answered = asked.length === 0 ? [] : await embedder.embed(asked, signal === undefined ? {} : { signal });
  if (answered.length !== asked.length) {
    throw new EngramError('EMBEDDER_UNAVAILABLE', `${embedder.id} answered ${answered.length} vectors for ${asked.length} texts`);
  }
  let next = 0;
  return texts.map((text) => known?.get(text) ?? (answered[next++] as Float32Array));
}

/**
 * Embeds `items` in one request and stores their vectors in one transaction; returns how many were
 * stored. A text whose vector is in `known` is not sent again. An item deleted or rewritten
 * meanwhile is skipped (its new text is pending). Fails with the embedder's error (vectors of a
 * dimension the store cannot hold included), a model mismatch (PARAM_ERROR, nothing stored), or
 * when `signal` aborts. With `replace` (the first batch of a rebuild), every stored vector is
 * dropped and the embedder's model recorded in the same transaction as these vectors: nothing
 * changes unless they are stored.
 */
export async function embedAndStore(
  store: Store,
  embedder: Embedder,
  items: readonly MemoryItem[],
  signal?: AbortSignal,
  known?: ReadonlyMap<string, Float32Array>,
  replace = false,
): Promise<number> {
  if (store.vectors === undefined || items.length === 0) return 0;
  if (!replace) await checkModel(store, embedder);
  const texts = items.map(embeddingText);
  const vectors = await vectorsOf(embedder, texts, known, signal);
  const model: VectorModel = { id: embedder.id, dimensions: vectors[0]?.length ?? 0 };
  if (model.dimensions === 0 || vectors.some((vector) => vector.length !== model.dimensions)) {
    throw new EngramError('EMBEDDER_UNAVAILABLE', `${embedder.id} answered vectors of no or differing dimensions`);
  }
  checkDimensions(embedder, model.dimensions);
  const recorded = replace ? undefined : await checkModel(store, embedder, model.dimensions);
  if (signal?.aborted === true) throw timedOut(embedder, signal);
  return store.transaction(async (tx) => {
    if (replace) await tx.vectors?.reset(model);
    if (recorded !== undefined && !sameModel(recorded, model)) throw modelMismatch(recorded, model);
    let stored = 0;
    for (const [i, item] of items.entries()) {
      const current = await tx.items.get(item.id);
      const vector = vectors[i];
      if (current === undefined || vector === undefined || embeddingText(current) !== texts[i]) continue;
      await tx.vectors?.put(item.id, vector, model);
      stored++;
    }
    return stored;
  });
}

function timedOut(embedder: Embedder, signal: AbortSignal): EngramError {
  const reason: unknown = signal.reason;
  return reason instanceof EngramError
    ? reason
    : new EngramError('EMBEDDER_UNAVAILABLE', `Embedding with ${embedder.id} was cancelled`, { cause: reason });
}

/** What a write's embedding did: vectors stored, and why some items stay pending, if they do. */
export interface EmbedNote {
  /** Vectors stored by this write. */
  embedded: number;
  /** Why the write's items (some or all) have no vector yet; they are pending. */
  warning?: string;
  /** What would let them be embedded, when it is more than embedding again (`rebuild_vectors`). */
  fix?: ErrorFix;
}

/**
 * Embeds what a write stored (`ids`) or, with `'pending'`, the oldest pending items, within
 * `budgetMs` in total ({@link EMBED_ON_WRITE_MS}); never throws. The vectors the write computed
 * already (`known`, by text) are stored without embedding their text again. Undefined when the
 * store keeps no vectors or no embedder is configured.
 */
export async function embedAfterWrite(
  access: { store: Store; embedder?: Embedder | undefined },
  ids: readonly string[] | 'pending',
  known?: ReadonlyMap<string, Float32Array>,
  budgetMs = EMBED_ON_WRITE_MS,
): Promise<EmbedNote | undefined> {
  const { store, embedder } = access;
  const vectors = store.vectors;
  if (vectors === undefined || embedder === undefined) return undefined;
  const controller = new AbortController();
  const deadline = new EngramError('EMBEDDER_UNAVAILABLE', `${embedder.id} did not answer within ${budgetMs} ms`);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(deadline);
      reject(deadline);
    }, budgetMs);
  });
  let embedded = 0;
  const work = async () => {
    if (ids !== 'pending') {
      const items: MemoryItem[] = [];
      for (const id of ids) {
        const item = await store.items.get(id);
        if (item !== undefined) items.push(item);
      }
      for (let i = 0; i < items.length; i += EMBED_BATCH) {
        embedded += await embedAndStore(store, embedder, items.slice(i, i + EMBED_BATCH), controller.signal, known);
      }
      return;
    }
    for (let batch = await vectors.missing(EMBED_BATCH); batch.length > 0; batch = await vectors.missing(EMBED_BATCH)) {
      const stored = await embedAndStore(store, embedder, batch, controller.signal, known);
      embedded += stored;
      if (stored === 0) return;
    }
  };
  const running = work();
  running.catch(() => {});
  try {
    await Promise.race([running, expired]);
    return { embedded };
  } catch (error) {
    const failure = toEngramError(error);
    // An embedder set wrong (a malformed spelling, no model there) says how to set it right; a
    // fix the caller words itself (another model's vectors: rebuild) is passed on as such.
    const { hint, fix } = failure;
    const how = failure.code === 'PARAM_ERROR' && fix === undefined && hint !== undefined ? ` (${hint.replace(/\.$/, '')})` : '';
    return { embedded, warning: `vectors pending: ${failure.message}${how}`, ...(fix === undefined ? {} : { fix }) };
  } finally {
    clearTimeout(timer);
    expired.catch(() => {});
  }
}

/**
 * `engram embed`: fills the pending vectors (items without one) with the configured embedder, in
 * batches of {@link EMBED_BATCH}, each stored in its own transaction, so a run that is interrupted
 * (or whose embedder fails) keeps what it did and the next run resumes from there. `rebuild`
 * embeds the first batch of all items (oldest first) and, in the transaction storing it, drops every
 * vector and records the embedder's model; then it embeds the rest as pending items. A rebuild that
 * fails or is killed before that commit leaves the store as it was (old model, old vectors); after
 * it, `engram embed` with the new embedder resumes it.
 */
import type { OperationContext } from '../context.js';
import { EngramError, FIX_HINTS, toEngramError } from '../errors.js';
import { checkDimensions, EMBED_BATCH, embedAndStore, modelMismatch } from '../items/embed-items.js';
import type { Store, VectorIndex, VectorModel } from '../store/store.js';
import type { MemoryItem, VectorStats } from '../types.js';

export interface EmbedOptions {
  /** Drop every vector and embed all items again with the configured embedder. */
  rebuild?: boolean;
  /** Items per request and per transaction (default 64). */
  batchSize?: number;
  /** Stop after this many batches (the MCP server's background pass); default: until none is pending. */
  maxBatches?: number;
  /** Called after each stored batch: vectors stored so far, and the pending count at the start. */
  onProgress?: (done: number, total: number) => void;
  /** Stops between batches (and cancels the running request) when it aborts. */
  signal?: AbortSignal;
  /**
   * When nothing was pending, ask the embedder once for its model and fail as a run with work to
   * do would when it is not the stored vectors' model (default true; the MCP server's background
   * pass does not, so an idle server sends no requests).
   */
  confirmModel?: boolean;
}

export interface EmbedResult {
  /** The embedder's model id and the dimension of its vectors. */
  embedder: string;
  dimensions: number | null;
  rebuilt: boolean;
  /** Vectors stored by this run. */
  embedded: number;
  /** Items with a vector, and items still without one, after the run. */
  vectors: number;
  pending: number;
}

function requireVectors(ctx: OperationContext): VectorIndex {
  if (ctx.store.vectors !== undefined) return ctx.store.vectors;
  throw new EngramError('DB_ERROR', 'This store keeps no vectors (the sqlite-vec extension is not available here)', {
    hint: 'Search stays lexical; install engram where sqlite-vec has a build for the platform.',
  });
}

/**
 * Embeds the pending items; PARAM_ERROR without an embedder, or when the stored vectors come from
 * another model (unless `rebuild`). An embedder failure part-way is thrown with the count stored
 * before it in its details.
 *
 * @example
 * const { embedded, pending } = await embedPending(ctx, { onProgress: (done, total) => log(`${done}/${total}`) });
 */
export async function embedPending(ctx: OperationContext, options: EmbedOptions = {}): Promise<EmbedResult> {
  const { embedder, store } = ctx;
  if (embedder === undefined) {
    throw new EngramError('PARAM_ERROR', 'No embedder is configured', {
      hint: FIX_HINTS.configure_embedder,
      fix: 'configure_embedder',
    });
  }
  const vectors = requireVectors(ctx);
  const { rebuild = false, batchSize = EMBED_BATCH, maxBatches = Infinity, onProgress, signal } = options;
  const { confirmModel = true } = options;
  const signalled = signal === undefined ? {} : { signal };
  let embedded = 0;
  if (rebuild) {
    // The embedder answers first: an unreachable one leaves the stored vectors as they were.
    const [probe] = await embedder.embed(['dimension probe'], signalled);
    const model = { id: embedder.id, dimensions: checkDimensions(embedder, probe?.length ?? 0) };
    const first = await oldest(store, batchSize);
    // The reset commits with the first batch's vectors (an empty store: on its own).
    if (first.length === 0) await store.transaction(async (tx) => tx.vectors?.reset(model));
    else embedded = await embedAndStore(store, embedder, first, signal, undefined, true);
  }
  const total = embedded + (await vectors.missingCount());
  if (embedded > 0) onProgress?.(embedded, total);
  for (let batches = 0; batches < maxBatches && signal?.aborted !== true; batches++) {
    const batch = await vectors.missing(batchSize);
    if (batch.length === 0) break;
    let stored: number;
    try {
      stored = await embedAndStore(store, embedder, batch, signal);
    } catch (error) {
      const failure = toEngramError(error);
      if (embedded === 0 || failure.code === 'PARAM_ERROR') throw failure;
      throw new EngramError(failure.code, `${failure.message} (after ${embedded} vectors stored; embedding again resumes)`, {
        ...(failure.hint === undefined ? {} : { hint: failure.hint }),
        details: { ...failure.details, embedded, pending: await vectors.missingCount() },
        cause: failure,
      });
    }
    embedded += stored;
    onProgress?.(embedded, total);
    // Items rewritten while they were embedded stay pending; a batch that stores nothing ends the run.
    if (stored === 0) break;
  }
  const model = await vectors.model();
  if (confirmModel && embedded === 0 && !rebuild) await confirm(ctx, model, signalled);
  return {
    embedder: embedder.id,
    dimensions: model?.dimensions ?? embedder.dimensions ?? null,
    rebuilt: rebuild,
    embedded,
    vectors: await vectors.count(),
    pending: await vectors.missingCount(),
  };
}

/** The `limit` oldest items (`created_at`, then id), archived and quarantined included. */
async function oldest(store: Store, limit: number): Promise<MemoryItem[]> {
  const items: MemoryItem[] = [];
  for await (const item of store.items.iterate()) {
    items.push(item);
    if (items.length >= limit) break;
  }
  return items;
}

/**
 * A run that embedded nothing may not have opened its embedder: one probe tells its real model (a
 * lazily opened one's id is provisional) and shows that it answers; PARAM_ERROR when the stored
 * vectors come from another model (as a run with work to do finds), the embedder's error otherwise.
 */
async function confirm(
  ctx: OperationContext,
  model: VectorModel | undefined,
  signalled: { signal?: AbortSignal },
): Promise<void> {
  const embedder = ctx.embedder!;
  // An id known from the spelling alone tells another model without contacting the embedder.
  if (model !== undefined && embedder.provisional !== true && model.id !== embedder.id) {
    throw modelMismatch(model, { id: embedder.id, dimensions: embedder.dimensions });
  }
  const dimensions = embedder.dimensions ?? (await embedder.embed(['dimension probe'], signalled))[0]?.length;
  if (model !== undefined && (model.id !== embedder.id || model.dimensions !== dimensions)) {
    throw modelMismatch(model, { id: embedder.id, dimensions });
  }
}

/** The store's vector figures; undefined when it keeps no vectors. */
export async function vectorStats(ctx: OperationContext): Promise<VectorStats | undefined> {
  const vectors = ctx.store.vectors;
  if (vectors === undefined) return undefined;
  const model = await vectors.model();
  return {
    model: model?.id ?? null,
    dimensions: model?.dimensions ?? null,
    vectors: await vectors.count(),
    pending: await vectors.missingCount(),
    embedder: ctx.embedder?.id ?? null,
  };
}

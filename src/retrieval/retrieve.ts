/**
 * The retrieval modes search and recall share: `lexical` (the full-text cascade), `semantic` (the
 * vector index's nearest items) and `hybrid` (both, fused by reciprocal rank, see
 * `search/fusion.ts`). Both lists take the caller's filter as is, so policy, quarantine,
 * injectable, secrecy, archive and expiry rules hold in every mode alike.
 *
 * Without a mode, hybrid runs when the store has vectors and the configured embedder is the model
 * that made them; lexical otherwise. Asking for `semantic` or `hybrid` when that does not hold
 * fails with PARAM_ERROR saying what is missing (asking is a choice, so it is not silently
 * ignored); so does a mode asked for with an embedder that is set wrong (a malformed spelling, a
 * model directory that is not a Model2Vec model: PARAM_ERROR when it is opened). When embedding
 * the query fails (the embedder is unreachable, or slower than {@link QUERY_EMBED_TIMEOUT_MS}), or
 * is set wrong and no mode was asked for, the read degrades to lexical with a warning: a read never
 * fails because of an embedder's server. A query whose vector has no direction (no word the model
 * knows: all zeros) is near nothing: hybrid and the default read lexically with a warning, and an
 * asked semantic read finds nothing (with the warning) rather than every item.
 */
import type { OperationContext } from '../context.js';
import { EngramError, FIX_HINTS, toEngramError } from '../errors.js';
import { modelMismatch } from '../items/embed-items.js';
import { type ScoreParts, searchCascade, type SearchStage, withContext } from '../search/cascade.js';
import { type FusedHit, fuseRanks, lexicalOnly, similarEnough, vectorOnly } from '../search/fusion.js';
import type { ListFilter } from '../store/store.js';
import { hasDirection } from '../util/vector-checks.js';

export const RETRIEVAL_MODES = ['lexical', 'semantic', 'hybrid'] as const;
export type RetrievalMode = (typeof RETRIEVAL_MODES)[number];

/** Which stage answered: the lexical cascade's, or `vector` in semantic mode. */
export type RetrievalStage = SearchStage | 'vector';

/** How long embedding a query may take before the read goes on lexically. */
export const QUERY_EMBED_TIMEOUT_MS = 5000;

/**
 * How many nearest items hybrid mode fuses with the lexical hits (semantic mode takes the whole
 * pool). Past the 40th, a vector hit adds at most 1/100 to an RRF score, and the vector scan costs
 * more the more it is asked for.
 */
export const HYBRID_VECTOR_POOL = 40;

/** The mode a read runs in, with the query's vector when it uses one. */
export interface RetrievalPlan {
  mode: RetrievalMode;
  vector?: Float32Array;
  /**
   * Why the read runs in another mode than the one it would have (the embedder failed), or why a
   * semantic read has no vector (the query has no word the model knows: it finds nothing).
   */
  warnings: string[];
}

export interface Retrieved {
  mode: RetrievalMode;
  /** The query's words (empty in semantic mode, which does not split the query). */
  terms: string[];
  stage: RetrievalStage;
  fts: boolean;
  /** In lexical mode, with the proximity and context parts of each score (for `--explain`). */
  hits: (FusedHit & Partial<ScoreParts>)[];
}

/**
 * Why semantic retrieval cannot run (the error an explicit mode fails with), or undefined when it
 * may. An HTTP embedder's id is known from its spelling, so another model is refused before the
 * query is sent; a provisional id (a Model2Vec model not loaded yet) is compared again once it has
 * embedded the query.
 */
async function unusable(ctx: OperationContext, asked: RetrievalMode): Promise<EngramError | undefined> {
  const { embedder } = ctx;
  const vectors = ctx.store.vectors;
  const refuse = (why: string, fix?: 'configure_embedder') =>
    new EngramError('PARAM_ERROR', `${asked} retrieval needs vectors: ${why}`, {
      hint: `${fix === undefined ? 'Fill the vectors (embed).' : FIX_HINTS[fix]} Or use the lexical mode.`,
      ...(fix === undefined ? {} : { fix }),
    });
  if (embedder === undefined) return refuse('no embedder is configured', 'configure_embedder');
  if (vectors === undefined) return refuse('this store has no vector index');
  const model = await vectors.model();
  if (model === undefined || (await vectors.count()) === 0) return refuse('the store holds no vectors yet');
  // An id known without contacting the embedder is compared before the query is sent to it.
  if (embedder.provisional !== true && model.id !== embedder.id) return modelMismatch(model, embedder);
  return undefined;
}

/**
 * Chooses the mode (see the module comment) and embeds the query for semantic and hybrid reads.
 *
 * @example
 * const plan = await planRetrieval(ctx, 'automobile wheels'); // { mode: 'hybrid', vector, warnings: [] }
 */
export async function planRetrieval(
  ctx: OperationContext,
  query: string,
  asked?: RetrievalMode,
): Promise<RetrievalPlan> {
  if (asked === 'lexical') return { mode: 'lexical', warnings: [] };
  const refused = await unusable(ctx, asked ?? 'hybrid');
  if (refused !== undefined) {
    if (asked === undefined) return { mode: 'lexical', warnings: [] };
    throw refused;
  }
  const mode = asked ?? 'hybrid';
  const embedder = ctx.embedder!;
  const model = (await ctx.store.vectors!.model())!;
  let vector: Float32Array | undefined;
  try {
    [vector] = await embedder.embed([query], { signal: AbortSignal.timeout(QUERY_EMBED_TIMEOUT_MS) });
  } catch (error) {
    const failure = toEngramError(error);
    if (failure.code === 'PARAM_ERROR' && asked !== undefined) throw failure;
    return { mode: 'lexical', warnings: [`embedding the query failed (${failure.message}): lexical search only`] };
  }
  if (model.id !== embedder.id) {
    if (asked === undefined) return { mode: 'lexical', warnings: [] };
    throw modelMismatch(model, embedder);
  }
  if (vector === undefined || vector.length !== model.dimensions) {
    const got = vector === undefined ? 'no vector' : `${vector.length} dimensions`;
    const warning = `the embedder answered ${got} for the query, the stored vectors have ${model.dimensions}: lexical search only`;
    return { mode: 'lexical', warnings: [warning] };
  }
  if (!hasDirection(vector)) {
    const warning = 'the query has no word the model knows';
    if (mode === 'semantic') return { mode, warnings: [`${warning}: no semantic match`] };
    return { mode: 'lexical', warnings: [`${warning}: lexical search only`] };
  }
  return { mode, vector, warnings: [] };
}

/**
 * The hits of `plan`'s mode for `query` under `filter`: at most `pool` from each list, fused in
 * hybrid mode, best first (before re-ranking).
 */
export async function retrieve(
  ctx: OperationContext,
  query: string,
  filter: ListFilter,
  pool: number,
  plan: RetrievalPlan,
): Promise<Retrieved> {
  const nearest = async (limit = pool) =>
    plan.vector === undefined ? [] : similarEnough(await ctx.store.vectors!.nearest(plan.vector, filter, limit));
  if (plan.mode === 'semantic') {
    return { mode: 'semantic', terms: [], stage: 'vector', fts: ctx.fullText && ctx.store.text.ranked, hits: vectorOnly(await nearest()) };
  }
  const found = await searchCascade(ctx.store, query, filter, pool, ctx.fullText, ctx.indexer);
  // Neighbouring context (`search/context.ts`) lifts the lexical hits before any fusion.
  const lexical = await withContext(ctx.store, found.hits, filter, pool);
  const { terms, stage, fts } = found;
  if (plan.mode === 'lexical') return { mode: 'lexical', terms, stage, fts, hits: lexicalOnly(lexical) };
  return { mode: 'hybrid', terms, stage, fts, hits: fuseRanks(lexical, await nearest(Math.min(pool, HYBRID_VECTOR_POOL))) };
}

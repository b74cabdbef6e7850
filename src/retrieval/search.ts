/**
 * The search operation: a free-text query through the cascade (BM25, then word prefixes, then
 * substrings), the vector index, or both fused (see `retrieve.ts`), ranked, cut to `k` and
 * redacted for the caller's secrecy tier. It sits above
 * `search/` (the pure query, cascade and ranking code) and `items/` (the input schemas), so that
 * neither of those imports the other's way up.
 */
import type { OperationContext } from '../context.js';
import { LIGHT_SCHEMAS } from '../items/light-schemas.js';
import { parseInputLight } from '../items/parse-input.js';
import { redactItem } from '../policy/redact.js';
import type { MemoryItem } from '../types.js';
import { explainHit, rankHits, type ScoreParts } from '../search/cascade.js';
import type { FusedHit } from '../search/fusion.js';
import type { RankFactors, SearchSort } from '../search/rank.js';
import { planRetrieval, retrieve, type RetrievalMode, type RetrievalStage } from './retrieve.js';
import type { SearchInput } from './search-schema.js';

const DEFAULT_SEARCH_K = 10;

export type { SearchInput } from './search-schema.js';

export type { SearchStage } from '../search/cascade.js';
export type { RetrievalMode, RetrievalStage } from './retrieve.js';

/**
 * The ranking factors of a hit. In semantic and hybrid mode `bm25` is the lexical score (absent
 * when only the vectors found the item) and the fusion is shown: each list's 1-based rank (null
 * when that list did not find the item), the cosine similarity, and the fused score the factors
 * were applied to.
 */
export type HitExplain = Omit<ReturnType<typeof explainHit>, 'bm25'> & {
  bm25?: number;
  lexical_rank?: number | null;
  vector_rank?: number | null;
  similarity?: number | null;
  fused?: number;
};

export interface SearchHit extends MemoryItem {
  /** The final ranking score (see `search/rank.ts`); higher is better. */
  score: number;
  /** Every ranking factor, with `explain: true`. */
  explain?: HitExplain;
}

export interface SearchResult {
  query: string;
  /** The words searched for, after stopwords and segmentation. */
  terms: string[];
  /** The mode that ran: the one asked for, the default, or lexical when the query embedding failed. */
  mode: RetrievalMode;
  /** The lexical cascade's stage that answered; `vector` in semantic mode. */
  stage: RetrievalStage;
  /** False when the LIKE fallback answered because the full-text index is unavailable or off. */
  fts: boolean;
  sort: SearchSort;
  count: number;
  items: SearchHit[];
  /** Present when the search ran in another mode than it would have (the query embedding failed). */
  warnings?: string[];
}

const round = (value: number) => Number(value.toPrecision(6));

/** The fusion fields of `--explain` (semantic and hybrid modes). */
function fusionExplain(hit: FusedHit) {
  return {
    ...(hit.lexical_score === undefined ? {} : { bm25: round(hit.lexical_score) }),
    lexical_rank: hit.lexical_rank ?? null,
    vector_rank: hit.vector_rank ?? null,
    similarity: hit.similarity === undefined ? null : round(hit.similarity),
    fused: round(hit.score),
  };
}

/**
 * Full-text search: BM25 over title, tags, entities and content (CJK segmented), any of the words;
 * when nothing matches, word prefixes, then substrings (LIKE). With vectors, the nearest items by
 * meaning too (semantic), or both fused (hybrid). Items written next to a hit from the same source
 * share its score (`search/context.ts`). Quarantined items are left out unless the filter asks for
 * them.
 *
 * @example
 * const { items } = await search(ctx, { query: 'jwt auth', k: 5 });
 */
export async function search(ctx: OperationContext, input: SearchInput): Promise<SearchResult> {
  const parsed = await parseInputLight(LIGHT_SCHEMAS.search, input, async () => (await import('./search-schema.js')).searchInputSchema);
  const {
    query, k = DEFAULT_SEARCH_K, sort = 'relevance', explain = false, secrecy = ctx.defaultSecrecy, mode: asked, ...rest
  } = parsed;
  const filter = { ...rest, quarantined: rest.quarantined ?? 'exclude' };
  const pool = Math.min(Math.max(k * 3, 30), 500);
  const plan = await planRetrieval(ctx, query, asked);
  const found = await retrieve(ctx, query, filter, pool, plan);
  const byId = new Map(found.hits.map((h) => [h.item.id, h]));
  const explained = (item: MemoryItem, factors: RankFactors, parts: ScoreParts): HitExplain => {
    const base = explainHit(item, factors, found.terms, ctx.clock(), parts);
    if (found.mode === 'lexical') return base;
    const { bm25: _fused, ...rest } = base;
    return { ...rest, ...fusionExplain(byId.get(item.id)!) };
  };
  const items = rankHits(found.hits, sort, ctx.clock())
    .slice(0, k)
    .map(({ item, factors, parts }) => ({
      ...redactItem(item, secrecy),
      score: factors.final,
      ...(explain ? { explain: explained(item, factors, parts) } : {}),
    }));
  const { terms, stage, fts, mode } = found;
  const warned = plan.warnings.length > 0 ? { warnings: plan.warnings } : {};
  return { query, terms, mode, stage, fts, sort, count: items.length, items, ...warned };
}

/**
 * The search operation: a free-text query through the cascade (BM25, then word prefixes, then
 * substrings), ranked, cut to `k` and redacted for the caller's secrecy tier. It sits above
 * `search/` (the pure query, cascade and ranking code) and `items/` (the input schemas), so that
 * neither of those imports the other's way up.
 */
import { z } from 'zod';
import type { OperationContext } from '../context.js';
import { parseInput } from '../items/parse-input.js';
import { listFilterSchema } from '../items/schemas.js';
import { redactItem } from '../policy/redact.js';
import { SECRECY_TIERS, type MemoryItem } from '../types.js';
import { explainHit, rankHits, type SearchStage, searchCascade, withContext } from '../search/cascade.js';
import { SORTS, type SearchSort } from '../search/rank.js';

const DEFAULT_SEARCH_K = 10;

/** `search`: a free-text query (any string is safe) with list's filters and a result count. */
export const searchInputSchema = listFilterSchema.omit({ sort: true, limit: true, offset: true }).extend({
  query: z.string().max(10_000),
  k: z.number().int().min(1).max(1000).optional(),
  injectable: z.boolean().optional(),
  sort: z.enum(SORTS).optional(),
  explain: z.boolean().optional(),
  secrecy: z.enum(SECRECY_TIERS).optional(),
});

export type SearchInput = z.input<typeof searchInputSchema>;

export type { SearchStage } from '../search/cascade.js';

export interface SearchHit extends MemoryItem {
  /** The final ranking score (see `search/rank.ts`); higher is better. */
  score: number;
  /** Every ranking factor, with `explain: true`. */
  explain?: ReturnType<typeof explainHit>;
}

export interface SearchResult {
  query: string;
  /** The words searched for, after stopwords and segmentation. */
  terms: string[];
  stage: SearchStage;
  /** False when the LIKE fallback answered because the full-text index is unavailable or off. */
  fts: boolean;
  sort: SearchSort;
  count: number;
  items: SearchHit[];
}

/**
 * Full-text search: BM25 over title, tags, entities and content (CJK segmented), any of the words;
 * when nothing matches, word prefixes, then substrings (LIKE). Items written next to a hit from
 * the same source share its score (`search/context.ts`). Quarantined items are left out
 * unless the filter asks for them.
 *
 * @example
 * const { items } = await search(ctx, { query: 'jwt auth', k: 5 });
 */
export async function search(ctx: OperationContext, input: SearchInput): Promise<SearchResult> {
  const parsed = parseInput(searchInputSchema, input);
  const { query, k = DEFAULT_SEARCH_K, sort = 'relevance', explain = false, secrecy = ctx.defaultSecrecy, ...rest } = parsed;
  const filter = { ...rest, quarantined: rest.quarantined ?? 'exclude' };
  const pool = Math.min(Math.max(k * 3, 30), 500);
  const found = await searchCascade(ctx.store, query, filter, pool, ctx.fullText, ctx.indexer);
  const hits = await withContext(ctx.store, found.hits, filter, pool);
  const items = rankHits(hits, sort, ctx.clock())
    .slice(0, k)
    .map(({ item, factors, parts }) => ({
      ...redactItem(item, secrecy),
      score: factors.final,
      ...(explain ? { explain: explainHit(item, factors, found.terms, ctx.clock(), parts) } : {}),
    }));
  return { query, terms: found.terms, stage: found.stage, fts: found.fts, sort, count: items.length, items };
}

/**
 * The search cascade over a store: any word ranked by BM25, then word prefixes, then substrings
 * (LIKE); the first stage with hits answers and says so. Then the neighbouring context (items
 * written next to a hit from the same source, `context.ts`) and the explainable re-ranking.
 */
import { decayOf } from '../forgetting/curve.js';
import type { ListFilter, ScoredItem, Store, TextQuery } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { type ContextHit, withNeighbours } from './context.js';
import { queryTerms } from './fts-query.js';
import type { Indexer } from './indexer.js';
import { withProximity } from './proximity.js';
import { type RankFactors, rankFactors, type SearchSort, sortRanked } from './rank.js';

/** Which stage of the search cascade answered. */
export type SearchStage = 'any' | 'prefix' | 'like' | 'none';

export interface CascadeResult {
  /** The words searched for, after stopwords and segmentation. */
  terms: string[];
  stage: SearchStage;
  /** False when only LIKE could run (no full-text index, or it is switched off). */
  fts: boolean;
  /** Best first; `proximity` is the part of the score owed to term proximity (`proximity.ts`). */
  hits: (ScoredItem & { proximity?: number })[];
}

/**
 * Runs the cascade for `query`, returning at most `k` hits of the first stage that has any; the
 * `any` stage's hits are re-ordered by term proximity (`proximity.ts`).
 */
export async function searchCascade(
  store: Store,
  query: string,
  filter: ListFilter,
  k: number,
  fullText: boolean,
  indexer: Pick<Indexer, 'segmenterFor'>,
): Promise<CascadeResult> {
  // The query is segmented as the index was, by the same indexer.
  const segment = await indexer.segmenterFor(query);
  const terms = queryTerms(query, segment);
  const fts = fullText && store.text.ranked;
  const stages: [SearchStage, TextQuery][] = [];
  if (terms.length > 0) {
    for (const mode of fts ? (['any', 'prefix'] as const) : []) stages.push([mode, { terms, mode }]);
    stages.push(['like', { terms, mode: 'substring' }]);
  }
  for (const [stage, textQuery] of stages) {
    const hits = await store.text.search(textQuery, filter, k);
    if (hits.length === 0) continue;
    if (stage !== 'any' || terms.length < 2) return { terms, stage, fts, hits };
    const near = await store.text.search({ terms, mode: 'near' }, filter, k);
    return { terms, stage, fts, hits: withProximity(hits, near) };
  }
  return { terms, stage: 'none', fts, hits: [] };
}

/**
 * Adds to `hits` the scores of their neighbours and the neighbours themselves (under the same
 * `filter`), at most `limit`, best first; no store query when no hit has a source.
 */
export async function withContext(
  store: Store,
  hits: readonly (ScoredItem & { proximity?: number })[],
  filter: ListFilter,
  limit: number,
): Promise<ContextHit[]> {
  const sourced = hits.filter((h) => (h.item.source ?? '') !== '').map((h) => h.item.id);
  const adjacent = sourced.length === 0 ? [] : await store.items.adjacent(sourced, filter);
  return withNeighbours(hits, adjacent, limit);
}

/** The parts of a hit's `bm25` that are not the BM25 of its own words. */
export interface ScoreParts {
  /** Owed to query words found close together (`proximity.ts`). */
  proximity: number;
  /** Shared by the items written next to it from the same source (`context.ts`). */
  context: number;
}

/** Re-ranks hits with the explainable factors, then orders them by `sort`. */
export function rankHits(hits: readonly (ScoredItem & Partial<ScoreParts>)[], sort: SearchSort, now: Date) {
  const best = Math.max(0, ...hits.map((h) => h.score));
  return sortRanked(
    hits.map((h) => ({
      item: h.item,
      parts: { proximity: h.proximity ?? 0, context: h.context ?? 0 },
      factors: rankFactors(h.item, h.score, best, now),
    })),
    sort,
  );
}

/**
 * Where the query words were found, for `--explain`; BM25's column weights (title 10, tags 5,
 * entities 3, content 1) are what make these matches count.
 */
export function explainHit(
  item: MemoryItem,
  factors: RankFactors,
  terms: readonly string[],
  now: Date,
  parts: ScoreParts = { proximity: 0, context: 0 },
) {
  const title = item.title.toLowerCase();
  const { decay, is_stale: isStale } = decayOf(item, now);
  return {
    ...factors,
    proximity: Number(parts.proximity.toPrecision(6)),
    context: Number(parts.context.toPrecision(6)),
    decay,
    is_stale: isStale,
    title_match: terms.some((t) => title.includes(t)),
    tag_match: terms.some((t) => item.tags.some((tag) => tag.includes(t))),
  };
}

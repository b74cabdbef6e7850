/**
 * Re-ranking of full-text hits with explainable factors (pure). The final score is
 *
 *   final = relevance × tier × type × (0.5 + 0.5·confidence) × (0.7 + 0.3·recency)
 *           × min(weight, 2) × (1 + 0.05·ln(1 + usage_count))
 *
 * where relevance is the hit's BM25 divided by the best BM25 of the candidates (0..1), tier is
 * 1.10 for ltm, 1.05 for mtm, 1 for stm, type is 1.10 for decision/constraint/definition, and
 * recency = exp(−ln2 · age_days / half_life) with memtool's half-lives by layer (run 14 d,
 * feature 180 d, project 365 d; 180 d without a layer). Items that differ only in relevance keep
 * BM25's order. Sorts other than relevance follow memtool §8.1.
 */
import { HALF_LIFE_DAYS } from '../forgetting/curve.js';
import type { MemoryItem } from '../types.js';

export const SORTS = ['relevance', 'updated', 'confidence', 'recency', 'mixed'] as const;
export type SearchSort = (typeof SORTS)[number];

const DEFAULT_HALF_LIFE_DAYS = 180;
const TIER_BOOST: Readonly<Record<string, number>> = Object.freeze({ ltm: 1.1, mtm: 1.05, stm: 1 });
const TYPE_BOOST: Readonly<Record<string, number>> = Object.freeze({ decision: 1.1, constraint: 1.1, definition: 1.1 });
const DAY_MS = 86_400_000;

export interface RankFactors {
  bm25: number;
  relevance: number;
  tier_boost: number;
  type_boost: number;
  confidence: number;
  recency: number;
  half_life_days: number;
  weight: number;
  usage_boost: number;
  /** memtool's mixed score: 0.6·confidence + 0.4·recency. */
  mixed: number;
  final: number;
}

/** recency = exp(−ln2 · age_days / half_life), age measured from the last update. */
export function recency(item: Pick<MemoryItem, 'layer' | 'updated_at'>, now: Date): number {
  const halfLife = HALF_LIFE_DAYS[item.layer ?? ''] ?? DEFAULT_HALF_LIFE_DAYS;
  const ageDays = Math.max(0, (now.getTime() - Date.parse(item.updated_at)) / DAY_MS);
  return Math.exp((-Math.LN2 * ageDays) / halfLife);
}

const round = (value: number) => Number(value.toPrecision(6));

/** The factors and final score of one hit, given the best BM25 among the candidates. */
export function rankFactors(item: MemoryItem, bm25: number, bestBm25: number, now: Date): RankFactors {
  const relevance = bestBm25 > 0 ? bm25 / bestBm25 : 0;
  const tierBoost = TIER_BOOST[item.tier] ?? 1;
  const typeBoost = TYPE_BOOST[item.type] ?? 1;
  const fresh = recency(item, now);
  const weight = Math.min(item.weight, 2);
  const usageBoost = 1 + 0.05 * Math.log1p(item.usage_count);
  const quality = (0.5 + 0.5 * item.confidence) * (0.7 + 0.3 * fresh) * weight * usageBoost;
  const final = relevance * tierBoost * typeBoost * quality;
  return {
    bm25: round(bm25),
    relevance: round(relevance),
    tier_boost: tierBoost,
    type_boost: typeBoost,
    confidence: item.confidence,
    recency: round(fresh),
    half_life_days: HALF_LIFE_DAYS[item.layer ?? ''] ?? DEFAULT_HALF_LIFE_DAYS,
    weight,
    usage_boost: round(usageBoost),
    mixed: round(0.6 * item.confidence + 0.4 * fresh),
    final: round(final),
  };
}

/** Orders ranked hits by `sort`, best first; ties keep their incoming (BM25) order. */
export function sortRanked<T extends { item: MemoryItem; factors: RankFactors }>(hits: T[], sort: SearchSort): T[] {
  const key: Record<SearchSort, (h: T) => number | string> = {
    relevance: (h) => h.factors.final,
    updated: (h) => h.item.updated_at,
    confidence: (h) => h.item.confidence,
    recency: (h) => h.factors.recency,
    mixed: (h) => h.factors.mixed,
  };
  const by = key[sort];
  return hits
    .map((hit, index) => ({ hit, index }))
    .sort((a, b) => {
      const x = by(a.hit);
      const y = by(b.hit);
      return x === y ? a.index - b.index : x < y ? 1 : -1;
    })
    .map(({ hit }) => hit);
}

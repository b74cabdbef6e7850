/**
 * `suggest` (memtool §8.2): candidates from the task / tag / key-prefix filters, most recent first,
 * scored by keyword overlap with the context (Jaccard), confidence, recency and weight:
 *
 *   score = 0.4·context + 0.2·confidence + 0.2·recency + 0.2·min(weight, 1)
 *
 * Each suggestion says why: context_match (overlap ≥ 0.1), high_confidence (≥ 0.8), recent
 * (recency ≥ 0.7), high_weight (weight > 1). Without a context, the tags asked for stand in for it.
 * Pure; the facade fetches the candidates.
 */
import { queryTerms } from '../search/fts-query.js';
import { recency } from '../search/rank.js';
import type { MemoryItem } from '../types.js';

export type SuggestReason = 'context_match' | 'high_confidence' | 'recent' | 'high_weight';

export interface Suggestion {
  id: string;
  title: string;
  type: MemoryItem['type'];
  score: number;
  context_match: number;
  reasons: SuggestReason[];
}

const round = (value: number) => Number(value.toPrecision(4));

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / (a.size + b.size - shared);
}

export function rankSuggestions(
  candidates: readonly MemoryItem[],
  context: string,
  tags: readonly string[],
  now: Date,
): Suggestion[] {
  const wanted = new Set(context.trim() === '' ? tags.map((t) => t.toLowerCase()) : queryTerms(context));
  return candidates
    .map((item) => {
      const terms = new Set([...queryTerms(`${item.title} ${item.content}`), ...item.tags]);
      const overlap = jaccard(wanted, terms);
      const fresh = recency(item, now);
      const score = 0.4 * overlap + 0.2 * item.confidence + 0.2 * fresh + 0.2 * Math.min(item.weight, 1);
      const reasons: SuggestReason[] = [];
      if (overlap >= 0.1) reasons.push('context_match');
      if (item.confidence >= 0.8) reasons.push('high_confidence');
      if (fresh >= 0.7) reasons.push('recent');
      if (item.weight > 1) reasons.push('high_weight');
      return {
        id: item.id,
        title: item.title || item.content.replace(/\s+/g, ' ').trim().slice(0, 80),
        type: item.type,
        score: round(score),
        context_match: round(overlap),
        reasons,
      };
    })
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/**
 * Near-duplicates on write (mem-context's dedup, text similarity for now): the full-text index
 * finds the newest {@link SIMILAR_CANDIDATES} items sharing a probe word (a bounded cost whatever
 * the store's size), word Jaccard (the measure consolidation uses) scores those of the same
 * scope, and those at or above
 * {@link NEAR_DUPLICATE_SIMILARITY} are reported. With `merge_similar` the write is folded into the
 * closest one instead of stored beside it.
 */
import { buildFtsQuery, MAX_TERMS, queryTerms } from '../search/fts-query.js';
import { hasCjk, type Segmenter } from '../search/segment.js';
import type { Store } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { contentSimilarity, similarityFeatures } from './consolidate.js';

/** Word Jaccard at or above which a stored item is reported as a near-duplicate of a write. */
export const NEAR_DUPLICATE_SIMILARITY = 0.6;
/** How many of the newest items sharing a probe word are compared per write. */
export const SIMILAR_CANDIDATES = 20;
/** How many near-duplicates are reported. */
const REPORTED = 5;

/**
 * The words to search for: an item sharing ≥ 60% of the words must contain at least one of any
 * `n - ceil(0.6 n) + 1` of them, so only that many are asked for — the longest, which tend to be the
 * rarest, keeping the OR query small.
 */
function probeTerms(words: readonly string[]): string[] {
  const needed = words.length - Math.ceil(NEAR_DUPLICATE_SIMILARITY * words.length) + 1;
  const longest = [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  return longest.slice(0, Math.min(needed, MAX_TERMS));
}

export interface SimilarItem {
  id: string;
  /** Word Jaccard with the written item, 0–1, rounded to 3 decimals. */
  similarity: number;
}

/**
 * Live, non-quarantined items of `item`'s scope whose words overlap it by at least the threshold,
 * most similar first. Empty without a full-text index (a LIKE scan per write would cost too much).
 */
export function findSimilar(store: Store, item: MemoryItem, segment: Segmenter | undefined): SimilarItem[] {
  if (!store.hasFullText()) return [];
  const mine = similarityFeatures(item);
  // The probe needs CJK runs cut into the index's words; any other text has exactly `mine`'s words.
  const text = `${item.title} ${item.content}`;
  const words = segment !== undefined && hasCjk(text) ? queryTerms(text, segment, Infinity) : [...mine.words];
  const { match } = buildFtsQuery(probeTerms(words).join(' '), { mode: 'any', segment });
  if (match === undefined) return [];
  const score = (other: MemoryItem) => Math.round(contentSimilarity(mine, similarityFeatures(other)) * 1000) / 1000;
  return store
    .newestMatches(match, SIMILAR_CANDIDATES)
    .filter((other) => other.id !== item.id && other.scope === item.scope && !other.archived && !other.quarantined)
    .map((other) => ({ id: other.id, similarity: score(other) }))
    .filter((s) => s.similarity >= NEAR_DUPLICATE_SIMILARITY)
    .sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1))
    .slice(0, REPORTED);
}

/**
 * `incoming` folded into `target`, as consolidation merges: the longer content (and its title)
 * wins, tags and entities are united, the higher confidence and weight are kept.
 */
export function mergeSimilar(target: MemoryItem, incoming: MemoryItem): MemoryItem {
  const longer = incoming.content.length > target.content.length ? incoming : target;
  return {
    ...target,
    title: longer.title || target.title || incoming.title,
    content: longer.content,
    tags: [...new Set([...target.tags, ...incoming.tags])],
    entities: [...new Set([...target.entities, ...incoming.entities])],
    confidence: Math.max(target.confidence, incoming.confidence),
    weight: Math.max(target.weight, incoming.weight),
  };
}

/**
 * Similar items on write (mem-context's dedup, text similarity for now): the full-text index
 * finds the newest {@link SIMILAR_CANDIDATES} items sharing a probe word (a bounded cost whatever
 * the store's size); those of the same scope whose words overlap at or above
 * {@link SIMILAR_WORDS} (word Jaccard), or that differ only in values, are reported with what
 * tells them apart: a near-duplicate (one says all the other says), a possible contradiction
 * (they disagree on a number, version, date, identifier, path, URL or name: "5432 → 5433") or
 * related. With `merge_similar` the write folds into the closest near-duplicate only, so nothing
 * is lost.
 */
import { MAX_TERMS, queryTerms } from '../search/fts-query.js';
import { hasCjk, type Segmenter } from '../search/segment.js';
import type { Store, TextQuery } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { unicodePattern } from '../util/unicode-pattern.js';
import { contentSimilarity, type Features, similarityFeatures } from './cluster.js';
import { itemText, type SaidText, saidText, says, shapeOf, type Token, tokenDifferences, tokensOf } from './lossless.js';

/** Word Jaccard at or above which a stored item is reported as similar to a write. */
export const SIMILAR_WORDS = 0.6;
/** How many of the longest words (values aside) the second probe asks for together. */
const ALL_TERMS = 4;
const HAS_NUMBER = unicodePattern('\\p{N}', 'u');
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
  const needed = words.length - Math.ceil(SIMILAR_WORDS * words.length) + 1;
  const longest = [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  return longest.slice(0, Math.min(needed, MAX_TERMS));
}

export interface SimilarItem {
  id: string;
  /** Word Jaccard with the written item, 0–1, rounded to 3 decimals. */
  similarity: number;
  /**
   * `near-duplicate`: one of the two says everything the other says (only these may merge);
   * `possible-contradiction`: they disagree on a distinguishing token; `related`: neither.
   */
  kind: 'near-duplicate' | 'possible-contradiction' | 'related';
  /** Distinguishing tokens that differ, stored → written ("5432 → 5433"); absent when none do. */
  differs_in?: string[];
  /**
   * Cosine similarity of the two items' vectors, when the vector index found the stored item at or
   * above `SIMILAR_COSINE` (0.82, see `similar-meaning.ts`): alike in meaning, maybe not in words.
   */
  cosine?: number;
}

export interface Comparable {
  id: string;
  said: SaidText;
  tokens: Token[];
}

export const comparable = (item: MemoryItem): Comparable => ({
  id: item.id,
  said: saidText(item),
  tokens: tokensOf(itemText(item)),
});

/** How a stored item relates to a written one (see {@link SimilarItem}). */
export function compareWith(stored: Comparable, written: Comparable, similarity: number): SimilarItem {
  const differs = tokenDifferences(stored.tokens, written.tokens);
  const kind = says(stored.said, written.said) || says(written.said, stored.said)
    ? 'near-duplicate'
    : differs.some((d) => !d.startsWith('∅') && !d.endsWith('∅')) ? 'possible-contradiction' : 'related';
  return { id: stored.id, similarity, kind, ...(differs.length > 0 ? { differs_in: differs } : {}) };
}

/**
 * Live, non-quarantined items of `item`'s scope whose words overlap it by at least the threshold,
 * most similar first. Empty without a full-text index (a LIKE scan per write would cost too much).
 */
export async function findSimilar(
  store: Store,
  item: MemoryItem,
  segment: Segmenter | undefined,
): Promise<SimilarItem[]> {
  if (!store.text.ranked) return [];
  const mine = similarityFeatures(item);
  // The probe needs CJK runs cut into the index's words; any other text has exactly `mine`'s words.
  const text = `${item.title} ${item.content}`;
  const words = segment !== undefined && hasCjk(text) ? queryTerms(text, segment, Infinity) : [...mine.words];
  const probe = probeTerms(words);
  const anyTerms = queryTerms(probe.join(' '), segment);
  if (anyTerms.length === 0) return [];
  const match: TextQuery = { terms: anyTerms, mode: 'any' };
  // A second probe, items holding all of its longest words but the values: it reaches an older item
  // that says all this one says, or says it with other numbers (a possible contradiction), even
  // when many items sharing a word are newer.
  const plain = words.filter((w) => !HAS_NUMBER(w).test(w));
  const longest = [...plain].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).slice(0, ALL_TERMS);
  const allTerms = longest.length > 0 ? queryTerms(longest.join(' '), segment) : [];
  const all: TextQuery | undefined = allTerms.length > 0 ? { terms: allTerms, mode: 'all' } : undefined;
  const found = new Map<string, MemoryItem>();
  for (const other of await store.text.newest(match, SIMILAR_CANDIDATES)) found.set(other.id, other);
  // When the first probe got fewer than it asked for and asked for a word that is not a value, it
  // holds every item that says the same with other values: the second adds nothing.
  const complete = found.size < SIMILAR_CANDIDATES && probe.some((w) => !HAS_NUMBER(w).test(w));
  if (all !== undefined && !complete) {
    for (const other of await store.text.newest(all, SIMILAR_CANDIDATES)) found.set(other.id, other);
  }
  const score = (theirs: Features) => Math.round(contentSimilarity(mine, theirs) * 1000) / 1000;
  // The same shape needs the same words but the values: a set check first, the shape only then.
  const plainSet = new Set([...mine.words].filter((w) => !HAS_NUMBER(w).test(w)));
  const samePlain = (words: ReadonlySet<string>) => {
    const theirs = [...words].filter((w) => !HAS_NUMBER(w).test(w));
    return theirs.length === plainSet.size && theirs.every((w) => plainSet.has(w));
  };
  let shape: string | undefined;
  const sameShape = (other: MemoryItem, words: ReadonlySet<string>) =>
    samePlain(words) && shapeOf(itemText(other)) === (shape ??= shapeOf(itemText(item)));
  // The written item's comparable form only when an item is reported (most writes report none).
  let written: Comparable | undefined;
  return [...found.values()]
    .filter((other) => other.id !== item.id && other.scope === item.scope && !other.archived && !other.quarantined)
    .map((other) => ({ other, features: similarityFeatures(other) }))
    .map(({ other, features }) => ({ other, features, similarity: score(features) }))
    .filter(({ other, features, similarity }) => similarity >= SIMILAR_WORDS || sameShape(other, features.words))
    .sort((a, b) => b.similarity - a.similarity || (a.other.id < b.other.id ? -1 : 1))
    .slice(0, REPORTED)
    .map(({ other, similarity }) => compareWith(comparable(other), (written ??= comparable(item)), similarity));
}

/**
 * `incoming` folded into its near-duplicate `target`, as consolidation merges: the text of the one
 * that says everything the other says is kept, tags and entities are united, the higher
 * confidence and weight are kept.
 */
export function mergeSimilar(target: MemoryItem, incoming: MemoryItem): MemoryItem {
  const kept = says(saidText(target), saidText(incoming)) ? target : incoming;
  return {
    ...target,
    title: kept.title,
    content: kept.content,
    tags: [...new Set([...target.tags, ...incoming.tags])],
    entities: [...new Set([...target.entities, ...incoming.entities])],
    // Injectable only if both were: a merge never makes a hidden text visible.
    injectable: target.injectable && incoming.injectable && !incoming.quarantined,
    confidence: Math.max(target.confidence, incoming.confidence),
    weight: Math.max(target.weight, incoming.weight),
  };
}

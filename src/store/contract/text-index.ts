/**
 * The full-text index: derived data, rebuilt from the items at any time. Queries are words and a
 * mode, never a backend's syntax: each backend turns them into its own (FTS5 MATCH for SQLite).
 */
import type { MemoryItem } from '../../types.js';
import type { ListFilter } from './items.js';

/** What the full-text index needs besides the item's own fields. */
export interface IndexText {
  /** The CJK-segmented copy of the item's text ('' when there is none). */
  segmented: string;
}

/**
 * How the terms combine: `all` every term, `any` any term (ranked), `prefix` any term as a word
 * prefix, `substring` any term anywhere in the title, content or tags (scored by terms found),
 * `near` two terms next to each other in the query, or one apart, found within a few words of each
 * other in the text (ranked like `any`; no match with fewer than two terms).
 */
export type TextMode = 'all' | 'any' | 'prefix' | 'substring' | 'near';

/** A full-text query: normalised, lowercase words (see `search/fts-query.ts` `queryTerms`). */
export interface TextQuery {
  terms: readonly string[];
  mode: TextMode;
}

export interface ScoredItem {
  item: MemoryItem;
  /** Higher is better: the backend's relevance (-BM25 on SQLite), the number of terms for `substring`. */
  score: number;
}

export interface TextIndex {
  /**
   * True when ranked word search works (FTS5 present when the store was created); when false
   * only `substring` queries answer.
   */
  readonly ranked: boolean;
  /** Writes (or replaces) the index entry of a stored item. */
  put(item: MemoryItem, index: IndexText): Promise<void>;
  /** The best `limit` items matching `query` and every filter, best first. */
  search(query: TextQuery, filter: ListFilter, limit: number): Promise<ScoredItem[]>;
  /**
   * The `limit` most recently created items matching `query` (`all`, `any` or `prefix`), newest
   * first, no ranking and no other filter: a bounded probe ([] when not {@link ranked}).
   */
  newest(query: TextQuery, limit: number): Promise<MemoryItem[]>;
  /**
   * Replaces the whole index with an entry for every item, `indexOf` giving each item's extra
   * text; one transaction. Resolves the number of entries written.
   */
  rebuild(
    indexOf: (item: MemoryItem) => IndexText | Promise<IndexText>,
    onProgress?: (done: number, total: number) => void,
  ): Promise<number>;
}

/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, 2009) of the lexical cascade's hits and the
 * vector index's nearest items (pure). Each list contributes 1 / ({@link RRF_K} + rank) for every
 * item it holds, rank counted from 1; an item found by both lists adds both. The fused score then
 * goes through engram's re-ranking factors (`rank.ts`) as BM25 does in lexical search: relevance
 * is the fused score divided by the best fused score of the candidates.
 */
import type { ScoredItem } from '../store/store.js';
import type { MemoryItem } from '../types.js';

/**
 * The RRF constant: the standard k = 60 of the original paper. A larger k flattens the gap
 * between the first ranks; with 60, an item 20th in both lists (2/80 = 0.025) outranks one first
 * in a single list (1/61 ≈ 0.016): agreement between the lists counts most.
 */
export const RRF_K = 60;

/**
 * Vector hits less similar to the query than this cosine are dropped before fusion: the nearest
 * items of a store always exist, related or not, and an unrelated one must not reach a recall
 * block. Random directions in a 64-dimensional space have a cosine of about ±0.125; related texts
 * under a real sentence model score 0.4 and more.
 */
export const MIN_SIMILARITY = 0.25;

/** A candidate with where each list put it. */
export interface FusedHit {
  item: MemoryItem;
  /** Σ 1/(RRF_K + rank) over the lists that hold the item. */
  score: number;
  /** 1-based rank in the lexical hits; absent when the lexical search did not find the item. */
  lexical_rank?: number;
  /** The backend's lexical score (BM25 on SQLite), with `lexical_rank`. */
  lexical_score?: number;
  /** 1-based rank among the vector hits; absent when the item was not among them. */
  vector_rank?: number;
  /** Cosine similarity to the query, with `vector_rank`. */
  similarity?: number;
}

const rrf = (rank: number, k: number) => 1 / (k + rank);

/**
 * Fuses two ranked lists (each best first) into one, best fused score first; ties keep the
 * lexical order, then the vector order.
 *
 * @example
 * fuseRanks(lexicalHits, nearestHits)[0]; // { item, score: 2/61, lexical_rank: 1, vector_rank: 1, … }
 */
export function fuseRanks(lexical: readonly ScoredItem[], vector: readonly ScoredItem[], k = RRF_K): FusedHit[] {
  const fused = new Map<string, FusedHit & { order: number }>();
  lexical.forEach((hit, i) => {
    if (fused.has(hit.item.id)) return;
    fused.set(hit.item.id, {
      item: hit.item, score: rrf(i + 1, k), lexical_rank: i + 1, lexical_score: hit.score, order: i,
    });
  });
  vector.forEach((hit, i) => {
    const known = fused.get(hit.item.id);
    if (known !== undefined && known.vector_rank !== undefined) return;
    if (known === undefined) {
      fused.set(hit.item.id, {
        item: hit.item, score: rrf(i + 1, k), vector_rank: i + 1, similarity: hit.score, order: lexical.length + i,
      });
    } else {
      known.score += rrf(i + 1, k);
      known.vector_rank = i + 1;
      known.similarity = hit.score;
    }
  });
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ order: _order, ...hit }) => hit);
}

/** The vector hits as fused hits alone (semantic mode): ranked by cosine, scored by it. */
export function vectorOnly(vector: readonly ScoredItem[]): FusedHit[] {
  return vector.map((hit, i) => ({ item: hit.item, score: hit.score, vector_rank: i + 1, similarity: hit.score }));
}

/** The lexical hits as fused hits alone (lexical mode): scored by the backend's relevance. */
export function lexicalOnly<T extends ScoredItem>(lexical: readonly T[]): (T & FusedHit)[] {
  return lexical.map((hit, i) => ({ ...hit, lexical_rank: i + 1, lexical_score: hit.score }));
}

/** Vector hits at or above {@link MIN_SIMILARITY}; a score that is not a finite number never is. */
export function similarEnough(vector: readonly ScoredItem[], floor = MIN_SIMILARITY): ScoredItem[] {
  return vector.filter((hit) => Number.isFinite(hit.score) && hit.score >= floor);
}

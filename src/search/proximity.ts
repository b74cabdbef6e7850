/**
 * Term proximity, after the sequential dependence model (Metzler & Croft, 2005): besides the words
 * of a query, a text that holds two of them close together ("breast cancer", "support group")
 * is more likely about what was asked. The `any` stage's BM25 gets a share of the BM25 of the
 * `near` query (pairs of neighbouring query terms within a few words):
 *
 *   score = bm25(any) + PROXIMITY_SHARE × bm25(near)
 *
 * Only the `any` hits are re-ordered; none is added or dropped. Pure.
 */
import type { ScoredItem } from '../store/store.js';

/** The weight of the proximity score; the model's own weights are 0.85 words, 0.1 and 0.05 pairs. */
export const PROXIMITY_SHARE = 0.1;

/** A hit whose score includes its proximity share; `proximity` is that part. */
export interface ProximityHit extends ScoredItem {
  proximity: number;
}

/** `hits` with the share of their `near` score added, best first, ties in the incoming order. */
export function withProximity(hits: readonly ScoredItem[], near: readonly ScoredItem[]): ProximityHit[] {
  const bonus = new Map(near.map((h) => [h.item.id, PROXIMITY_SHARE * h.score]));
  return hits
    .map((hit, index) => {
      const proximity = bonus.get(hit.item.id) ?? 0;
      return { hit: { ...hit, score: hit.score + proximity, proximity }, index };
    })
    .sort((a, b) => b.hit.score - a.hit.score || a.index - b.index)
    .map(({ hit }) => hit);
}

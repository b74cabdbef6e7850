/**
 * Neighbouring context: an item written just before or after another one from the same source
 * (the turns around a conversation turn, the chunks around a file chunk) shares its subject. A
 * conversation's answer often sits one turn away from the words of the question ("What did Mel
 * paint?" … "Mel: look at this one!"), so each candidate's score becomes
 *
 *   score = own score + NEIGHBOUR_SHARE × (sum of its two neighbours' own scores)
 *
 * and the neighbours of the hits join the candidates. With a share of one half, an item matching
 * no query word (at most two neighbours) never scores above the best hit. Ingested file chunks
 * lift each other but do not bring each other in: a chunk is a passage of its own, many times a
 * turn's length, and a search lists the chunks that hold its words. Items without a source, or
 * written apart from any hit, keep their score. Pure.
 */
import type { AdjacentItem, ScoredItem } from '../store/store.js';
import type { MemoryItem } from '../types.js';

/** An ingested document chunk: its provenance has a `chunk_index`. */
const isChunk = (item: MemoryItem) => item.provenance !== null && 'chunk_index' in item.provenance;

/** The part of a neighbour's own score an item receives. */
export const NEIGHBOUR_SHARE = 0.5;

/** A hit whose score includes its neighbours' shares; `context` is that part. */
export interface ContextHit extends ScoredItem {
  context: number;
  /** The proximity share already in the score (`proximity.ts`), when there is one. */
  proximity?: number;
}

/**
 * Adds the neighbours' shares to `hits` (best first) and the hits' neighbours to the candidates;
 * best first again, ties in the incoming order, at most `limit`.
 */
export function withNeighbours(
  hits: readonly ScoredItem[],
  adjacent: readonly AdjacentItem[],
  limit: number,
): ContextHit[] {
  const own = new Map(hits.map((h) => [h.item.id, h.score]));
  const byId = new Map<string, ContextHit>(hits.map((h) => [h.item.id, { ...h, context: 0 }]));
  for (const { of, item } of adjacent) {
    const share = NEIGHBOUR_SHARE * (own.get(of) ?? 0);
    const known = byId.get(item.id);
    if (share <= 0 || (known === undefined && isChunk(item))) continue;
    const hit = known ?? { item, score: 0, context: 0 };
    hit.score += share;
    hit.context += share;
    byId.set(item.id, hit);
  }
  return [...byId.values()]
    .map((hit, index) => ({ hit, index }))
    .sort((a, b) => b.hit.score - a.hit.score || a.index - b.index)
    .map(({ hit }) => hit)
    .slice(0, limit);
}

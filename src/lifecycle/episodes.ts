/**
 * Captured episodes: the turns of agent sessions that `capture` stores (one STM item per turn, or
 * per part of a long one), each at the logical address layer `run`, key `transcript`, task
 * `CLIENT:SESSION_ID`, step `turn-NNNNNN[-PART]`. Raw material for the host model to distil
 * (`consolidationCandidates`), never pasted into prompts themselves (not injectable).
 */
import type { MemoryItem } from '../types.js';

export const EPISODE_LAYER = 'run';
export const EPISODE_KEY = 'transcript';

/** True for an item `capture` stored as a turn of a session. */
export function isEpisode(item: Pick<MemoryItem, 'layer' | 'key'>): boolean {
  return item.layer === EPISODE_LAYER && item.key === EPISODE_KEY;
}

/** The step of part `part` (from 1) of turn `turn`: zero-padded, so that steps sort in turn order. */
export function episodeStep(turn: number, part = 1): string {
  const padded = String(turn).padStart(6, '0');
  return part === 1 ? `turn-${padded}` : `turn-${padded}-${part}`;
}

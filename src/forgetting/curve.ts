/**
 * The forgetting curve (pure): the layer half-lives and tier rates shared by search ranking
 * (`search/rank.ts`, `search/cascade.ts`) and the lifecycle (`lifecycle/cleanup.ts`), so neither
 * folder imports the other. One formula combines mem-context's decay rates per tier and memtool's
 * half-lives per layer:
 *
 *   decay = exp(−(tier_rate + ln2 / layer_half_life) × age_days)
 *
 * tier_rate: stm (episodic) 0.15, mtm (semantic) 0.03, ltm (permanent) 0 per day; layer
 * half-lives: run 14 d, feature 180 d, project 365 d (no layer: no layer term). Age runs from the
 * last use (recall or a duplicate write reinforcing the item), else the last update, so what is
 * used stays fresh. An item is stale when decay ≤ 0.2 (memtool). An ltm item without a layer never
 * decays.
 */
import type { MemoryItem } from '../types.js';

/** memtool's half-lives by layer, in days: used by decay here and by recency in search ranking. */
export const HALF_LIFE_DAYS: Readonly<Record<string, number>> = Object.freeze({ run: 14, feature: 180, project: 365 });
export const TIER_DECAY_PER_DAY: Readonly<Record<string, number>> = Object.freeze({ stm: 0.15, mtm: 0.03, ltm: 0 });
export const STALE_AT = 0.2;
const DAY_MS = 86_400_000;

export interface Decay {
  decay: number;
  is_stale: boolean;
  /** Days since the last use or update. */
  age_days: number;
  tier_rate: number;
  /** ln2 / half-life of the item's layer (0 without a layer). */
  layer_rate: number;
}

const round = (value: number) => Number(value.toPrecision(6));

export function decayOf(
  item: Pick<MemoryItem, 'tier' | 'layer' | 'updated_at' | 'last_used_at'>,
  now: Date,
): Decay {
  const since = item.last_used_at !== null && item.last_used_at > item.updated_at ? item.last_used_at : item.updated_at;
  const ageDays = Math.max(0, (now.getTime() - Date.parse(since)) / DAY_MS);
  const tierRate = TIER_DECAY_PER_DAY[item.tier] ?? 0;
  const halfLife = item.layer === null ? undefined : HALF_LIFE_DAYS[item.layer];
  const layerRate = halfLife === undefined ? 0 : Math.LN2 / halfLife;
  const decay = Math.exp(-(tierRate + layerRate) * ageDays);
  return {
    decay: round(decay),
    is_stale: decay <= STALE_AT,
    age_days: round(ageDays),
    tier_rate: tierRate,
    layer_rate: round(layerRate),
  };
}

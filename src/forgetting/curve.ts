/**
 * The forgetting curve (pure), shared by search (`search/cascade.ts` shows it, `search/rank.ts`
 * takes the layer half-lives) and the lifecycle (`lifecycle/cleanup.ts` archives stale items, only
 * when asked), so neither folder imports the other. One formula reconciles mem-context's tiers
 * (decay rates 0.15 / 0.03 / 0 per day, default weights 0.5 / 0.7 / 1.0) with memtool's layer
 * half-lives (run 14 d, feature 180 d, project 365 d; stale when decay ≤ 0.2):
 *
 *   half_life = max(ln2 / tier_rate, layer_half_life)     (no layer: the tier's alone; ltm: ∞)
 *   decay     = exp(−ln2 · age_days / half_life)
 *   strength  = tier_weight · decay
 *   is_stale  ⇔ strength ≤ 0.1
 *
 * The tier's half-lives are stm 4.62 d, mtm 23.1 d, ltm never. An item fades at the slower of what
 * its tier and its layer give it: a layer is the lifetime the writer declared and only lengthens
 * the tier's, and promotion never makes an item fade faster. The stale line is mem-context's
 * archive line (weight × decay < 0.1, with the tier's default weight); for stm it is exactly
 * memtool's decay ≤ 0.2. So no layered item goes stale before memtool's rule says so (project:
 * 365 · log2 5 ≈ 847.5 days), an unlayered item follows mem-context (stm stale after 10.7 days,
 * mtm after 64.9, ltm never), and every item stale under this formula was stale under the rule
 * before it (decay = exp(−(tier_rate + layer_rate) · age), stale at 0.2), so cleanup archives
 * nothing it kept. The item's own weight is not part of it: it ranks (`search/rank.ts`) and makes
 * an item weak (`lifecycle/cleanup.ts`). Age runs from the last use (a recall, or a duplicate
 * write reinforcing the item), else the last update, so what is used stays fresh.
 */
import type { MemoryItem } from '../types.js';

/** memtool's half-lives by layer, in days: used by decay here and by recency in search ranking. */
export const HALF_LIFE_DAYS: Readonly<Record<string, number>> = Object.freeze({ run: 14, feature: 180, project: 365 });
/** mem-context's decay rates per tier (episodic, semantic, permanent), per day. */
export const TIER_DECAY_PER_DAY: Readonly<Record<string, number>> = Object.freeze({ stm: 0.15, mtm: 0.03, ltm: 0 });
/** mem-context's default weights per tier: the strength an item of the tier starts with. */
export const TIER_WEIGHT: Readonly<Record<string, number>> = Object.freeze({ stm: 0.5, mtm: 0.7, ltm: 1 });
/**
 * engram's weight for a mem-context weight of a tier. mem-context's weights start at the tier's
 * default ({@link TIER_WEIGHT}) and engram's at 1, so its weight w is engram's w / tier weight
 * (the importer and `serve --compat mem-context` use this, and {@link memContextWeight} back).
 */
export function engramWeight(weight: number, tier: string): number {
  return Number((weight / (TIER_WEIGHT[tier] ?? 1)).toPrecision(12));
}

/** mem-context's weight of an item (engram's 1 → the tier's default weight). */
export function memContextWeight(item: Pick<MemoryItem, 'weight' | 'tier'>): number {
  return Number((item.weight * (TIER_WEIGHT[item.tier] ?? 1)).toPrecision(12));
}

/** mem-context's archive line on strength; for stm (weight 0.5) it is memtool's decay ≤ 0.2. */
export const STALE_STRENGTH = 0.1;
const DAY_MS = 86_400_000;

export interface Decay {
  /** exp(−ln2 · age_days / half_life_days), 0..1. */
  decay: number;
  /** tier_weight · decay. */
  strength: number;
  /** strength ≤ 0.1. */
  is_stale: boolean;
  /** Days since the last use or update. */
  age_days: number;
  /** The half-life applied, in days; null when the item never fades (ltm). */
  half_life_days: number | null;
  tier_rate: number;
  tier_weight: number;
  /** ln2 / half-life of the item's layer (0 without a layer). */
  layer_rate: number;
}

const round = (value: number) => Number(value.toPrecision(6));

/** The half-life of an item of this tier and layer, in days (Infinity: never fades). */
export function halfLifeDays(tier: string, layer: string | null): number {
  const tierRate = TIER_DECAY_PER_DAY[tier] ?? 0;
  const tierHalfLife = tierRate > 0 ? Math.LN2 / tierRate : Infinity;
  const layerHalfLife = layer === null ? 0 : HALF_LIFE_DAYS[layer] ?? 0;
  return Math.max(tierHalfLife, layerHalfLife);
}

/**
 * The forgetting curve of an item now (see the module header for the formula).
 *
 * @example
 * const item = { tier: 'stm', layer: 'project', updated_at: '2026-01-01T00:00:00Z', last_used_at: null } as const;
 * decayOf(item, new Date('2027-01-01')); // { decay: 0.5, strength: 0.25, is_stale: false, half_life_days: 365, … }
 */
export function decayOf(
  item: Pick<MemoryItem, 'tier' | 'layer' | 'updated_at' | 'last_used_at'>,
  now: Date,
): Decay {
  const since = item.last_used_at !== null && item.last_used_at > item.updated_at ? item.last_used_at : item.updated_at;
  const ageDays = Math.max(0, (now.getTime() - Date.parse(since)) / DAY_MS);
  const halfLife = halfLifeDays(item.tier, item.layer);
  const layerHalfLife = item.layer === null ? undefined : HALF_LIFE_DAYS[item.layer];
  const decay = halfLife === Infinity ? 1 : Math.exp((-Math.LN2 * ageDays) / halfLife);
  const tierWeight = TIER_WEIGHT[item.tier] ?? 1;
  const strength = tierWeight * decay;
  return {
    decay: round(decay),
    strength: round(strength),
    is_stale: strength <= STALE_STRENGTH,
    age_days: round(ageDays),
    half_life_days: halfLife === Infinity ? null : round(halfLife),
    tier_rate: TIER_DECAY_PER_DAY[item.tier] ?? 0,
    tier_weight: tierWeight,
    layer_rate: layerHalfLife === undefined ? 0 : round(Math.LN2 / layerHalfLife),
  };
}

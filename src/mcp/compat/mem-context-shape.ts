/**
 * mem-context's words for engram's fields, both ways: its memory types are engram's tiers
 * (episodic, semantic, permanent = stm, mtm, ltm), and its weight is on its own scale, where each
 * type starts at its default weight (0.5, 0.7, 1.0: `TIER_WEIGHT`) and engram's starts at 1. So a
 * mem-context weight w of a type is engram's weight w / tier_weight, and back (docs/forgetting.md).
 */
import { z } from 'zod';
import { engramWeight, memContextWeight } from '../../forgetting/curve.js';
import { TIER_ALIASES, type MemoryItem, type Tier } from '../../types.js';

/** mem-context's memory types, in tier order. */
export const MEMORY_TYPES = ['episodic', 'semantic', 'permanent'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export const memoryTypeParam = z.enum(MEMORY_TYPES).describe('episodic|semantic|permanent = engram tier stm|mtm|ltm');

/** mem-context's weight: 0..1 as it writes it; above 1 when engram reinforced an item. */
export const weightParam = z.number().min(0).max(1e6).describe('mem-context scale: the type\'s default is 0.5|0.7|1.0');

const TYPE_OF_TIER: Readonly<Record<Tier, MemoryType>> = Object.freeze({ stm: 'episodic', mtm: 'semantic', ltm: 'permanent' });

export function tierOf(type: MemoryType): Tier {
  return TIER_ALIASES[type] ?? 'stm';
}

export { engramWeight, memContextWeight };

/**
 * An item as mem-context gives a memory: its type and weight on mem-context's scale, its access
 * count, and engram's own fields (`tier`, `kind` = engram's item type, `quarantined`, `version`).
 */
export function memoryView(item: MemoryItem) {
  return {
    id: item.id,
    content: item.content,
    title: item.title,
    type: TYPE_OF_TIER[item.tier],
    weight: memContextWeight(item),
    tags: item.tags,
    scope: item.scope,
    access_count: item.usage_count,
    created_at: item.created_at,
    updated_at: item.updated_at,
    tier: item.tier,
    kind: item.type,
    quarantined: item.quarantined,
    archived: item.archived,
    version: item.version,
  };
}

/** A memory as the compat tools' output schemas declare it (the rest comes with it). */
export const memoryResult = z.looseObject({
  id: z.string(),
  content: z.string(),
  type: z.enum(MEMORY_TYPES),
  weight: z.number(),
});

/**
 * mem-context's `update` fields in engram's terms: `type` episodic|semantic|permanent is the tier
 * (another `type` is engram's item type), and `weight` is converted from mem-context's scale for
 * the tier the item has after the update.
 */
export function updateFields(fields: Record<string, unknown>, current: Pick<MemoryItem, 'tier'>): Record<string, unknown> {
  const { type, weight, ...rest } = fields;
  const isMemoryType = typeof type === 'string' && (MEMORY_TYPES as readonly string[]).includes(type);
  const tier = isMemoryType ? tierOf(type as MemoryType) : typeof rest.tier === 'string' ? TIER_ALIASES[rest.tier] ?? rest.tier : current.tier;
  return {
    ...rest,
    ...(isMemoryType ? { tier } : type === undefined ? {} : { type }),
    ...(typeof weight === 'number' ? { weight: engramWeight(weight, tier as Tier) } : weight === undefined ? {} : { weight }),
  };
}

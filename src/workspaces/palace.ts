/**
 * The palace (KOAS): live items browsed one level at a time — tiers, then the types in a tier,
 * then the tags in a type, then the items with a tag.
 */
import { z } from 'zod';
import type { OperationContext } from '../context.js';
import { parseInput } from '../items/parse-input.js';
import { DEFAULT_LIST_LIMIT } from '../items/read.js';
import { textSchema, tierSchema } from '../items/schemas.js';
import { ITEM_TYPES } from '../types.js';

/** The palace (KOAS): browse live items by workspace → tier → type → tag. */
export const palaceInputSchema = z.strictObject({
  scope: textSchema.min(1).optional(),
  tier: tierSchema.optional(),
  type: z.enum(ITEM_TYPES).optional(),
  tag: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(500).optional(),
});

export type PalaceInput = z.input<typeof palaceInputSchema>;

/** One level of the palace: counts of the next level down, or (with a tag) the items there. */
export interface PalaceResult {
  path: { scope: string | null; tier: string | null; type: string | null; tag: string | null };
  level: 'tier' | 'type' | 'tag' | 'items';
  counts?: Record<string, number>;
  items?: { id: string; title: string; tier: string; type: string; tags: string[]; updated_at: string }[];
}

/**
 * One level of the palace for the path given: counts of the next level down, or with a tag the
 * items there (at most `limit`).
 *
 * @example
 * const { level, counts } = await palace(ctx, { tier: 'ltm' }); // level 'type'
 */
export async function palace(ctx: OperationContext, input: PalaceInput = {}): Promise<PalaceResult> {
  const { scope, tier, type, tag, limit = DEFAULT_LIST_LIMIT } = parseInput(palaceInputSchema, input);
  const path = { scope: scope ?? null, tier: tier ?? null, type: type ?? null, tag: tag ?? null };
  const filter = { archived: 'exclude', scope, tier, type } as const;
  if (tag !== undefined) {
    const { items } = await ctx.store.items.list({ ...filter, tags: [tag], limit });
    const entries = items.map((i) => ({
      id: i.id, title: i.title, tier: i.tier, type: i.type, tags: i.tags, updated_at: i.updated_at,
    }));
    return { path, level: 'items', items: entries };
  }
  const level = tier === undefined ? 'tier' : type === undefined ? 'type' : 'tag';
  return { path, level, counts: await ctx.store.items.countGroups(level, filter) };
}

/** Counts for `engram stats`: items by state, tier, type, layer and scope, and the store's size. */
import type { OperationContext } from '../context.js';
import type { StoreStats } from '../types.js';

/**
 * The store's counts, as the store computes them.
 *
 * @example
 * const { total, by_tier } = await stats(ctx);
 */
export async function stats(ctx: OperationContext): Promise<StoreStats> {
  return await ctx.store.stats();
}

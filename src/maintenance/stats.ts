/** Counts for `engram stats`: items by state, tier, type, layer and scope, the store's size, the vectors. */
import type { OperationContext } from '../context.js';
import type { StoreStats } from '../types.js';
import { vectorStats } from './embed.js';

/**
 * The store's counts, as the store computes them, with the vector figures when it keeps vectors.
 *
 * @example
 * const { total, by_tier, vectors } = await stats(ctx);
 */
export async function stats(ctx: OperationContext): Promise<StoreStats> {
  const counts = await ctx.store.stats();
  const vectors = await vectorStats(ctx);
  return vectors === undefined ? counts : { ...counts, vectors };
}

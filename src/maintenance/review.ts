/**
 * `engram review`: what needs a person's decision — quarantined items, contradicted ones, items
 * expiring soon, and pairs that may contradict each other.
 */
import type { OperationContext } from '../context.js';
import { type ReviewReport, reviewItems } from '../items/governance.js';
import { DEFAULT_LIST_LIMIT } from '../items/read.js';
import { possibleContradictions } from '../lifecycle/contradictions.js';

/** `engram review` lists items expiring within this many hours. */
const DEFAULT_REVIEW_HOURS = 24;

/** `review`'s options: the expiry window in hours (default 24) and how many of each kind. */
export interface ReviewOptions {
  withinHours?: number;
  limit?: number;
}

/**
 * Quarantined, contradicted and soon-expiring (within `withinHours`) items, with the possible
 * contradictions, at most `limit` of each.
 *
 * @example
 * const { quarantined } = await review(ctx, { withinHours: 48 });
 */
export async function review(
  ctx: OperationContext,
  { withinHours = DEFAULT_REVIEW_HOURS, limit = DEFAULT_LIST_LIMIT }: ReviewOptions = {},
): Promise<ReviewReport> {
  const report = await reviewItems(ctx.store, ctx.now(), withinHours, limit);
  return { ...report, possible_contradictions: await possibleContradictions(ctx.store, limit) };
}

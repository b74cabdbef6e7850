/**
 * The lifecycle operations the facade delegates to: lossless consolidation, the host model's
 * consolidation candidates, cleanup and `suggest`. The work itself is in `consolidate.ts`,
 * `cleanup.ts` and `suggest.ts`; these fill in the session (clock, actor, admission hook) and the
 * defaults.
 */
import { z } from 'zod';
import type { OperationContext } from '../context.js';
import { EngramError } from '../errors.js';
import { parseInput } from '../items/parse-input.js';
import { termsSchema, textSchema } from '../items/schemas.js';
import { type CleanupPlan, cleanup } from './cleanup.js';
import { type ConsolidationCandidates, consolidationCandidates } from './candidates.js';
import { type ConsolidationPlan, consolidate } from './consolidate.js';
import { rankSuggestions, type Suggestion } from './suggest.js';

/** Where the time of the last `consolidate` run is kept (the store's meta table). */
export const CONSOLIDATED_META_KEY = 'consolidated_at';

/** How many recent candidates suggest scores. */
const SUGGEST_POOL = 200;

/** `consolidate`'s input: a plan only (`dryRun`), and one scope instead of all. */
export interface ConsolidateInput {
  dryRun?: boolean;
  scope?: string;
}

/**
 * `consolidationCandidates`' input: one scope instead of all, groups per batch (default 10, 0 for
 * the counts only) and groups to pass over first.
 */
export interface CandidatesInput {
  scope?: string;
  limit?: number;
  offset?: number;
}

/** `cleanup`'s input: act (`apply`) instead of planning, purge age in days, one scope. */
export interface CleanupInput {
  apply?: boolean;
  purgeDays?: number;
  scope?: string;
}

/** `suggest`: where to look (at least one of task, tags, key prefix or a context text) and how many. */
export const suggestInputSchema = z
  .strictObject({
    task_id: textSchema.optional(),
    tags: termsSchema.optional(),
    key_prefix: textSchema.optional(),
    context: z.string().max(10_000).optional(),
    k: z.number().int().min(1).max(100).optional(),
  })
  .refine((v) => v.task_id !== undefined || (v.tags?.length ?? 0) > 0 || v.key_prefix !== undefined || (v.context ?? '') !== '', {
    message: 'give --task, --tags, --key-prefix or a context to suggest from',
  });

export type SuggestInput = z.input<typeof suggestInputSchema>;

/**
 * Deterministic, lossless consolidation of the whole store (or one scope), or its plan with
 * `dryRun`.
 *
 * @example
 * const plan = await runConsolidation(ctx, { dryRun: true });
 */
export async function runConsolidation(
  ctx: OperationContext,
  { dryRun = false, scope }: ConsolidateInput = {},
): Promise<ConsolidationPlan> {
  const now = ctx.now();
  const plan = await consolidate(ctx, { now, actor: ctx.actor, scope, dryRun, admit: ctx.admit });
  // A pass that found nothing to fold still ran: `status` tells when.
  if (!dryRun) await ctx.store.transaction((tx) => tx.meta.set(CONSOLIDATED_META_KEY, now));
  return plan;
}

/**
 * Groups for a host model to consolidate, each with a ready prompt (engram calls no model).
 *
 * @example
 * const { extract, merge, more } = await findConsolidationCandidates(ctx, { scope: 'project', limit: 5 });
 */
export async function findConsolidationCandidates(
  ctx: OperationContext,
  input: CandidatesInput = {},
): Promise<ConsolidationCandidates> {
  return consolidationCandidates(ctx.store, ctx.clock(), input);
}

/**
 * Archives expired, stale and weak items and, with `purgeDays`, deletes old archived ones — only
 * with `apply`; otherwise returns the plan. PARAM_ERROR for a purge age that is not a whole number
 * of days.
 *
 * @example
 * const plan = await runCleanup(ctx, { purgeDays: 90 });
 */
export async function runCleanup(
  ctx: OperationContext,
  { apply = false, purgeDays, scope }: CleanupInput = {},
): Promise<CleanupPlan> {
  if (purgeDays !== undefined && (!Number.isInteger(purgeDays) || purgeDays < 0)) {
    throw new EngramError('PARAM_ERROR', `Invalid purge age ${purgeDays}`, { hint: 'Expected a whole number of days >= 0' });
  }
  return cleanup(ctx, { now: ctx.clock(), apply, purgeDays, scope });
}

/**
 * memtool's recommendation: the filtered items, most recent first, ranked by the context.
 *
 * @example
 * const top = await suggest(ctx, { task_id: 'T-12', context: 'retry the payment webhook', k: 3 });
 */
export async function suggest(ctx: OperationContext, input: SuggestInput): Promise<Suggestion[]> {
  const { context = '', k = 5, tags = [], ...filter } = parseInput(suggestInputSchema, input);
  // Candidates: the filtered items, most recent first (memtool); the context ranks them.
  const { items } = await ctx.store.items.list({ ...filter, tags, live_at: ctx.now(), limit: SUGGEST_POOL });
  return rankSuggestions(items, context, tags, ctx.clock()).slice(0, k);
}

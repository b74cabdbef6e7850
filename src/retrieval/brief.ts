/**
 * The session brief: what an agent is given when a session starts, before any question: the
 * project's live, injectable memories, long-term first, then mid-term, then the newest short-term
 * ones, newest first within a tier, packed into the token budget as the same injection block
 * recall gives (format_version=1). Ingested document chunks are left out: they answer questions,
 * they are not the project's memory. Nothing is recorded (a brief is not a use of its items).
 */
import { z } from 'zod';
import type { OperationContext } from '../context.js';
import { parseInput } from '../items/parse-input.js';
import { textSchema } from '../items/schemas.js';
import { redactItem } from '../policy/redact.js';
import { type Candidate, type PackedRecall, packRecall } from '../recall/injection-block.js';
import { loadTokenizer } from '../recall/tokenizer.js';
import { SECRECY_TIERS, type Tier, type TokenizerName } from '../types.js';

/** The brief's default budget in tokens: a session's opening context, kept small. */
export const DEFAULT_BRIEF_BUDGET = 600;
/** How many items of each tier are considered, at most. */
const PER_TIER = 60;
const ORDER: readonly Tier[] = ['ltm', 'mtm', 'stm'];

export const briefInputSchema = z.strictObject({
  budget: z.number().int().min(1).max(1_000_000).optional(),
  scope: textSchema.optional(),
  secrecy: z.enum(SECRECY_TIERS).optional(),
});

export type BriefInput = z.input<typeof briefInputSchema>;

export interface BriefResult extends Omit<PackedRecall, 'text'> {
  format_version: 1;
  budget: number;
  /** What `budget` and `tokens_used` are counted in. */
  tokenizer: TokenizerName;
  inject_text: string;
}

/**
 * @example
 * const { inject_text } = await brief(ctx, { budget: 600 });
 */
export async function brief(ctx: OperationContext, input: BriefInput = {}): Promise<BriefResult> {
  const { budget = DEFAULT_BRIEF_BUDGET, scope, secrecy = ctx.defaultSecrecy } = parseInput(briefInputSchema, input);
  const at = ctx.now();
  const candidates: Candidate[] = [];
  for (const [rank, tier] of ORDER.entries()) {
    const page = await ctx.store.items.list({
      tier,
      scope,
      injectable: true,
      archived: 'exclude',
      quarantined: 'exclude',
      recallable: true,
      chunks: 'exclude',
      live_at: at,
      sort: 'updated',
      limit: PER_TIER,
    });
    // The score only orders the catalog: tier first, then recency.
    page.items.forEach((item, i) => {
      candidates.push({ item: redactItem(item, secrecy), score: ORDER.length - rank - i / (PER_TIER + 1) });
    });
  }
  const tokenizer = await loadTokenizer(ctx.tokenizer);
  const { text, ...packed } = packRecall(candidates, { budget, mode: 'inject', header: true, tokenizer });
  return { format_version: 1, budget, tokenizer: tokenizer.name, inject_text: text, ...packed };
}

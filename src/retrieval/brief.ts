/**
 * The session brief: what an agent is given when a session starts, before any question: the
 * project's live, injectable memories, long-term first, then mid-term, then the newest short-term
 * ones, newest first within a tier, packed into the token budget as the same injection block
 * recall gives (format_version=1). Ingested document chunks are left out: they answer questions,
 * they are not the project's memory. Nothing is recorded (a brief is not a use of its items).
 */
import type { OperationContext } from '../context.js';
import { EngramError } from '../errors.js';
import { redactItem } from '../policy/redact.js';
import { type Candidate, type PackedRecall, packRecall } from '../recall/injection-block.js';
import { loadTokenizer } from '../recall/tokenizer.js';
import { type Secrecy, SECRECY_TIERS, type Tier, type TokenizerName } from '../types.js';

/** The brief's default budget in tokens: a session's opening context, kept small. */
export const DEFAULT_BRIEF_BUDGET = 600;
/** How many items of each tier are considered, at most. */
const PER_TIER = 30;
const ORDER: readonly Tier[] = ['ltm', 'mtm', 'stm'];

export interface BriefInput {
  /** Tokens, 1 to 1,000,000 (default 600). */
  budget?: number;
  /** Only this scope (at most 1,000 characters). */
  scope?: string;
  /** Output redaction tier (default: the store's). */
  secrecy?: Secrecy;
}

const invalid = (field: string, why: string, hint?: string) =>
  new EngramError('PARAM_ERROR', `Invalid ${field}: ${why}`, { ...(hint ? { hint } : {}), details: { field } });

/**
 * The input checked by hand, not by a schema library: the brief answers the session-start hook,
 * whose start-up time counts (bench suite `hooks`).
 */
export function checkBriefInput(input: unknown): BriefInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw invalid('input', 'expected an object');
  const fields = input as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((k) => !['budget', 'scope', 'secrecy'].includes(k));
  if (unknown.length > 0) {
    throw new EngramError('PARAM_ERROR', `Unknown field(s): ${unknown.join(', ')}`, { details: { fields: unknown } });
  }
  const { budget, scope, secrecy } = fields;
  const whole = typeof budget === 'number' && Number.isInteger(budget) && budget >= 1 && budget <= 1_000_000;
  if (budget !== undefined && !whole) {
    throw invalid('budget', 'expected a whole number from 1 to 1000000');
  }
  if (scope !== undefined && (typeof scope !== 'string' || scope.length > 1000)) {
    throw invalid('scope', 'expected a string of at most 1000 characters');
  }
  if (secrecy !== undefined && !(SECRECY_TIERS as readonly unknown[]).includes(secrecy)) {
    throw invalid('secrecy', `'${String(secrecy)}'`, `Valid values: ${SECRECY_TIERS.join(', ')}`);
  }
  return {
    budget: budget as number | undefined,
    scope: scope as string | undefined,
    secrecy: secrecy as Secrecy | undefined,
  };
}

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
  const { budget = DEFAULT_BRIEF_BUDGET, scope, secrecy = ctx.defaultSecrecy } = checkBriefInput(input);
  const at = ctx.now();
  const candidates: Candidate[] = [];
  for (const [rank, tier] of ORDER.entries()) {
    const items = await ctx.store.items.find({
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
    items.forEach((item, i) => {
      candidates.push({ item: redactItem(item, secrecy), score: ORDER.length - rank - i / (PER_TIER + 1) });
    });
  }
  const tokenizer = await loadTokenizer(ctx.tokenizer);
  const { text, ...packed } = packRecall(candidates, { budget, mode: 'inject', header: true, tokenizer });
  return { format_version: 1, budget, tokenizer: tokenizer.name, inject_text: text, ...packed };
}

/**
 * `pull` and `propose`: proposals written through the put path. `pull` is all or nothing (one
 * transaction, after the policy has read the whole input); `propose` writes each on its own.
 */
import type { OperationContext } from '../context.js';
import { EngramError } from '../errors.js';
import { commitPull, planPull, pullProposals, type PullResult } from '../ingest/pull.js';
import type { KnownVectors } from '../items/embed-items.js';
import { parseInput } from '../items/parse-input.js';
import { type PullInput, pullInputSchema, type PutInput, putInputSchema } from '../items/schemas.js';
import { putItem, writeParsed } from './put.js';

/** Stores the memory proposals found in an LLM's answer, all or none. */
export async function pull(ctx: OperationContext, text: string, input: PullInput = {}): Promise<PullResult> {
  // All or nothing: the policy sees the whole input, then every proposal is written in one
  // transaction; a refused one (policy, or put's schema: a bad type or tier) stores none.
  const defaults = parseInput(pullInputSchema, input);
  const plan = planPull(text, defaults);
  const texts = plan.entries.flatMap(({ input: p }) => [p.content, p.title, ...p.tags, ...(p.entities ?? [])]);
  await ctx.writer.prepare(...texts);
  return commitPull(
    plan,
    (proposal) => writeParsed(ctx, parseInput(putInputSchema, proposal), 'pull'),
    (fn) => ctx.store.transaction(fn),
  );
}

/**
 * An agent's proposals (KOAS `memory_propose`), each written on its own; the vectors computed for
 * their similar checks are added to `known`.
 */
export async function propose(
  ctx: OperationContext,
  proposals: readonly unknown[],
  input: PullInput = {},
  known?: KnownVectors,
): Promise<PullResult> {
  const defaults = parseInput(pullInputSchema, input);
  const bad = proposals.findIndex((p) => {
    const content = typeof p === 'object' && p !== null ? (p as { content?: unknown }).content : undefined;
    return typeof content !== 'string' || content.trim() === '';
  });
  if (proposals.length === 0 || bad >= 0) {
    throw new EngramError('PARAM_ERROR', proposals.length === 0 ? 'No proposals given' : `Proposal ${bad + 1} has no content`, {
      hint: 'Give a JSON array of {"title", "content", "type", "tags", "provenance_hint"} objects.',
    });
  }
  const admitProposal = (proposal: Record<string, unknown>) => putItem(ctx, proposal as PutInput, 'propose', false, known);
  return pullProposals(JSON.stringify(proposals), defaults, admitProposal, 'propose');
}

/** `memory_recall`: the token-budgeted block, the default way for a model to read memory. */
import { z } from 'zod';
import { recallInputSchema } from '../../retrieval/recall-schema.js';
import { recallEntry } from './results.js';
import { matchModeParam, scopeParam, tierParam, whereTo, workspaceParam } from './params.js';
import { defineTool, type ToolContext, WRITE } from './tool.js';

const op = recallInputSchema.shape;

const input = z.strictObject({
  query: op.query.min(1).describe('what the task needs to know'),
  budget_tokens: op.budget.describe('default 1500'),
  mode: op.mode.describe('inject: the block (default); catalog: one line per match; hybrid: both'),
  search_mode: matchModeParam(op.search_mode),
  tier: tierParam.optional(),
  scope: scopeParam.optional(),
  workspace: workspaceParam.optional(),
});

/** The result (the query, modes and budget echoed besides). */
const output = z.looseObject({
  inject_text: z.string(),
  format_version: z.literal(1),
  matched: z.number(),
  tokens_used: z.number(),
  injected: z.array(recallEntry),
  catalog: z.array(recallEntry),
  warnings: z.array(z.string()).optional(),
});

/** A recall in the call's workspace or scope, with the server's default budget and secrecy. */
export async function recallFor(context: ToolContext, args: Partial<z.output<typeof input>> & { query: string }) {
  const { scope } = await whereTo(context, args);
  return context.engram.recall({
    query: args.query,
    budget: args.budget_tokens ?? context.budget,
    mode: args.mode ?? 'inject',
    search_mode: args.search_mode,
    tier: args.tier,
    scope,
    secrecy: context.secrecy,
  });
}

export const memoryRecall = defineTool({
  name: 'memory_recall',
  title: 'Recall memory for a prompt',
  description:
    'The memories most relevant to a query as one token-budgeted block to quote in context: at the start of a task, '
    + 'before a decision. Leaves out quarantined, contradicted, superseded and expired items.',
  input,
  output,
  annotations: WRITE,
  async run(args, context) {
    const result = await recallFor(context, args);
    return { structured: { ...result }, text: result.inject_text };
  },
});

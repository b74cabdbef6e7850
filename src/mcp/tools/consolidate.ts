/** `memory_consolidate`: the deterministic run, its plan, or candidates for the model to merge. */
import { z } from 'zod';
import { batchLimitParam, batchOffsetParam, scopeParam, whereTo, workspaceParam } from './params.js';
import { defineTool, DESTRUCTIVE } from './tool.js';

export const memoryConsolidate = defineTool({
  name: 'memory_consolidate',
  title: 'Consolidate memory',
  description:
    'run (default): folds short-term duplicates into medium-term items, losing no text, and promotes to long-term. '
    + 'dry_run: the plan. candidates: a batch of groups to extract or merge (limit, default 10; more: groups left), '
    + 'then memory_propose with "supersedes": [ids].',
  input: z.strictObject({
    mode: z.enum(['run', 'dry_run', 'candidates']).optional(),
    scope: scopeParam.optional(),
    limit: batchLimitParam.optional(),
    offset: batchOffsetParam.optional(),
    workspace: workspaceParam.optional(),
  }),
  output: z.looseObject({}),
  annotations: DESTRUCTIVE,
  async run(args, context) {
    const { scope: where } = await whereTo(context, args);
    const mode = args.mode ?? 'run';
    if (mode === 'candidates') {
      const batch = { scope: where, limit: args.limit, offset: args.offset };
      return { structured: { mode, ...(await context.engram.consolidationCandidates(batch)) } };
    }
    return { structured: { mode, ...(await context.engram.consolidate({ dryRun: mode === 'dry_run', scope: where })) } };
  },
});

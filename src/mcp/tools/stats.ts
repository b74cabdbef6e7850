/** `memory_stats`: store counts, and with a workspace its live counts per tier. */
import { z } from 'zod';
import { workspaceParam } from './params.js';
import { defineTool, READ } from './tool.js';

export const memoryStats = defineTool({
  name: 'memory_stats',
  title: 'Memory statistics',
  description: 'Item counts by tier, type, layer, scope; archived, quarantined; schema version, size.',
  input: z.strictObject({ workspace: workspaceParam.describe('named workspace').optional() }),
  output: z.looseObject({
    total: z.number(),
    active: z.number(),
    quarantined: z.number(),
    by_tier: z.record(z.string(), z.number()),
  }),
  annotations: READ,
  async run(args, context) {
    const stats = await context.engram.stats();
    if (args.workspace === undefined) return { structured: { ...stats } };
    const found = await context.engram.resolveWorkspace(args.workspace);
    const live = await context.engram.palace({ scope: found.scope });
    return { structured: { ...stats, workspace: { ...found, by_tier: live.counts ?? {} } } };
  },
});

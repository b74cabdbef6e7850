/** `memory_palace_list`: browses live memory as workspace → tier → type → tag. */
import { z } from 'zod';
import { EngramError } from '../../errors.js';
import { palaceInputSchema } from '../../workspaces/palace.js';
import { scopeParam, tierParam, whereTo, workspaceParam } from './params.js';
import { defineTool, READ } from './tool.js';

const op = palaceInputSchema.shape;

export const memoryPalaceList = defineTool({
  name: 'memory_palace_list',
  title: 'Browse the memory palace',
  description:
    'Live memory as workspace → tier → type → tag: counts per tier, per type (given tier), per tag (given type), '
    + 'or the items (given tag).',
  input: z.strictObject({
    workspace: workspaceParam.optional(),
    scope: scopeParam.optional(),
    tier: tierParam.optional(),
    type: op.type,
    tag: op.tag,
    limit: op.limit,
  }),
  output: z.looseObject({ level: z.enum(['tier', 'type', 'tag', 'items']), path: z.looseObject({}) }),
  annotations: READ,
  async run(args, context) {
    const { scope: where } = await whereTo(context, args);
    if (args.type !== undefined && args.tier === undefined) {
      throw new EngramError('PARAM_ERROR', 'type needs tier: the palace goes tier → type → tag');
    }
    const result = await context.engram.palace({
      scope: where,
      tier: args.tier,
      type: args.type,
      tag: args.tag,
      limit: args.limit,
    });
    return { structured: { workspace: args.workspace ?? null, ...result } };
  },
});

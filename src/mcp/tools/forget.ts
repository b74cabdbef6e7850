/** `memory_forget`: archives one item for good; its history stays. */
import { z } from 'zod';
import { itemResult } from './results.js';
import { itemIdParam } from './params.js';
import { defineTool, DESTRUCTIVE } from './tool.js';

export const memoryForget = defineTool({
  name: 'memory_forget',
  title: 'Forget a memory',
  description: 'Archives one item for good (weight 0, never recalled again); its history stays.',
  input: z.strictObject({ id: itemIdParam }),
  output: z.looseObject({ id: z.string(), action: z.string(), item: itemResult }),
  annotations: DESTRUCTIVE,
  async run(args, context) {
    return { structured: { ...(await context.engram.forget(args.id)) } };
  },
});

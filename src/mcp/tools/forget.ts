/** `memory_forget`: archives one item for good; its history stays. */
import { z } from 'zod';
import { itemResult } from './results.js';
import { itemIdParam } from './params.js';
import { defineTool, DESTRUCTIVE } from './tool.js';

export const memoryForget = defineTool({
  name: 'memory_forget',
  title: 'Forget a memory',
  description: 'Forgets one item: archived, weight 0, never recalled again. Its history stays for audit.',
  input: z.strictObject({ id: itemIdParam }),
  output: z.looseObject({ id: z.string(), action: z.string(), item: itemResult }),
  annotations: DESTRUCTIVE,
  async run(args, context) {
    return { structured: { ...(await context.engram.forget(args.id)) } };
  },
});

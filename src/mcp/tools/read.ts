/** `memory_read`: items by id, with the ids that do not exist listed apart. */
import { z } from 'zod';
import { EngramError } from '../../errors.js';
import type { MemoryItem } from '../../types.js';
import { itemResult } from './results.js';
import { itemIdParam } from './params.js';
import { defineTool, READ } from './tool.js';

export const memoryRead = defineTool({
  name: 'memory_read',
  title: 'Read memories by id',
  description: 'Memory items by id, with every field; unknown ids are listed in missing.',
  input: z.strictObject({ ids: z.array(itemIdParam).min(1).max(100) }),
  output: z.looseObject({ items: z.array(itemResult), missing: z.array(z.string()) }),
  annotations: READ,
  async run(args, context) {
    const items: MemoryItem[] = [];
    const missing: string[] = [];
    for (const id of args.ids) {
      try {
        items.push((await context.engram.show(id, { secrecy: context.secrecy })).item);
      } catch (error) {
        if (error instanceof EngramError && error.code === 'NOT_FOUND') missing.push(id);
        else throw error;
      }
    }
    return { structured: { items, missing } };
  },
});

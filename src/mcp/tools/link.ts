/** `memory_link`: a typed, directed link between two items. */
import { z } from 'zod';
import { linkInputSchema } from '../../items/schemas.js';
import { itemIdParam } from './params.js';
import { defineTool, IDEMPOTENT_WRITE } from './tool.js';

export const memoryLink = defineTool({
  name: 'memory_link',
  title: 'Link two memories',
  description:
    'A typed link from src_id to dst_id: supersedes (dst leaves recall), contradicts, supports, derived_from or related.',
  input: linkInputSchema.extend({ src_id: itemIdParam, dst_id: itemIdParam }),
  output: z.looseObject({
    created: z.boolean(),
    link: z.looseObject({ src_id: z.string(), dst_id: z.string(), type: z.string() }),
  }),
  annotations: IDEMPOTENT_WRITE,
  async run(args, context) {
    return { structured: { ...(await context.engram.link(args)) } };
  },
});

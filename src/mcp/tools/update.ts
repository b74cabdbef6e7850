/** `memory_update`: changes fields of one item as a new version, through the write policy again. */
import { z } from 'zod';
import { parseInput } from '../../items/parse-input.js';
import { updateInputSchema } from '../../items/schemas.js';
import { putResult } from './results.js';
import { itemIdParam } from './params.js';
import { defineTool, IDEMPOTENT_WRITE } from './tool.js';

const input = z.strictObject({
  id: itemIdParam,
  // Any object here: the operation's own schema judges the fields, with its own PARAM_ERROR.
  fields: z.record(z.string(), z.unknown()).describe('e.g. {"tags": ["auth"], "confidence": 0.9}'),
  if_version: updateInputSchema.shape.if_version,
});

export const memoryUpdate = defineTool({
  name: 'memory_update',
  title: 'Update a memory',
  description:
    'Changes fields of one item as a new version (title, content, type, tags, tier, confidence, validation, '
    + 'injectable, weight, expires_at), through the write policy again. validation=contradicted: out of recall. '
    + 'if_version: CONFLICT if it changed since.',
  input,
  output: putResult,
  annotations: IDEMPOTENT_WRITE,
  async run(args, context) {
    const content = args.fields.content;
    if (typeof content === 'string') context.limiter.checkContent(content);
    const fields = parseInput(updateInputSchema, { ...args.fields, if_version: args.if_version });
    const result = await context.engram.update(args.id, fields);
    return { structured: { ...result } };
  },
});

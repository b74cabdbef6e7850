/** `memory_review`: what needs a decision (quarantined, contradicted, expiring, possible contradictions). */
import { z } from 'zod';
import { itemResult } from './results.js';
import { defineTool, READ } from './tool.js';

export const memoryReview = defineTool({
  name: 'memory_review',
  title: 'Review flagged memories',
  description:
    'Lists what needs a human or agent decision: quarantined items (with the rules that held them), contradicted '
    + 'items, items expiring soon, and possible contradictions (two memories saying the same thing with other '
    + 'values, e.g. "differs in: 5432 → 5433"; fix one with memory_update or link them).',
  input: z.strictObject({
    within_hours: z.number().int().min(0).max(24 * 365).optional().describe('expiry window (default 24)'),
    limit: z.number().int().min(1).max(500).optional(),
  }),
  output: z.looseObject({
    quarantined: z.array(z.looseObject({})),
    contradicted: z.array(itemResult),
    expiring: z.array(itemResult),
    possible_contradictions: z.array(z.looseObject({ items: z.array(itemResult), differs_in: z.array(z.string()) })),
    within_hours: z.number(),
  }),
  annotations: READ,
  async run(args, context) {
    const report = await context.engram.review({ withinHours: args.within_hours, limit: args.limit });
    return { structured: { ...report } };
  },
});

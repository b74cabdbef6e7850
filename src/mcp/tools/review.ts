/** `memory_review`: what needs a decision (quarantined, contradicted, expiring, possible contradictions). */
import { z } from 'zod';
import { itemResult } from './results.js';
import { defineTool, READ } from './tool.js';

export const memoryReview = defineTool({
  name: 'memory_review',
  title: 'Review flagged memories',
  description:
    'What needs a decision: quarantined items (and why), contradicted items, items expiring soon, possible '
    + 'contradictions (same statement, other values: "differs in: 5432 → 5433").',
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

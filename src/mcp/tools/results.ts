/**
 * Output schemas several tools share. They are loose: they name what a client may rely on, and
 * the result carries every field of the operation's typed result besides.
 */
import { z } from 'zod';

export const itemResult = z
  .looseObject({
    id: z.string(),
    title: z.string(),
    content: z.string(),
    type: z.string(),
    tier: z.string(),
    tags: z.array(z.string()),
    scope: z.string(),
    version: z.number(),
    injectable: z.boolean(),
    quarantined: z.boolean(),
    archived: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .describe('a memory item');

const policyResult = z.looseObject({ verdict: z.enum(['accept', 'quarantine', 'reject']), matches: z.array(z.looseObject({})) });

/** `put` and `update`. */
export const putResult = z.looseObject({
  action: z.enum(['created', 'updated', 'unchanged']),
  mode: z.string(),
  item: itemResult,
  policy: policyResult,
});

/** `pull` and `propose`. */
export const pullResult = z.looseObject({
  format: z.string(),
  proposals: z.number(),
  stored: z.number(),
  quarantined: z.number(),
  rejected: z.number(),
  items: z.array(z.looseObject({ index: z.number(), status: z.enum(['stored', 'quarantined', 'rejected']) })),
});

/** One line of a recall's injected list or catalog. */
export const recallEntry = z.looseObject({ id: z.string(), title: z.string(), type: z.string(), tier: z.string() });

export const workspaceResult = z.looseObject({
  name: z.string(),
  scope: z.string(),
  corpus_id: z.string(),
  description: z.string(),
});

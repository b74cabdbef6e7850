/**
 * Output schemas several tools share. They are loose: they name what a client may rely on, and
 * the result carries every field of the operation's typed result besides. Every session pays for
 * them in `tools/list`, so an item names the fields a caller acts on, not all of its columns.
 */
import { z } from 'zod';

/**
 * A memory item: its address, its text and whether it is trusted, declared; every other field of
 * the item (type, tier, tags, version, scope, dates, provenance, …) comes with it.
 */
export const itemResult = z.looseObject({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  quarantined: z.boolean(),
});

/** `put` and `update`; the policy's verdict comes with the rules that matched (`matches`). */
export const putResult = z.looseObject({
  action: z.enum(['created', 'updated', 'unchanged']),
  item: itemResult,
  policy: z.looseObject({ verdict: z.enum(['accept', 'quarantine', 'reject']) }),
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

/** One line of a recall's injected list or catalog (its type, tier and score come with it). */
export const recallEntry = z.looseObject({ id: z.string(), title: z.string() });

/** A named workspace (its description comes with it). */
export const workspaceResult = z.looseObject({ name: z.string(), scope: z.string(), corpus_id: z.string() });

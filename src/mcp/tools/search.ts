/** `memory_search`: lexical, semantic or hybrid search returning items as data, quarantined ones flagged. */
import { z } from 'zod';
import { searchInputSchema } from '../../retrieval/search-schema.js';
import { visibleText } from '../../recall/escape-block.js';
import { itemResult } from './results.js';
import { matchModeParam, scopeParam, tagListParam, tagsOf, tierParam, whereTo, workspaceParam } from './params.js';
import { defineTool, READ } from './tool.js';

const op = searchInputSchema.shape;

const input = z.strictObject({
  query: op.query.min(1),
  tags: tagListParam.optional(),
  tier: tierParam.optional(),
  type_filter: op.type,
  scope: scopeParam.optional(),
  workspace: workspaceParam.optional(),
  k: op.k.unwrap().max(100).optional().describe('default 10'),
  mode: matchModeParam(op.mode),
});

/** The result (the query echoed besides). */
const output = z.looseObject({
  mode: z.string(),
  count: z.number(),
  items: z.array(itemResult.extend({ score: z.number() })),
  warnings: z.array(z.string()).optional(),
});

export const memorySearch = defineTool({
  name: 'memory_search',
  title: 'Search memory',
  description:
    'Items matching a query, with filters, as data with ids and scores (no block): to look something up or find '
    + 'an id to update or forget. quarantined=true marks an unverified item.',
  input,
  output,
  annotations: READ,
  async run(args, context) {
    const { scope: where } = await whereTo(context, args);
    const result = await context.engram.search({
      query: args.query,
      tags: tagsOf(args.tags),
      tier: args.tier,
      type: args.type_filter,
      scope: where,
      k: args.k ?? 10,
      mode: args.mode,
      quarantined: 'include',
      secrecy: context.secrecy,
    });
    // The text a model reads shows no invisible characters, as in memory_recall's block.
    const items = result.items.map((hit) => ({
      ...hit, title: visibleText(hit.title), content: visibleText(hit.content),
    }));
    return { structured: { ...result, items } };
  },
});

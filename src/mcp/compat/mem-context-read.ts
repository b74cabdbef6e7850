/**
 * mem-context's reading tools (`serve --compat mem-context`): recall, get, status, review and
 * consolidation_candidates, each over the engram operation the `memory_*` tool of the same job
 * uses, with mem-context's parameter names and its memory fields (`mem-context-shape.ts`).
 */
import { z } from 'zod';
import { batchLimitParam, batchOffsetParam, itemIdParam, scopeParam } from '../tools/params.js';
import { defineTool, READ, WRITE } from '../tools/tool.js';
import { memoryResult, memoryTypeParam, memoryView, tierOf } from './mem-context-shape.js';

export const recall = defineTool({
  name: 'recall',
  title: 'Recall memories (mem-context)',
  description:
    'mem-context\'s recall: memories relevant to a query, best first, within token_budget (default the server\'s), '
    + 'at least min_score, at most limit (default 10), of type_filter. Same matches as memory_recall.',
  input: z.strictObject({
    query: z.string().min(1).max(10_000),
    scope: scopeParam.optional(),
    token_budget: z.number().int().min(1).max(1_000_000).optional(),
    min_score: z.number().min(0).max(1e6).optional().describe('engram\'s ranking score; the best match is about 1'),
    limit: z.number().int().min(1).max(100).optional(),
    type_filter: memoryTypeParam.optional(),
  }),
  output: z.looseObject({
    memories: z.array(memoryResult.extend({ score: z.number() })),
    count: z.number(),
    tokens_used: z.number(),
  }),
  annotations: WRITE,
  async run(args, context) {
    const result = await context.engram.recall({
      query: args.query,
      budget: args.token_budget ?? context.budget,
      mode: 'inject',
      scope: args.scope,
      tier: args.type_filter === undefined ? undefined : tierOf(args.type_filter),
      limit: args.limit ?? 10,
      min_score: args.min_score,
      secrecy: context.secrecy,
    });
    const memories = [];
    for (const entry of result.injected) {
      const { item } = await context.engram.show(entry.id, { secrecy: context.secrecy });
      memories.push({ ...memoryView(item), score: entry.score });
    }
    return {
      structured: { memories, count: memories.length, tokens_used: result.tokens_used, matched: result.matched },
      text: result.inject_text,
    };
  },
});

export const get = defineTool({
  name: 'get',
  title: 'Get one memory (mem-context)',
  description: 'mem-context\'s get: one memory by id, with its decay (engram\'s forgetting curve).',
  input: z.strictObject({ id: itemIdParam }),
  output: z.looseObject({ memory: memoryResult }),
  annotations: READ,
  async run(args, context) {
    const { item, lifecycle } = await context.engram.show(args.id, { secrecy: context.secrecy });
    return { structured: { memory: memoryView(item), lifecycle } };
  },
});

export const status = defineTool({
  name: 'status',
  title: 'Memory store status (mem-context)',
  description: 'mem-context\'s status: counts by type (and by engram tier), archived, quarantined; with scope, that scope\'s.',
  input: z.strictObject({ scope: scopeParam.optional() }),
  output: z.looseObject({ total: z.number(), by_type: z.record(z.string(), z.number()) }),
  annotations: READ,
  async run(args, context) {
    const stats = await context.engram.stats();
    const scoped = args.scope === undefined ? undefined : await context.engram.palace({ scope: args.scope });
    const byTier = scoped === undefined ? stats.by_tier : scoped.counts ?? {};
    const byType = { episodic: byTier.stm ?? 0, semantic: byTier.mtm ?? 0, permanent: byTier.ltm ?? 0 };
    return { structured: { ...stats, by_type: byType, ...(args.scope === undefined ? {} : { scope: args.scope }) } };
  },
});

export const review = defineTool({
  name: 'review',
  title: 'Flagged memories (mem-context)',
  description: 'mem-context\'s review: flagged memories (quarantined, contradicted, expiring within 24 h) and possible contradictions.',
  input: z.strictObject({}),
  output: z.looseObject({ flagged: z.array(memoryResult.extend({ reason: z.string() })) }),
  annotations: READ,
  async run(_args, context) {
    const report = await context.engram.review();
    const flagged = [
      ...report.quarantined.map((item) => ({ ...memoryView(item), reason: 'quarantined', policy_rules: item.policy_rules })),
      ...report.contradicted.map((item) => ({ ...memoryView(item), reason: 'contradicted' })),
      ...report.expiring.map((item) => ({ ...memoryView(item), reason: 'expiring' })),
    ];
    const { possible_contradictions: possible, within_hours: hours } = report;
    return { structured: { flagged, possible_contradictions: possible, within_hours: hours } };
  },
});

export const consolidationCandidates = defineTool({
  name: 'consolidation_candidates',
  title: 'Consolidation tasks (mem-context)',
  description:
    'mem-context\'s consolidation_candidates: a batch of groups to extract and to merge (more: groups left), '
    + 'each with a prompt for the host model; '
    + 'store the result with remember or memory_propose ("supersedes": [ids]).',
  input: z.strictObject({
    scope: scopeParam.optional(),
    limit: batchLimitParam.optional(),
    offset: batchOffsetParam.optional(),
  }),
  output: z.looseObject({}),
  annotations: READ,
  async run(args, context) {
    const batch = { scope: args.scope, limit: args.limit, offset: args.offset };
    return { structured: { ...(await context.engram.consolidationCandidates(batch)) } };
  },
});

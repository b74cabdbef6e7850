/** `memory_write`: one direct write, judged like a proposal unless the server trusts writes. */
import { z } from 'zod';
import { putInputSchema } from '../../items/schemas.js';
import { putResult } from './results.js';
import { scopeParam, tagListParam, tagsOf, tierParam, whereTo, workspaceParam } from './params.js';
import { defineTool, WRITE } from './tool.js';

const op = putInputSchema.shape;

const input = z.strictObject({
  content: op.content.min(1),
  title: op.title,
  type: op.type,
  tags: tagListParam.optional(),
  tier: tierParam.optional(),
  scope: scopeParam.optional(),
  workspace: workspaceParam.optional(),
  entities: op.entities.unwrap().max(100).optional(),
  confidence: op.confidence,
  provenance: op.provenance,
  injectable: op.injectable,
});

export const memoryWrite = defineTool({
  name: 'memory_write',
  title: 'Write a memory',
  description:
    'One memory at any tier, for setup and administration. Policy as memory_propose (no provenance: quarantined), '
    + 'unless the server runs with --trust-writes. An exact duplicate reinforces that item (deduplicated=true).',
  input,
  output: putResult,
  annotations: WRITE,
  async run(args, context) {
    context.limiter.checkContent(args.content);
    const { workspace: _w, tags, ...fields } = args;
    const where = await whereTo(context, args);
    const result = await context.engram.put(
      { ...fields, tags: tagsOf(tags), scope: where.scope, corpus_id: where.corpus_id },
      context.trustWrites === true ? { privileged: true } : { asProposal: true },
    );
    return { structured: { ...result } };
  },
});

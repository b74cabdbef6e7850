/**
 * mem-context's writing tools (`serve --compat mem-context`): remember, update and forget, over
 * the operations of memory_write, memory_update and memory_forget, so every write passes the same
 * policy: remember is judged like memory_propose (no source: quarantined, out of recall, listed by
 * review) unless the server runs with --trust-writes.
 */
import { z } from 'zod';
import { parseInput } from '../../items/parse-input.js';
import { updateInputSchema } from '../../items/schemas.js';
import { itemIdParam, scopeParam, tagListParam, tagsOf } from '../tools/params.js';
import { DESTRUCTIVE, defineTool, IDEMPOTENT_WRITE, WRITE } from '../tools/tool.js';
import { engramWeight, memoryResult, memoryTypeParam, memoryView, tierOf, updateFields, weightParam } from './mem-context-shape.js';

const writeResult = z.looseObject({ id: z.string(), action: z.string(), memory: memoryResult });

export const remember = defineTool({
  name: 'remember',
  title: 'Remember (mem-context)',
  description:
    'mem-context\'s remember: stores one memory (type episodic by default). source (engram\'s addition) names where it '
    + 'comes from; without it the memory is quarantined (listed by review, not recalled) unless the server trusts '
    + 'writes. Secrets and injection are rejected. An exact duplicate reinforces the existing memory.',
  input: z.strictObject({
    content: z.string().min(1).max(200_000),
    type: memoryTypeParam.optional(),
    weight: weightParam.optional(),
    tags: tagListParam.optional(),
    title: z.string().max(1000).optional(),
    scope: scopeParam.optional(),
    source: z.string().min(1).max(1000).optional().describe('file, URL or discussion it comes from'),
  }),
  output: writeResult,
  annotations: WRITE,
  async run(args, context) {
    context.limiter.checkContent(args.content);
    const tier = tierOf(args.type ?? 'episodic');
    const result = await context.engram.put(
      {
        content: args.content,
        title: args.title,
        tier,
        tags: tagsOf(args.tags),
        scope: args.scope,
        ...(args.weight === undefined ? {} : { weight: engramWeight(args.weight, tier) }),
        ...(args.source === undefined ? {} : { provenance: { source_id: args.source, source_kind: 'chat' } }),
      },
      context.trustWrites === true ? { privileged: true } : { asProposal: true },
    );
    // mem-context stores at once; here an unsourced memory waits for review, and the answer says so.
    const held = result.item.quarantined
      ? { note: 'Quarantined: not recalled until verified (review lists it). Give source, or serve with --trust-writes.' }
      : {};
    return { structured: { ...result, id: result.item.id, memory: memoryView(result.item), ...held } };
  },
});

export const update = defineTool({
  name: 'update',
  title: 'Update a memory (mem-context)',
  description:
    'mem-context\'s update: changes fields of one memory as a new version, through the write policy. type '
    + 'episodic|semantic|permanent sets the tier; weight is on mem-context\'s scale; other fields as memory_update.',
  input: z.strictObject({
    id: itemIdParam,
    fields: z.record(z.string(), z.unknown()).describe('e.g. {"type": "permanent", "tags": ["auth"]}'),
  }),
  output: writeResult,
  annotations: IDEMPOTENT_WRITE,
  async run(args, context) {
    const content = args.fields.content;
    if (typeof content === 'string') context.limiter.checkContent(content);
    const current = await context.engram.show(args.id);
    const fields = parseInput(updateInputSchema, updateFields(args.fields, current.item));
    const result = await context.engram.update(args.id, fields);
    return { structured: { ...result, id: result.item.id, memory: memoryView(result.item) } };
  },
});

export const forget = defineTool({
  name: 'forget',
  title: 'Forget a memory (mem-context)',
  description: 'mem-context\'s forget: archives one memory (weight 0, never recalled again); its history stays.',
  input: z.strictObject({ id: itemIdParam }),
  output: writeResult,
  annotations: DESTRUCTIVE,
  async run(args, context) {
    const result = await context.engram.forget(args.id);
    return { structured: { ...result, memory: memoryView(result.item) } };
  },
});

/** `memory_session_store`: the session bridge's end of a turn: the proposals in the answer, stored. */
import { z } from 'zod';
import { parseProposals } from '../../ingest/proposals.js';
import { pullResult } from './results.js';
import { scopeParam, text, whereTo, workspaceParam } from './params.js';
import { defineTool, WRITE } from './tool.js';

export const memorySessionStore = defineTool({
  name: 'memory_session_store',
  title: 'End a turn with memory',
  description:
    'Session bridge, end of a turn: stores the proposals in response_text (JSON array, <memory> blocks, ```memory '
    + 'fences, Title:/Type:/Tags: sections) through the write policy.',
  input: z.strictObject({
    response_text: z.string().max(500_000),
    session_id: text.min(1),
    scope: scopeParam.optional(),
    workspace: workspaceParam.optional(),
  }),
  output: pullResult,
  annotations: WRITE,
  bucket: (args, context) => `${context.sessionKey}/${args.session_id}`,
  async run(args, context) {
    const { format, proposals } = parseProposals(args.response_text);
    if (format === 'text') {
      return { structured: { format, proposals: 0, stored: 0, quarantined: 0, rejected: 0, items: [] } };
    }
    for (const p of proposals) context.limiter.checkContent(p.content);
    context.limiter.propose(`${context.sessionKey}/${args.session_id}`, proposals.length);
    const { scope: where } = await whereTo(context, args);
    const result = await context.engram.pull(args.response_text, { scope: where });
    return { structured: { ...result } };
  },
});

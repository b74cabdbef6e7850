/** `memory_session_inject`: the session bridge's start of a turn (the proposal cap resets). */
import { z } from 'zod';
import { recallInputSchema } from '../../retrieval/recall-schema.js';
import { recallFor } from './recall.js';
import { recallEntry } from './results.js';
import { text } from './params.js';
import { defineTool, WRITE } from './tool.js';

const op = recallInputSchema.shape;

export const memorySessionInject = defineTool({
  name: 'memory_session_inject',
  title: 'Start a turn with memory',
  description:
    'Session bridge, start of a turn: a new turn for session_id (the proposal cap resets); returns system_context '
    + 'with the memory block for query appended.',
  input: z.strictObject({
    query: op.query.min(1),
    session_id: text.min(1),
    system_context: z.string().max(200_000).optional(),
    budget_tokens: op.budget,
  }),
  // The block alone (inject_text) and the match count come besides.
  output: z.looseObject({
    session_id: z.string(),
    turn: z.number(),
    augmented_context: z.string(),
    injected: z.array(recallEntry),
  }),
  annotations: WRITE,
  bucket: (args, context) => `${context.sessionKey}/${args.session_id}`,
  async run(args, context) {
    const turn = context.limiter.newTurn(`${context.sessionKey}/${args.session_id}`);
    context.limiter.newTurn(context.sessionKey);
    const result = await recallFor(context, { query: args.query, budget_tokens: args.budget_tokens });
    const parts = [args.system_context ?? '', result.inject_text].filter((p) => p !== '');
    return {
      structured: {
        session_id: args.session_id,
        turn,
        augmented_context: parts.join('\n\n'),
        inject_text: result.inject_text,
        matched: result.matched,
        injected: result.injected,
      },
    };
  },
});

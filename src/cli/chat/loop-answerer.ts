/**
 * `engram chat`'s answering step: the recall–answer loop (`loop/`) over the store, with the
 * conversation so far quoted in the prompt (as data, escaped like the memory) and, when proposals
 * are stored, the format they take added to the system text. The memories given to the model
 * come back as the answer's sources, with their titles (recorded from the loop's own recalls: no
 * extra read).
 */
import type { LlmProvider } from '../../llm/provider.js';
import { type LoopMemory, type MemoryLoopInput, runMemoryLoop } from '../../loop/memory-loop.js';
import type { ChatAnswerer, ChatExchange } from './session.js';

/** The longest part of an earlier answer the next questions see. */
const ANSWER_CHARS = 1_500;

/** How an answer may carry memory proposals (the `pull` block format). */
export const PROPOSAL_FORMAT = [
  'Memory proposals. A fact or decision from this exchange that is worth keeping may follow the answer as a block:',
  '```memory',
  'Title: a short title',
  'Type: fact, decision, definition, constraint, pattern, todo or note',
  'Tags: comma, separated',
  'The text to keep.',
  '```',
  'Such blocks are optional; the store\'s write policy reviews each one.',
].join('\n');

/** The conversation so far, for the prompt (escaped there as quoted data; '' before the first answer). */
export function conversationText(history: readonly ChatExchange[]): string {
  if (history.length === 0) return '';
  const turns = history.map(({ question, answer }) => {
    const shown = answer.length > ANSWER_CHARS ? `${answer.slice(0, ANSWER_CHARS)}…` : answer;
    return `Q: ${question}\nA: ${shown}`;
  });
  return turns.join('\n\n');
}

export interface LoopAnswererOptions {
  /** The loop's bounds (budget, max_calls, protocol, timeout_ms, …); memctl's defaults otherwise. */
  loop: Omit<MemoryLoopInput, 'question' | 'context' | 'conversation' | 'system_prompt'>;
  /** The user's own system prompt. */
  systemPrompt?: string;
  /** Tell the model how to propose memories (the session stores them). */
  proposals?: boolean;
}

/**
 * The chat's answering step over `memory` with `provider`.
 *
 * @example
 * const answer = loopAnswerer(engram, createLlmProvider('claude -p', { env }), { loop: { budget: 1500 } });
 * const { answer: text, sources } = await answer('How do we deploy?', []);
 */
export function loopAnswerer(
  memory: LoopMemory,
  provider: Pick<LlmProvider, 'label' | 'complete'>,
  options: LoopAnswererOptions,
): ChatAnswerer {
  return async (question, history, signal) => {
    const titles = new Map<string, string>();
    const given: string[] = [];
    const recording: LoopMemory = {
      async recall(input) {
        const result = await memory.recall(input);
        for (const entry of result.injected) titles.set(entry.id, entry.title);
        given.push(result.inject_text);
        return result;
      },
    };
    const proposals = options.proposals === true ? PROPOSAL_FORMAT : undefined;
    const parts = [options.systemPrompt, proposals];
    const system = parts.filter((part) => part !== undefined && part.trim() !== '').join('\n\n');
    const conversation = conversationText(history);
    const input = {
      ...options.loop,
      question,
      ...(system === '' ? {} : { system_prompt: system }),
      ...(conversation === '' ? {} : { conversation }),
    };
    const result = await runMemoryLoop(recording, provider, input, { signal });
    const sources = result.sources.map((id) => ({ id, title: titles.get(id) ?? '' }));
    return { answer: result.answer, sources, given: given.join('\n') };
  };
}

/**
 * The loop over an engram store, for library users and the CLI: recall goes through the store's
 * own `recall` operation (the injection block, its usage recorded, the items already given left
 * out with `exclude_ids`), with memctl's defaults for every bound.
 */
import { z } from 'zod';
import { EngramError } from '../errors.js';
import { parseInput } from '../items/parse-input.js';
import type { LlmProvider } from '../llm/provider.js';
import type { RecallInput, RecallResult } from '../retrieval/recall.js';
import { type LoopRecall, type LoopResult, runLoop } from './controller.js';
import type { LoopSettings, TraceEvent } from './trace.js';

/** memctl's defaults: json protocol, 3 calls, 0.92 / 0.90 thresholds, 2 stable steps, 2200 tokens, 300 s. */
export const LOOP_DEFAULTS: Readonly<LoopSettings> = Object.freeze({
  protocol: 'json',
  max_calls: 3,
  threshold: 0.92,
  query_threshold: 0.9,
  stable_steps: 2,
  stop_on_no_new: true,
  budget: 2200,
  strict: false,
  timeout_ms: 300_000,
});

/** The bounds a caller may set; each checked before the first call (PARAM_ERROR naming it). */
export const loopSettingsSchema = z.strictObject({
  protocol: z.enum(['json', 'regex', 'passive']),
  max_calls: z.number().int().min(1).max(100),
  threshold: z.number().min(0).max(1),
  query_threshold: z.number().min(0).max(1),
  stable_steps: z.number().int().min(1).max(100),
  stop_on_no_new: z.boolean(),
  budget: z.number().int().min(1).max(1_000_000),
  strict: z.boolean(),
  timeout_ms: z.number().int().min(1),
  system_prompt: z.string().max(100_000).optional(),
});

/** {@link LOOP_DEFAULTS} with the values given (undefined ones left out), checked. */
export function loopSettings(given: Partial<LoopSettings>): LoopSettings {
  const defined = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  return parseInput(loopSettingsSchema, { ...LOOP_DEFAULTS, ...defined });
}

/** What the loop needs of an engram: its recall (an `Engram` from `openEngram` has it). */
export interface LoopMemory {
  recall(input: RecallInput): Promise<RecallResult>;
}

/** The recall filters a loop may narrow every recall with. */
export type LoopRecallFilters = Pick<RecallInput, 'tier' | 'type' | 'scope' | 'tags' | 'secrecy' | 'search_mode'>;

/** The loop's recall over `memory`: the inject block of the query, without the items given. */
export function recallFrom(memory: LoopMemory, filters: LoopRecallFilters = {}): LoopRecall {
  return async (query, { exclude, budget }) => {
    const result = await memory.recall({ ...filters, query, budget, mode: 'inject', exclude_ids: [...exclude] });
    return { text: result.inject_text, ids: result.injected.map((entry) => entry.id), tokens: result.tokens_used };
  };
}

export interface MemoryLoopInput extends Partial<LoopSettings> {
  question: string;
  /** The initial context (an injection block); absent: the recall of the question. */
  context?: string;
  /** Earlier exchanges of a conversation, quoted in the prompt (escaped, as data). */
  conversation?: string;
  filters?: LoopRecallFilters;
}

/**
 * The recall–answer loop over an engram store, with `provider` as the model. Every bound not
 * given takes {@link LOOP_DEFAULTS}; `onEvent` receives the trace (write each as a JSONL line with
 * `JSON.stringify` to replay it later with `replayLoop`).
 *
 * @example
 * const engram = await openEngram({ path: '.engram/memory.db' });
 * const provider = { label: 'echo', complete: async () => '{"stop": true}\nWe deploy with blue-green.' };
 * const { answer, stop_reason } = await runMemoryLoop(engram, provider, { question: 'How do we deploy?' });
 */
export async function runMemoryLoop(
  memory: LoopMemory,
  provider: Pick<LlmProvider, 'label' | 'complete'>,
  input: MemoryLoopInput,
  options: { onEvent?: (event: TraceEvent) => void; signal?: AbortSignal } = {},
): Promise<LoopResult> {
  const { question, context, conversation, filters, ...given } = input;
  if (typeof question !== 'string' || question.trim() === '') {
    throw new EngramError('PARAM_ERROR', 'The loop needs a question', { details: { field: 'question' } });
  }
  return runLoop({ question, context, conversation }, loopSettings(given), {
    provider,
    recall: recallFrom(memory, filters),
    onEvent: options.onEvent,
    signal: options.signal,
  });
}

/**
 * The recall–answer loop (memctl's `loop`): the model answers from memory and may propose one
 * follow-up query per call; the controller alone runs the recall, keeps out what was already
 * given, and decides when to stop. Pure over two functions, the model ({@link LlmProvider}) and
 * the recall ({@link LoopRecall}), so the same code runs live, in tests and in replay.
 *
 * Each call, in this order (the first that holds ends the loop):
 *   1. the reply gives no directive (json and regex)            → unparsed_reply (--strict: LLM_ERROR)
 *   2. the protocol is passive                                  → single_pass
 *   3. `stop`, or no `need_more`, or need_more with no query    → llm_stop
 *   4. the last `stable_steps` answers were each ≥ `threshold`
 *      similar to the one before (similarity.ts)                → fixed_point
 *   5. the query repeats the question or a query already run
 *      (equal once normalised, or ≥ `query_threshold` similar) → query_cycle
 *   6. this was call `max_calls`                                → max_calls
 *   7. the recall of the query, without the items given so far,
 *      brings no item (unless stop_on_no_new is off)            → no_new_items
 * Otherwise the new items join the context and the model is called again. The answer is always
 * the last reply's answer. A failed call (LLM_ERROR, LLM_TIMEOUT) or recall ends the loop with
 * that error, recorded in the trace.
 */
import { EngramError, isEngramError, toEngramError } from '../errors.js';
import type { LlmProvider } from '../llm/provider.js';
import { sha256 } from '../util/hash.js';
import { promptText, systemText } from './prompt.js';
import { parseReply, type Directive } from './protocol.js';
import { repeatedQuery, textSimilarity } from './similarity.js';
import { CONVERGED, type LoopSettings, type StopReason, TRACE_VERSION, type TraceEvent } from './trace.js';

/** What one recall gave the loop: the block for the prompt and the ids of the items in it. */
export interface RecalledBlock {
  text: string;
  ids: string[];
  tokens: number;
}

/** A recall for the loop: `query`'s block within `budget` tokens, without the `exclude`d items. */
export type LoopRecall = (
  query: string,
  options: { exclude: readonly string[]; budget: number },
) => Promise<RecalledBlock>;

export interface LoopDeps {
  provider: Pick<LlmProvider, 'label' | 'complete'>;
  recall: LoopRecall;
  /** Each trace event as it happens. */
  onEvent?: (event: TraceEvent) => void;
  signal?: AbortSignal;
  /** Milliseconds, for the calls' durations in the trace (default Date.now). */
  clock?: () => number;
}

export interface LoopResult {
  question: string;
  answer: string;
  stop_reason: StopReason;
  /** The answer settled (llm_stop, fixed_point, single_pass) rather than a bound cutting it short. */
  converged: boolean;
  calls: number;
  /** The ids of the items given to the model, in the order given. */
  sources: string[];
  /** The follow-up queries run. */
  queries: string[];
}

export interface LoopInput {
  question: string;
  /** The initial context (a block piped in from `engram push`); blank or absent: recall the question. */
  context?: string;
  /** The ids of the items in `context` (default: read from its ITEM lines, see {@link idsInBlock}). */
  contextIds?: readonly string[];
  /** Earlier exchanges of a conversation (`chat`), quoted in the prompt as data, escaped. */
  conversation?: string;
}

/** The item ids in an injection block (its `--- ITEM i/n [ID | …] ---` lines). */
export function idsInBlock(block: string): string[] {
  return [...block.matchAll(/^--- ITEM \d+\/\d+ \[([^\s|\]]+)/gm)].map((m) => m[1] ?? '');
}

/** What a provider threw, as an EngramError: its own, or LLM_ERROR with the message of another. */
function providerError(label: string, error: unknown): unknown {
  if (isEngramError(error)) return error;
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' | ');
  return new EngramError('LLM_ERROR', `LLM ${label} failed: ${message}`, { cause: error });
}

/** The longest query recall takes (its input limit): a model's longer proposal is cut to it. */
export const MAX_QUERY_CHARS = 10_000;

/** `query` cut to {@link MAX_QUERY_CHARS} (never inside a surrogate pair): the model's output is no PARAM_ERROR. */
function clippedQuery(query: string): string {
  if (query.length <= MAX_QUERY_CHARS) return query;
  const cut = query.slice(0, MAX_QUERY_CHARS);
  return /[\uD800-\uDBFF]$/u.test(cut) ? cut.slice(0, -1) : cut;
}

interface Decision {
  action: 'continue' | StopReason;
  repeats?: string;
}

function decide(
  directive: Directive | null,
  settings: LoopSettings,
  state: { call: number; stable: number; tried: readonly string[] },
): Decision {
  if (directive === null) return { action: 'unparsed_reply' };
  if (settings.protocol === 'passive') return { action: 'single_pass' };
  if (directive.stop || !directive.need_more || directive.query === null) return { action: 'llm_stop' };
  if (state.stable >= settings.stable_steps) return { action: 'fixed_point' };
  const repeats = repeatedQuery(directive.query, state.tried, settings.query_threshold);
  if (repeats !== undefined) return { action: 'query_cycle', repeats };
  return { action: state.call >= settings.max_calls ? 'max_calls' : 'continue' };
}

function unparsed(call: number, settings: LoopSettings): EngramError {
  return new EngramError('LLM_ERROR', `The model's reply to call ${call} does not follow the ${settings.protocol} protocol`, {
    hint: 'The regex or passive protocol suits a model that cannot keep the format; outside strict mode such a reply is taken whole as the answer.',
    details: { call, protocol: settings.protocol },
  });
}

/**
 * Runs the loop for `question`. The initial context is `context` when given (a block piped in
 * from `engram push`), else the recall of the question.
 *
 * @example
 * const result = await runLoop({ question: 'How do we deploy?' }, settings, { provider, recall });
 * console.log(result.answer, result.stop_reason);
 */
export async function runLoop(
  input: LoopInput,
  settings: LoopSettings,
  deps: LoopDeps,
): Promise<LoopResult> {
  const { question } = input;
  const { provider } = deps;
  const emit = (event: TraceEvent) => deps.onEvent?.(event);
  /** A failure of the store or the model: recorded, then thrown as an EngramError. */
  const failed = (call: number, error: unknown): EngramError => {
    const failure = toEngramError(error);
    emit({ event: 'error', call, code: failure.code, message: failure.message });
    return failure;
  };
  const recall = async (call: number, query: string, exclude: readonly string[]) => {
    try {
      return await deps.recall(query, { exclude, budget: settings.budget });
    } catch (error) {
      throw failed(call, error);
    }
  };
  const clock = deps.clock ?? Date.now;
  emit({ event: 'start', trace_version: TRACE_VERSION, question, provider: provider.label, settings });

  const given: string[] = [];
  const blocks: string[] = [];
  const take = (text: string, ids: readonly string[]) => {
    const fresh = ids.filter((id) => !given.includes(id));
    given.push(...fresh);
    if (fresh.length > 0 || ids.length === 0) blocks.push(text);
    return fresh;
  };
  if (input.context !== undefined && input.context.trim() !== '') {
    const ids = [...(input.contextIds ?? idsInBlock(input.context))];
    emit({ event: 'context', source: 'given', ids, chars: input.context.length });
    take(input.context, ids);
  } else {
    const first = await recall(0, question, []);
    emit({ event: 'recall', call: 0, query: question, ids: first.ids, tokens: first.tokens });
    take(first.text, first.ids);
  }

  const system = systemText(settings.protocol, settings.system_prompt);
  const tried = [question];
  const queries: string[] = [];
  const answers: string[] = [];
  let stable = 0;
  for (let call = 1; ; call++) {
    const previousAnswer = answers.at(-1);
    const prompt = promptText({ question, context: blocks, queries, previousAnswer, conversation: input.conversation });
    const started = clock();
    let reply: string;
    try {
      reply = await provider.complete({ system, prompt, timeoutMs: settings.timeout_ms, signal: deps.signal });
    } catch (error) {
      throw failed(call, providerError(provider.label, error));
    }
    if (typeof reply !== 'string') {
      throw failed(call, new EngramError('LLM_ERROR', `LLM ${provider.label} answered call ${call} with ${typeof reply}, not text`, {
        hint: 'A provider\'s complete() resolves to the reply\'s text.',
      }));
    }
    emit({
      event: 'llm', call, system_sha256: sha256(system), prompt_sha256: sha256(prompt),
      prompt_chars: prompt.length, ms: clock() - started, reply,
    });
    const { directive, answer } = parseReply(reply, settings.protocol);
    const previous = answers.at(-1);
    answers.push(answer);
    const similarity = previous === undefined ? null : textSimilarity(answer, previous);
    stable = similarity !== null && similarity >= settings.threshold ? stable + 1 : 0;
    const decision = decide(directive, settings, { call, stable, tried });
    let { action } = decision;
    if (action === 'continue' && directive?.query != null) {
      const query = clippedQuery(directive.query);
      const found = await recall(call, query, given);
      emit({ event: 'recall', call, query, ids: found.ids, tokens: found.tokens });
      queries.push(query);
      tried.push(query);
      const fresh = take(found.text, found.ids);
      if (fresh.length === 0 && settings.stop_on_no_new) action = 'no_new_items';
    }
    emit({
      event: 'step', call, directive, similarity: similarity === null ? null : Math.round(similarity * 1e4) / 1e4,
      stable, action, ...(decision.repeats === undefined ? {} : { repeats: decision.repeats }),
    });
    if (action === 'continue') continue;
    if (action === 'unparsed_reply' && settings.strict) throw failed(call, unparsed(call, settings));
    const converged = CONVERGED.has(action);
    emit({ event: 'stop', reason: action, calls: call, converged, answer, sources: [...given] });
    return { question, answer, stop_reason: action, converged, calls: call, sources: [...given], queries };
  }
}

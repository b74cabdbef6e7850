/**
 * The loop's trace: one JSON object per line (JSONL), in the order things happened. It records
 * everything the controller decided from (each reply in full, each recall's item ids), so that
 * `replay.ts` can run the controller again over it with no model and no store and reach the same
 * answer. Prompts are recorded by their SHA-256 and size only: they hold memory text.
 *
 *   {"event":"start","trace_version":1,"question":…,"settings":{…},"provider":…}
 *   {"event":"recall","call":0,"query":…,"ids":[…],"tokens":…}     the initial context (call 0)
 *   {"event":"context","source":"given","ids":[…],"chars":…}        or: the context was piped in
 *   {"event":"llm","call":1,"system_sha256":…,"prompt_sha256":…,"prompt_chars":…,"ms":…,"reply":…}
 *   {"event":"step","call":1,"directive":{…}|null,"similarity":…,"stable":…,"action":"continue"}
 *   {"event":"recall","call":1,"query":…,"ids":[…],"tokens":…}     the follow-up recall
 *   …
 *   {"event":"stop","reason":"llm_stop","calls":2,"converged":true,"answer":…,"sources":[…]}
 *   {"event":"error","call":2,"code":"LLM_TIMEOUT","message":…}    instead of stop, on a failure
 */
import type { Directive, LoopProtocol } from './protocol.js';

/** Bumped when an event changes meaning; replay refuses other versions. */
export const TRACE_VERSION = 1;

/**
 * Why the loop ended. memctl's five (`llm_stop`, `fixed_point`, `query_cycle`, `no_new_items`,
 * `max_calls`), and two of engram's: `single_pass` (the passive protocol's one call) and
 * `unparsed_reply` (a reply with no directive, taken whole as the answer).
 */
export type StopReason
  = | 'llm_stop'
    | 'fixed_point'
    | 'query_cycle'
    | 'no_new_items'
    | 'max_calls'
    | 'single_pass'
    | 'unparsed_reply';

/** The stop reasons that mean the answer settled (the others mean the loop was cut short). */
export const CONVERGED: ReadonlySet<StopReason> = new Set(['llm_stop', 'fixed_point', 'single_pass']);

/** The controller's bounds and thresholds, recorded in the trace's start event. */
export interface LoopSettings {
  protocol: LoopProtocol;
  /** Most model calls (memctl's `--max-calls`, default 3). */
  max_calls: number;
  /** Answer similarity for a stable step (`--threshold`, default 0.92). */
  threshold: number;
  /** Similarity at which a proposed query repeats one already run (`--query-threshold`, 0.90). */
  query_threshold: number;
  /** Stable steps in a row for `fixed_point` (`--stable-steps`, default 2). */
  stable_steps: number;
  /** Stop when a follow-up recall brings nothing new (off with `--no-stop-on-no-new`). */
  stop_on_no_new: boolean;
  /** Token budget of each recall's block (`--budget`, default 2200). */
  budget: number;
  /** An unparsed reply is an error instead of the answer (`--strict`). */
  strict: boolean;
  /** Per model call (`--timeout`, default 300 s). */
  timeout_ms: number;
  /** The user's system prompt, added after the protocol's. */
  system_prompt?: string;
}

export type TraceEvent
  = | { event: 'start'; trace_version: number; question: string; provider: string; settings: LoopSettings }
    | { event: 'context'; source: 'given'; ids: string[]; chars: number }
    | { event: 'recall'; call: number; query: string; ids: string[]; tokens: number }
    | {
      event: 'llm';
      call: number;
      system_sha256: string;
      prompt_sha256: string;
      prompt_chars: number;
      ms: number;
      reply: string;
    }
    | {
      event: 'step';
      call: number;
      directive: Directive | null;
      similarity: number | null;
      stable: number;
      action: 'continue' | StopReason;
      /** With `action` query_cycle: the query already run that the proposal repeats. */
      repeats?: string;
    }
    | {
      event: 'stop';
      reason: StopReason;
      calls: number;
      converged: boolean;
      answer: string;
      sources: string[];
    }
    | { event: 'error'; call: number; code: string; message: string };

/** One event as its JSONL line (no newline). */
export function traceLine(event: TraceEvent): string {
  return JSON.stringify(event);
}

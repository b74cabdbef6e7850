/**
 * Replay of a loop trace (`engram loop --replay FILE`): the controller runs again with the
 * settings of the trace's start event, each model call answered by the reply the trace recorded
 * and each recall by the item ids it recorded. No model is called, no process is started and no
 * store is opened; the result is the recorded run's result, byte for byte, or PARAM_ERROR saying
 * where the trace and the controller part ways (an edited or truncated trace, another version).
 * A run that failed (an `error` event: the model or the store) replays to the same error.
 */
import { EngramError, EXIT_CODES, type ErrorCode } from '../errors.js';
import { type LoopResult, runLoop } from './controller.js';
import { loopSettings } from './memory-loop.js';
import { type LoopSettings, TRACE_VERSION, type TraceEvent } from './trace.js';

function traceError(message: string, details: Record<string, unknown> = {}): EngramError {
  return new EngramError('PARAM_ERROR', message, {
    hint: 'Give a trace file the loop wrote, unchanged.',
    details,
  });
}

/** The events of a JSONL trace; PARAM_ERROR on a line that is not a JSON object with an `event`. */
export function parseTrace(text: string): TraceEvent[] {
  const events: TraceEvent[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw traceError(`Line ${index + 1} of the trace is not JSON`, { line: index + 1 });
    }
    if (typeof value !== 'object' || value === null || typeof (value as { event?: unknown }).event !== 'string') {
      throw traceError(`Line ${index + 1} of the trace is not a trace event`, { line: index + 1 });
    }
    events.push(value as TraceEvent);
  });
  return events;
}

type Of<K extends TraceEvent['event']> = Extract<TraceEvent, { event: K }>;

function eventsOf<K extends TraceEvent['event']>(events: readonly TraceEvent[], kind: K): Of<K>[] {
  return events.filter((e): e is Of<K> => e.event === kind);
}

function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(EXIT_CODES, code);
}

function startOf(events: readonly TraceEvent[]): Of<'start'> {
  const start = eventsOf(events, 'start');
  if (start.length !== 1) throw traceError(`A trace has one start event; this one has ${start.length}`);
  const [first] = start as [Of<'start'>];
  if (first.trace_version !== TRACE_VERSION) {
    throw traceError(`Trace version ${String(first.trace_version)} cannot be replayed (this engram reads version ${TRACE_VERSION})`);
  }
  const s = first.settings as Partial<LoopSettings> | undefined;
  if (typeof first.question !== 'string' || s === undefined || typeof s.protocol !== 'string' || typeof s.max_calls !== 'number') {
    throw traceError('The trace\'s start event has no question or settings');
  }
  return first;
}

/** Nothing after a stop or error event: it ends a trace. */
function checkEnd(events: readonly TraceEvent[]): void {
  const end = events.findIndex((e) => e.event === 'stop' || e.event === 'error');
  if (end >= 0 && end < events.length - 1) {
    throw traceError(`The trace goes on after its ${events[end]?.event ?? 'stop'} event (line ${end + 1})`, { line: end + 2 });
  }
}

/** The recorded stop event and the replay's result agree in every field, or PARAM_ERROR says where. */
function checkStop(stop: Of<'stop'> | undefined, result: LoopResult): void {
  if (stop === undefined) return;
  if (stop.reason !== result.stop_reason) {
    throw traceError(`The replay stops with ${result.stop_reason} where the trace recorded ${stop.reason}`);
  }
  if (stop.calls !== result.calls) throw traceError(`The replay stops after ${result.calls} calls where the trace recorded ${stop.calls}`);
  if (stop.answer !== result.answer) {
    throw traceError('The answer of the stop event is not the one the recorded replies give (the trace was edited)');
  }
  const sources = Array.isArray(stop.sources) ? stop.sources : [];
  if (sources.length !== result.sources.length || sources.some((id, i) => id !== result.sources[i])) {
    throw traceError('The sources of the stop event are not the ids the recorded recalls give (the trace was edited)');
  }
}

/**
 * Replays a trace (its JSONL text or its events) to the result the recorded run printed.
 *
 * @example
 * const { answer, stop_reason } = await replayLoop(readFileSync('trace.jsonl', 'utf8'));
 */
export async function replayLoop(
  trace: string | readonly TraceEvent[],
  options: { onEvent?: (event: TraceEvent) => void } = {},
): Promise<LoopResult> {
  const events = typeof trace === 'string' ? parseTrace(trace) : trace;
  const start = startOf(events);
  checkEnd(events);
  const replies = new Map(eventsOf(events, 'llm').map((e) => [e.call, e.reply]));
  const failures = new Map(eventsOf(events, 'error').map((e) => [e.call, e]));
  const recalls = eventsOf(events, 'recall');
  const context = eventsOf(events, 'context')[0];
  let call = 0;
  let recalled = 0;
  const recorded = (at: number) => {
    const failure = failures.get(at);
    return failure && new EngramError(isErrorCode(failure.code) ? failure.code : 'LLM_ERROR', failure.message);
  };
  const result = await runLoop(
    {
      question: start.question,
      ...(context === undefined ? {} : { context: '(the context of the recorded run)', contextIds: context.ids }),
    },
    loopSettings(start.settings),
    {
      provider: {
        label: start.provider,
        complete: async () => {
          call += 1;
          const reply = replies.get(call);
          if (reply !== undefined) return reply;
          throw recorded(call) ?? traceError(`The trace ends before call ${call} of the replay`, { call });
        },
      },
      recall: async (query) => {
        const event = recalls[recalled];
        recalled += 1;
        if (event === undefined) throw recorded(call) ?? traceError(`The replay recalls "${query}" where the trace recorded no recall`);
        if (event.query !== query) throw traceError(`The replay recalls "${query}" where the trace recorded "${event.query}"`);
        return { text: '', ids: event.ids, tokens: event.tokens };
      },
      onEvent: options.onEvent,
      clock: () => 0,
    },
  );
  checkStop(eventsOf(events, 'stop')[0], result);
  return result;
}

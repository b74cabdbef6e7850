/**
 * What `engram loop` and `engram ask` share: memctl's loop flags, and a run of the loop with the
 * answer on stdout and the trace (`--trace`: stderr, `--trace-file`: a file) and progress on
 * stderr. The controller and the LLM providers load only when a loop runs.
 */
import { closeSync, fstatSync, openSync, readSync, renameSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { EngramError } from '../errors.js';
import type { LoopResult } from '../loop/controller.js';
import type { LoopSettings, TraceEvent } from '../loop/trace.js';
import type { CliContext, CommandOutput } from './context.js';
import { enumOption, intOption, numberOption } from './options.js';
import { readFileOrStdin } from './read-input.js';

export interface LoopFlags {
  llm?: string;
  llmMode?: 'stdin' | 'file';
  protocol?: LoopSettings['protocol'];
  systemPrompt?: string;
  maxCalls?: number;
  threshold?: number;
  queryThreshold?: number;
  stableSteps?: number;
  /** False with `--no-stop-on-no-new`. */
  stopOnNoNew: boolean;
  budget?: number;
  trace?: boolean;
  traceFile?: string;
  strict?: boolean;
  timeout?: number;
  replay?: string;
  scope?: string;
}

/** memctl's default context budget, in tokens (recall's own default is 1500). */
const LOOP_BUDGET = 2200;

/** Adds memctl's loop flags (and `--replay` when `replay`) to `command`. */
export function addLoopOptions(command: Command, { replay }: { replay: boolean }): Command {
  command
    .option('--llm <cmd>', 'the model: a shell command ("claude -p", "ollama run llama3"), openai:MODEL[@BASE_URL] or ollama:MODEL[@URL]')
    .addOption(enumOption(command, '--llm-mode <mode>', 'how a shell command gets the prompt: on stdin, or as a file path argument (default stdin)', ['stdin', 'file']))
    .addOption(enumOption(command, '--protocol <protocol>', 'what the model\'s reply holds besides the answer (default json)', ['json', 'regex', 'passive']))
    .option('--system-prompt <text-or-file>', 'added after the protocol\'s system text: the text, or the content of the file it names')
    .addOption(intOption(command, '--max-calls <n>', 'most model calls (default 3)', 1))
    .addOption(numberOption(command, '--threshold <x>', 'answer similarity that counts as a stable step (default 0.92)', 0, 1))
    .addOption(numberOption(command, '--query-threshold <x>', 'similarity at which a proposed query repeats one already run (default 0.90)', 0, 1))
    .addOption(intOption(command, '--stable-steps <n>', 'stable steps in a row that end the loop (fixed_point, default 2)', 1))
    .option('--no-stop-on-no-new', 'go on when a follow-up recall brings no new item')
    .addOption(intOption(command, '--budget <tokens>', `token budget of each recall's block (default ${LOOP_BUDGET}, ENGRAM_BUDGET)`, 1))
    .option('--scope <scope>', 'recall only items of this scope')
    .option('--trace', 'the JSONL trace on stderr (status lines are then left out)')
    .option('--trace-file <path>', 'write the JSONL trace to this file (replay it with --replay)')
    .option('--strict', 'exit 1 when --max-calls ends the loop, and fail on a reply that does not follow the protocol')
    .addOption(numberOption(command, '--timeout <seconds>', 'per model call (default 300)', 0.001, 86_400));
  if (replay) command.option('--replay <file>', 'replay a trace: the recorded answer, with no model call and no store');
  return command;
}

/** The `--llm` given; PARAM_ERROR without one (checked before anything is read). */
export function requireLlm(flags: LoopFlags): string {
  if (flags.llm !== undefined) return flags.llm;
  throw new EngramError('PARAM_ERROR', 'The loop needs a model: --llm', {
    hint: 'Give --llm "claude -p", --llm ollama:MODEL or --llm openai:MODEL (engram loop: or --replay FILE to replay a trace).',
  });
}

/** The largest `--system-prompt` file read (the setting itself takes 100,000 characters). */
const SYSTEM_PROMPT_FILE_BYTES = 1024 * 1024;

/**
 * `--system-prompt`: the content of the file it names, else the text itself (`chat` reads it
 * too). A value that looks like a path (one line starting with `/`, `./`, `../` or `~/`, or a `/`
 * and no space), or that names a directory or device, is one: PARAM_ERROR unless it names a
 * regular file (of at most {@link SYSTEM_PROMPT_FILE_BYTES}), rather than a path sent to the
 * model as its prompt.
 */
export async function systemPrompt(ctx: CliContext, value: string | undefined): Promise<string | undefined> {
  if (value === undefined) return undefined;
  const path = resolve(ctx.cwd, value);
  let stat: ReturnType<typeof statSync> | undefined;
  try {
    stat = statSync(path);
  } catch {
    stat = undefined;
  }
  const looksLikePath = !value.includes('\n') && (/^(?:~|\.{1,2})?\//.test(value) || (value.includes('/') && !/\s/.test(value)));
  const refuse = (why: string) => new EngramError('PARAM_ERROR', `--system-prompt ${value}: ${why}`, {
    hint: 'Give the path of a readable text file, or the system prompt\'s text itself.',
    details: { path: value },
  });
  if (stat === undefined) {
    if (looksLikePath) throw refuse('no such file');
    return value;
  }
  if (!stat.isFile()) throw refuse('not a regular file');
  if (stat.size > SYSTEM_PROMPT_FILE_BYTES) throw refuse(`over ${SYSTEM_PROMPT_FILE_BYTES / (1024 * 1024)} MiB`);
  return readFileOrStdin(path, ctx);
}

/** How every trace begins: its start event's first key. */
const TRACE_HEAD = '{"event":"start"';

/**
 * `--trace-file`'s target: no file yet, an empty one, or an earlier trace. Anything else (the
 * store itself, its -wal or -shm, any other file) is refused before anything is written.
 */
function checkTraceTarget(path: string, given: string): void {
  const refuse = (why: string, cause?: unknown) => new EngramError('PARAM_ERROR', `Refusing to write the trace over ${given}: ${why}`, {
    hint: 'Give --trace-file a new path (an earlier trace may be replaced).',
    details: { path: given },
    cause,
  });
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw refuse(`it cannot be read (${code ?? 'error'})`, error);
  }
  try {
    if (!fstatSync(fd).isFile()) throw refuse('it is not a regular file');
    const head = Buffer.alloc(TRACE_HEAD.length);
    const read = readSync(fd, head, 0, head.length, 0);
    if (read > 0 && head.subarray(0, read).toString('utf8') !== TRACE_HEAD) throw refuse('it is not a loop trace');
  } finally {
    closeSync(fd);
  }
}

/**
 * The trace's writers: stderr with `--trace`, a file with `--trace-file`. The file is written as
 * events come to a temporary file beside it, renamed over the target when the run ends: the
 * target is never left half-written, and only an earlier trace is ever replaced.
 */
function traceWriters(ctx: CliContext, flags: LoopFlags): { onEvent: (event: TraceEvent) => void; close: () => void } {
  let fd: number | undefined;
  let target: string | undefined;
  let temp: string | undefined;
  if (flags.traceFile !== undefined) {
    target = resolve(ctx.cwd, flags.traceFile);
    checkTraceTarget(target, flags.traceFile);
    temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
    try {
      fd = openSync(temp, 'wx', 0o600);
    } catch (error) {
      throw new EngramError('PARAM_ERROR', `Cannot write the trace file ${flags.traceFile} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, {
        hint: 'Check the path and permissions.',
        details: { path: flags.traceFile },
        cause: error,
      });
    }
  }
  return {
    onEvent: (event) => {
      const line = JSON.stringify(event);
      if (fd !== undefined) writeSync(fd, `${line}\n`);
      if (flags.trace === true) ctx.stderr.write(`${line}\n`);
      if (event.event === 'llm') ctx.progress(`loop: call ${event.call} answered in ${event.ms} ms`);
    },
    close: () => {
      ctx.progress('');
      if (fd === undefined || temp === undefined || target === undefined) return;
      closeSync(fd);
      try {
        // Checked again: the run may have made it (the store's -wal, say) since the start.
        checkTraceTarget(target, flags.traceFile ?? target);
      } catch {
        ctx.warn(`${flags.traceFile ?? target} is no longer a trace or a new file: the trace is left in ${temp}`);
        return;
      }
      renameSync(temp, target);
    },
  };
}

const calls = (count: number) => `${count} call${count === 1 ? '' : 's'}`;

/** The answer on stdout (`--json`: the result); exit 1 under `--strict` when max_calls ended it. */
function answerOutput(ctx: CliContext, result: LoopResult, flags: LoopFlags, strict: boolean): CommandOutput {
  const cut = strict && result.stop_reason === 'max_calls';
  if (flags.trace !== true) {
    ctx.info(`loop: ${result.stop_reason} after ${calls(result.calls)}, ${result.sources.length} memor${result.sources.length === 1 ? 'y' : 'ies'} given`);
  }
  if (cut) ctx.warn(`the loop reached its ${calls(result.calls)} without converging (--strict)`);
  if (result.stop_reason === 'unparsed_reply') ctx.warn('the model\'s reply did not follow the protocol: its whole text is the answer');
  return { kind: 'block', text: `${result.answer}\n`, data: { ...result }, exitCode: cut ? 1 : 0 };
}

/**
 * Runs the loop for `question`: the initial context is `context` when not blank, else the recall
 * of the question. The store opens on the first recall only (a piped context and a passive
 * model need none).
 */
export async function runLoopCli(
  ctx: CliContext,
  question: string,
  flags: LoopFlags,
  context?: string,
): Promise<CommandOutput> {
  const llm = requireLlm(flags);
  const [{ createLlmProvider }, { loopSettings, recallFrom }, { runLoop }] = await Promise.all([
    import('../llm/create-provider.js'), import('../loop/memory-loop.js'), import('../loop/controller.js'),
  ]);
  const settings = loopSettings({
    protocol: flags.protocol,
    max_calls: flags.maxCalls,
    threshold: flags.threshold,
    query_threshold: flags.queryThreshold,
    stable_steps: flags.stableSteps,
    stop_on_no_new: flags.stopOnNoNew,
    budget: ctx.settings.budget(flags.budget) ?? LOOP_BUDGET,
    strict: flags.strict === true,
    timeout_ms: flags.timeout === undefined ? undefined : Math.max(1, Math.round(flags.timeout * 1000)),
    system_prompt: await systemPrompt(ctx, flags.systemPrompt),
  });
  const provider = createLlmProvider(llm, { mode: flags.llmMode, env: ctx.settings.llmEnv() });
  let recall: ReturnType<typeof recallFrom> | undefined;
  const trace = traceWriters(ctx, flags);
  try {
    const result = await runLoop({ question, context }, settings, {
      provider,
      recall: async (query, options) => {
        recall ??= recallFrom(await ctx.open(), flags.scope === undefined ? {} : { scope: flags.scope });
        return recall(query, options);
      },
      onEvent: trace.onEvent,
    });
    return answerOutput(ctx, result, flags, settings.strict);
  } finally {
    trace.close();
  }
}

/** The loop flags a replay does not use (it runs with the trace's settings, no model, no store). */
function ignoredByReplay(flags: LoopFlags): string[] {
  const given: [string, unknown][] = [
    ['--llm', flags.llm], ['--llm-mode', flags.llmMode], ['--protocol', flags.protocol], ['--system-prompt', flags.systemPrompt],
    ['--max-calls', flags.maxCalls], ['--threshold', flags.threshold], ['--query-threshold', flags.queryThreshold],
    ['--stable-steps', flags.stableSteps], ['--no-stop-on-no-new', flags.stopOnNoNew ? undefined : true],
    ['--budget', flags.budget], ['--strict', flags.strict], ['--timeout', flags.timeout], ['--scope', flags.scope],
  ];
  return given.filter(([, value]) => value !== undefined).map(([name]) => name);
}

/** `--replay FILE`: the recorded run's answer again, with no model, no process and no store. */
export async function replayLoopCli(
  ctx: CliContext,
  question: string | undefined,
  flags: LoopFlags,
): Promise<CommandOutput> {
  if (flags.traceFile !== undefined) {
    throw new EngramError('PARAM_ERROR', '--replay reads a trace; --trace-file would write one', {
      hint: 'Leave out --trace-file (--trace shows the replayed events on stderr).',
    });
  }
  const ignored = ignoredByReplay(flags);
  if (ignored.length > 0) ctx.warn(`--replay uses the recorded settings and replies: ${ignored.join(', ')} ignored`);
  const file = flags.replay as string;
  const text = await readFileOrStdin(file === '-' ? file : resolve(ctx.cwd, file), ctx);
  const { parseTrace, replayLoop } = await import('../loop/replay.js');
  const events = parseTrace(text);
  const start = events.find((e) => e.event === 'start');
  if (question !== undefined && start?.event === 'start' && start.question !== question) {
    throw new EngramError('PARAM_ERROR', `The trace answers another question: "${start.question}"`, {
      hint: 'Give the recorded question, or none.',
    });
  }
  const trace = traceWriters(ctx, flags);
  try {
    const result = await replayLoop(events, { onEvent: trace.onEvent });
    return answerOutput(ctx, result, flags, start?.event === 'start' && start.settings.strict === true);
  } finally {
    trace.close();
  }
}

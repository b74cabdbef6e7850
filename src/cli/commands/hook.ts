/**
 * `engram hook EVENT`: what an agent client runs on its session events (installed by `engram
 * setup`). It reads the client's hook JSON on stdin (Claude Code's and Codex's share the fields
 * used here: `session_id`, `transcript_path`, `cwd`, `prompt`) and answers in their hook protocol:
 * - `session-start`: the session brief (as `engram brief` prints it) as `additionalContext`;
 * - `prompt-submit`: recall for the prompt, in a small budget, as `additionalContext`;
 * - `stop`, `pre-compact`, `session-end`: the transcript captured (`engram capture`), no output.
 *
 * A hook never blocks nor breaks the agent. On any error, bad input, a missing store or its time
 * bound ({@link HOOK_BOUNDS_MS}) passing, it exits 0 with nothing on stdout, which both clients
 * read as "nothing to add", and the error goes to `hook.log` in the store's directory.
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { TRANSCRIPT_FORMATS } from '../../capture/transcript.js';
import { HOOK_BOUNDS_MS, HOOK_EVENTS, type HookEvent } from '../../setup/hook-events.js';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../example-text.js';
import { MAX_HOOK_PAYLOAD_BYTES } from '../input-limits.js';
import { readStdinBytes } from '../read-input.js';
import type { Runner } from '../runner.js';

const CAPTURE_FORMATS = ['auto', ...TRANSCRIPT_FORMATS] as const;

/** The prompt hook's default budget in tokens: it runs on every prompt. */
const PROMPT_BUDGET = 400;
/** `hook.log` is moved to `hook.log.1` past this size. */
const MAX_LOG_BYTES = 1024 * 1024;

/** The fields of the client's hook JSON that engram reads. */
export interface HookPayload {
  session_id?: string;
  transcript_path?: string;
  cwd?: string;
  prompt?: string;
}

/** Flags are read leniently: a bad value is logged and left out, never a usage error. */
export interface HookFlags {
  budget?: string;
  format?: string;
}

/** The budget flag as a whole number ≥ 1; undefined (the default) otherwise. */
function budgetOf(value: string | undefined): number | undefined {
  const budget = Number(value);
  return value !== undefined && Number.isInteger(budget) && budget >= 1 && budget <= 1_000_000 ? budget : undefined;
}

const CLIENT_EVENT: Partial<Record<HookEvent, string>> = {
  'session-start': 'SessionStart',
  'prompt-submit': 'UserPromptSubmit',
};

export function configure(command: Command, run: Runner): void {
  command
    // No usage error may come out of a hook (Claude Code reads exit 2 from Stop as "keep going"):
    // an unknown event or flag is logged and answered with nothing, like any other failure.
    .argument('[event]', `the session event: ${HOOK_EVENTS.join(', ')}`)
    .allowUnknownOption()
    .allowExcessArguments()
    .option('--budget <tokens>', 'token budget of the context given (default: 600 at session start, 400 per prompt)')
    .option('--format <format>', 'transcript format for the capture events: auto, claude-code, codex, opencode')
    .addHelpText('after', exampleText(
      'echo \'{"session_id":"s1","cwd":"."}\' | engram hook session-start',
      'engram setup claude-code   # installs these hooks',
    ))
    .action(run(hookCommand));
}

/** The payload; undefined when stdin is a terminal, empty or not a JSON object. */
export function parsePayload(text: string): HookPayload | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: HookPayload = {};
  for (const key of ['session_id', 'transcript_path', 'cwd', 'prompt'] as const) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'string') out[key] = field;
  }
  return out;
}

/** The client's answer: the context to add, in the hook protocol; '' for nothing. */
export function hookAnswer(event: HookEvent, context: string): string {
  const name = CLIENT_EVENT[event];
  if (name === undefined || context === '') return '';
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: name, additionalContext: context } })}\n`;
}

/** Appends the error to `hook.log` beside the store; best effort, never throws. */
export function logHookError(settings: CliContext['settings'], event: string, error: unknown): void {
  try {
    const file = join(dirname(settings.store().path), 'hook.log');
    mkdirSync(dirname(file), { recursive: true });
    try {
      if (statSync(file).size > MAX_LOG_BYTES) renameSync(file, `${file}.1`);
    } catch {
      // No log yet.
    }
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    appendFileSync(file, `${new Date().toISOString()} ${event} ${message.replace(/\s+/g, ' ')}\n`);
  } catch {
    // The log is best effort: a hook must not fail because its log cannot be written.
  }
}

async function answer(ctx: CliContext, event: HookEvent, payload: HookPayload, flags: HookFlags): Promise<string> {
  if (event === 'session-start' || event === 'prompt-submit') {
    if (!ctx.settings.store().exists) return '';
    const engram = await ctx.open();
    if (event === 'session-start') return hookAnswer(event, (await engram.brief({ budget: budgetOf(flags.budget) })).inject_text);
    const prompt = payload.prompt?.trim() ?? '';
    if (prompt === '') return '';
    const budget = budgetOf(flags.budget) ?? PROMPT_BUDGET;
    return hookAnswer(event, (await engram.recall({ query: prompt.slice(0, 10_000), budget })).inject_text);
  }
  // stop, pre-compact, session-end: capture what the session has said so far (idempotent).
  if (payload.transcript_path === undefined || payload.transcript_path === '') return '';
  const format = CAPTURE_FORMATS.find((f) => f === flags.format) ?? 'auto';
  const engram = await ctx.open({ write: true, auto: false });
  await engram.capture({ file: payload.transcript_path, format, cwd: payload.cwd });
  return '';
}

export async function hookCommand(ctx: CliContext, name: string | undefined, flags: HookFlags): Promise<CommandOutput> {
  if (name === undefined || !(HOOK_EVENTS as readonly string[]).includes(name)) {
    logHookError(ctx.settings, String(name), new Error(`unknown hook event ${JSON.stringify(name ?? '')}`));
    return { kind: 'block', text: '', data: {} };
  }
  const event = name as HookEvent;
  let timer: NodeJS.Timeout | undefined;
  const bound = HOOK_BOUNDS_MS[event];
  // Past the bound the process ends at once, whatever still runs: a transaction in flight is rolled
  // back by SQLite, and the agent is not kept waiting.
  const hardStop = setTimeout(() => {
    logHookError(ctx.settings, event, new Error(`gave up after ${bound} ms`));
    ctx.exit(0);
  }, bound + 1000);
  hardStop.unref();
  try {
    // The bound counts from the start: a client that keeps stdin open waits no longer for it.
    const deadline = new Promise<string>((resolve) => {
      timer = setTimeout(() => {
        logHookError(ctx.settings, event, new Error(`gave up after ${bound} ms`));
        resolve('');
      }, bound);
    });
    const work = (async () => {
      const tty = ctx.stdin.isTTY === true;
      const bytes = tty ? Buffer.alloc(0) : await readStdinBytes(ctx.stdin, MAX_HOOK_PAYLOAD_BYTES);
      const payload = parsePayload(bytes.toString('utf8'));
      if (payload === undefined) throw new Error('the hook input on stdin is not a JSON object');
      return answer(ctx, event, payload, flags);
    })().catch((error: unknown) => {
      logHookError(ctx.settings, event, error);
      return '';
    });
    // Work done in time ends the hard stop: a process that lives on (`engram daemon`) would
    // otherwise log a give-up for a hook that answered.
    void work.then(() => clearTimeout(hardStop));
    const text = await Promise.race([work, deadline]);
    return { kind: 'block', text, data: {} };
  } catch (error) {
    logHookError(ctx.settings, event, error);
    return { kind: 'block', text: '', data: {} };
  } finally {
    clearTimeout(timer);
  }
}

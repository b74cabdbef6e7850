/**
 * An LLM that is a shell command (`--llm "claude -p"`, `--llm "ollama run llama3"`), run by
 * `/bin/sh -c` in a process group of its own. The system text, a blank line and the prompt go to
 * it on stdin (`stdin` mode), or in a temporary file (mode 0600) whose path is appended as the last
 * argument (`file` mode; stdin is then empty), removed when the call ends. Its stdout is the reply.
 *
 * Never a hang: past the timeout the whole group is killed (the shell and whatever it started)
 * and the call fails with LLM_TIMEOUT; when the command ends, what it left running in its group is
 * killed too. A command that stops reading its stdin is no error (EPIPE ignored); one that prints
 * more than {@link MAX_REPLY_BYTES} is stopped (LLM_ERROR). A missing command (exit 127), one that
 * cannot run (126) and any other non-zero exit fail with LLM_ERROR, the tail of the command's
 * stderr in the message.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngramError } from '../errors.js';
import { MAX_TIMER_MS } from '../util/time.js';
import { type LlmMode, type LlmProvider, type LlmRequest, MAX_REPLY_BYTES } from './provider.js';
import { killGroup, trackGroup, trackTempDir } from './process-groups.js';
import { requestText } from './request-text.js';

export { MAX_REPLY_BYTES };
/** The characters of the command's stderr quoted in an error (its end). */
const STDERR_TAIL_CHARS = 500;

export interface ShellProviderOptions {
  /** The command line, run by `/bin/sh -c`. */
  command: string;
  mode: LlmMode;
  /** The environment the command runs in. */
  env: Readonly<Record<string, string | undefined>>;
  /** Where `file` mode writes its temporary file (default: the system's temporary directory). */
  tmpDir?: string;
}

/** How the command ended. */
type Ending
  = | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null }
    | { kind: 'timeout' }
    | { kind: 'aborted' }
    | { kind: 'too-long' }
    | { kind: 'spawn-error'; error: Error };

/**
 * A provider running `command` once per call.
 *
 * @example
 * const llm = createShellProvider({ command: 'claude -p', mode: 'stdin', env: process.env });
 * const reply = await llm.complete({ system, prompt, timeoutMs: 300_000 });
 */
export function createShellProvider(options: ShellProviderOptions): LlmProvider {
  const { command, mode, env, tmpDir = tmpdir() } = options;
  return Object.freeze({
    label: command,
    async complete(request: LlmRequest): Promise<string> {
      if (request.signal?.aborted === true) throw failure(command, { kind: 'aborted' }, '', request.timeoutMs);
      const input = requestText(request);
      if (mode === 'stdin') return run(command, [], input, env, request);
      const dir = await mkdtemp(join(tmpDir, 'engram-llm-'));
      const removeDir = trackTempDir(dir);
      try {
        const file = join(dir, 'prompt.txt');
        await writeFile(file, input, { mode: 0o600 });
        return await run(command, [file], undefined, env, request);
      } finally {
        removeDir();
      }
    },
  });
}

function run(
  command: string,
  args: readonly string[],
  input: string | undefined,
  env: ShellProviderOptions['env'],
  request: LlmRequest,
): Promise<string> {
  return new Promise((resolve, reject) => {
    // `"$@"` appends the arguments (the prompt file) to the user's command line, unquoted by us.
    const script = args.length === 0 ? command : `${command} "$@"`;
    const child = spawn('/bin/sh', ['-c', script, 'engram-llm', ...args], {
      detached: true,
      env: { ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const release = trackGroup(child.pid);
    const chunks: Buffer[] = [];
    let replyBytes = 0;
    let stderr = '';
    let settled = false;

    const finish = (ending: Ending): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      // After a normal end the group went at the exit (below); otherwise it goes now.
      release(ending.kind !== 'exit');
      child.stdin?.destroy();
      child.stdout?.destroy();
      child.stderr?.destroy();
      if (ending.kind === 'exit' && ending.code === 0 && ending.signal === null) resolve(Buffer.concat(chunks).toString('utf8'));
      else reject(failure(command, ending, stderr, request.timeoutMs));
    };
    const onAbort = (): void => finish({ kind: 'aborted' });
    const timer = setTimeout(() => finish({ kind: 'timeout' }), Math.min(request.timeoutMs, MAX_TIMER_MS));
    request.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (error) => finish({ kind: 'spawn-error', error }));
    child.stdout?.on('data', (chunk: Buffer) => {
      replyBytes += chunk.length;
      if (replyBytes > MAX_REPLY_BYTES) finish({ kind: 'too-long' });
      else chunks.push(chunk);
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      stderr = (stderr + text).slice(-4 * STDERR_TAIL_CHARS);
    });
    // What the command left running in its group would hold the pipes open: it goes with it.
    child.on('exit', () => killGroup(child.pid));
    // 'close' waits for stdout and stderr to end as well as for the exit: the whole reply is in.
    child.on('close', (code, signal) => finish({ kind: 'exit', code, signal }));
    if (child.stdin !== null) {
      // A command that exits without reading its input closes the pipe: EPIPE, which is no error.
      child.stdin.on('error', () => {});
      child.stdin.end(input);
    }
  });
}

/** The end of the command's stderr for a message: one line, its line breaks shown as ` | `. */
function stderrTail(stderr: string): string {
  const text = stderr.trim();
  if (text === '') return '';
  const tail = text.length > STDERR_TAIL_CHARS ? `…${text.slice(-STDERR_TAIL_CHARS)}` : text;
  return `: ${tail.replace(/\s*[\r\n]+\s*/g, ' | ')}`;
}

const RUN_BY_HAND = 'Run the command by hand with a short prompt on its stdin to see what it does.';

function failure(command: string, ending: Ending, stderr: string, timeoutMs: number): EngramError {
  const name = `LLM command '${command}'`;
  switch (ending.kind) {
    case 'timeout':
      return new EngramError('LLM_TIMEOUT', `${name} gave no answer within ${timeoutMs / 1000} s; it was stopped`, {
        hint: 'Give the model more time, or check that the command answers when run by hand.',
        details: { command, timeout_ms: timeoutMs },
      });
    case 'aborted':
      return new EngramError('LLM_ERROR', `${name} was stopped: the caller no longer waits for it`, { details: { command } });
    case 'too-long':
      return new EngramError('LLM_ERROR', `${name} printed more than ${MAX_REPLY_BYTES / (1024 * 1024)} MiB; it was stopped`, {
        hint: 'Check that the command prints its answer only (not a stream of progress) on stdout.',
        details: { command },
      });
    case 'spawn-error':
      return new EngramError('LLM_ERROR', `${name} could not be started: ${ending.error.message}`, {
        hint: 'engram runs the command with /bin/sh -c; check that /bin/sh exists.',
        details: { command },
        cause: ending.error,
      });
    case 'exit':
      break;
  }
  const details = { command, exit_code: ending.code, stderr_tail: stderr.trim().slice(-STDERR_TAIL_CHARS) };
  if (ending.code === 127) {
    return new EngramError('LLM_ERROR', `${name} was not found (exit 127)${stderrTail(stderr)}`, {
      hint: 'Check that the program is installed and on PATH, or give its full path.',
      details,
    });
  }
  if (ending.code === 126) {
    return new EngramError('LLM_ERROR', `${name} could not run (exit 126)${stderrTail(stderr)}`, {
      hint: 'Check that the program is executable (chmod +x) and not a directory.',
      details,
    });
  }
  const how = ending.code === null ? `was killed by ${ending.signal ?? 'a signal'}` : `exited with code ${ending.code}`;
  return new EngramError('LLM_ERROR', `${name} ${how}${stderrTail(stderr)}`, { hint: RUN_BY_HAND, details });
}

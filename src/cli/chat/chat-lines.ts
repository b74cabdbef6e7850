/**
 * Where a chat session's lines come from and its answers go. On a terminal (stdin and stderr both
 * one): node:readline with a prompt and line editing on stderr, the session's history under the
 * arrow keys, Ctrl-C stopping the answer being prepared (or, at the prompt, ending the session) and
 * Ctrl-D ending it. Otherwise the questions are read line by line, without prompt or echo. Either
 * way each answer is yielded (for stdout) as soon as it is ready, followed by a blank line.
 */
import { createInterface } from 'node:readline';
import type { ChatSession } from './session.js';

export interface ChatIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Where the prompt and the line being typed are drawn (a terminal's). */
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** A transient progress line on a terminal ('' clears it). */
  progress(message: string): void;
}

/** The lines the arrow keys go back through. */
const HISTORY_SIZE = 1_000;
const PROMPT = '> ';

/** True when the session is typed by a person at a terminal. */
export function isInteractive(io: Pick<ChatIo, 'stdin' | 'stderr'>): boolean {
  return io.stdin.isTTY === true && io.stderr.isTTY === true;
}

/**
 * Runs `session` over the lines of `io.stdin`, yielding what goes to stdout (each answer, the
 * output of /help and /sources) as it comes. Ends at /quit or at the end of the input.
 *
 * @example
 * return { kind: 'lines', live: true, lines: chatLines(session, { stdin, stderr, progress }) };
 */
export async function* chatLines(session: ChatSession, io: ChatIo): AsyncGenerator<string> {
  const interactive = isInteractive(io);
  const rl = createInterface({
    input: io.stdin,
    ...(interactive
      ? { output: io.stderr, terminal: true, prompt: PROMPT, historySize: HISTORY_SIZE }
      : { terminal: false }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let answering: AbortController | undefined;
  // Raw mode turns Ctrl-C into this event instead of a signal.
  rl.on('SIGINT', () => {
    if (answering === undefined) rl.close();
    else answering.abort();
  });
  const lines = rl[Symbol.asyncIterator]();
  try {
    for (;;) {
      if (interactive) rl.prompt();
      const next = await lines.next();
      if (next.done === true) break;
      answering = new AbortController();
      if (interactive && next.value.trim() !== '' && !next.value.trim().startsWith('/')) io.progress('thinking…');
      const reply = await session.handle(next.value, answering.signal).finally(() => {
        answering = undefined;
        if (interactive) io.progress('');
      });
      if (reply.text !== undefined) yield `${reply.text.trimEnd()}\n`;
      if (reply.quit === true) break;
    }
  } finally {
    rl.close();
    // The shell's prompt starts on a line of its own after the session's.
    if (interactive) io.stderr.write('\n');
  }
}

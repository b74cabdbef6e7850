/**
 * The only writer to stdout in engram. JSON for agents (the default when stdout is not a
 * terminal), readable text for people; errors and warnings go to stderr.
 */
import { EngramError } from '../errors.js';
import type { CommandOutput } from './context.js';

export type OutputFormat = 'json' | 'text';

export interface Output {
  readonly format: OutputFormat;
  write(output: CommandOutput): Promise<void>;
  error(error: EngramError, verbose: boolean): void;
  warn(message: string): void;
  info(message: string): void;
  progress(message: string): void;
}

export interface OutputOptions {
  format: OutputFormat;
  /** True when the format was asked for (flag or ENGRAM_FORMAT), not inferred from the terminal. */
  explicit: boolean;
  quiet: boolean;
  color: boolean;
  stdout: OutputStream;
  stderr: OutputStream;
}

/** A stream the output writes to (a terminal tells by `isTTY`). */
export type OutputStream = NodeJS.WritableStream & { isTTY?: boolean };

/** A failed write to stdout, named: a closed or read-only descriptor (EBADF), a full disk (ENOSPC)… */
function writeFailure(error: Error): EngramError {
  const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
  return new EngramError('GENERAL_ERROR', `Cannot write to standard output (${code})`, {
    hint: 'Send standard output somewhere writable: a file on a disk with room, a pipe, a terminal.',
    cause: error,
  });
}

function writeChunk(stream: OutputStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    try {
      stream.write(text, (error) => (error ? reject(writeFailure(error)) : resolve()));
    } catch (error) {
      reject(writeFailure(error as Error));
    }
  });
}

/** A failure's cause for `--verbose`: its stack when it has one. */
function causeText(cause: unknown): string {
  const stack = typeof cause === 'object' && cause !== null && 'stack' in cause ? cause.stack : undefined;
  return String(stack ?? cause);
}

/** The policy rules an error lists (`details.rules` of POLICY_REJECTED), one per line. */
function ruleLines(rules: unknown): string {
  if (!Array.isArray(rules)) return '';
  return rules.map((r: { rule?: unknown; excerpt?: unknown }) => `\n  ${String(r.rule)}: ${String(r.excerpt)}`).join('');
}

/** Creates the output for one CLI run. */
export function createOutput(options: OutputOptions): Output {
  const { stdout, stderr } = options;
  return {
    format: options.format,
    async write(output) {
      if (output.kind === 'lines' && output.live === true) {
        for await (const line of output.lines) await writeChunk(stdout, `${line}\n`);
        return;
      }
      if (output.kind === 'lines') {
        let buffer = '';
        for await (const line of output.lines) {
          buffer += `${line}\n`;
          if (buffer.length >= 65536) {
            await writeChunk(stdout, buffer);
            buffer = '';
          }
        }
        if (buffer !== '') await writeChunk(stdout, buffer);
        return;
      }
      if (output.kind === 'block' && !(options.explicit && options.format === 'json')) {
        if (output.text !== '') await writeChunk(stdout, output.text);
        return;
      }
      if (options.format === 'json') {
        await writeChunk(stdout, `${JSON.stringify({ ok: true, ...output.data })}\n`);
        return;
      }
      if (output.kind === 'block') return;
      // The text views load only for text: JSON for agents, the common case, skips them.
      const [{ palette }, { renderView }] = await Promise.all([import('./views/palette.js'), import('./views/index.js')]);
      await writeChunk(stdout, `${renderView(output, await palette(options.color))}\n`);
    },
    error(error, verbose) {
      if (options.format === 'json') {
        const payload: Record<string, unknown> = { ...error.toJSON() };
        if (verbose && error.cause !== undefined) payload.cause = causeText(error.cause);
        stderr.write(`${JSON.stringify(payload)}\n`);
        return;
      }
      const hint = `${ruleLines(error.details.rules)}${error.hint === undefined ? '' : `\n  hint: ${error.hint}`}`;
      const cause = verbose && error.cause !== undefined ? `\n${causeText(error.cause)}` : '';
      stderr.write(`engram: error[${error.code}]: ${error.message}${hint}${cause}\n`);
    },
    warn(message) {
      if (!options.quiet) stderr.write(`engram: warning: ${message}\n`);
    },
    info(message) {
      if (!options.quiet) stderr.write(`engram: ${message}\n`);
    },
    progress(message) {
      if (!options.quiet && stderr.isTTY === true) stderr.write(`\r\x1b[2K${message}`);
    },
  };
}

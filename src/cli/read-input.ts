/**
 * Reads command input from a flag, a file, or standard input (`-` or piped). Standard input is
 * read up to a bound ({@link MAX_STDIN_BYTES}; ingest's own bound is its file limit) and reading
 * stops with PARAM_ERROR past it, instead of holding unbounded input. Text from a file or stdin
 * is decoded before anything reads it (UTF-8, UTF-16 with or without a BOM; util/text-bytes.ts);
 * binary input is refused with PARAM_ERROR.
 */
import { readFileSync, statSync } from 'node:fs';
import { EngramError } from '../errors.js';
import { decodeTextBytes } from '../util/text-bytes.js';
import type { CliContext } from './context.js';

import { MAX_STDIN_BYTES } from './input-limits.js';

export { MAX_STDIN_BYTES };

const mebibytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

function tooLarge(what: string, limit: number): EngramError {
  return new EngramError('PARAM_ERROR', `${what} is larger than ${mebibytes(limit)}`, {
    hint: 'Give a smaller input; long documents go in with `engram ingest FILE` (it chunks them).',
    details: { limit_bytes: limit },
  });
}

/**
 * Standard input as bytes, at most `limit` of them (ingest decodes and hashes them itself);
 * PARAM_ERROR as soon as more arrive.
 */
export async function readStdinBytes(stdin: CliContext['stdin'], limit = MAX_STDIN_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += bytes.length;
    if (total > limit) throw tooLarge('Standard input', limit);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** Bytes decoded as text; PARAM_ERROR for binary input. */
export function decodeInput(bytes: Uint8Array, what: string): string {
  const decoded = decodeTextBytes(bytes);
  if ('binary' in decoded) {
    throw new EngramError('PARAM_ERROR', `${what} is binary, not text (${decoded.binary})`, {
      hint: 'Give text: UTF-8, or UTF-16 with or without a byte order mark.',
      details: { reason: 'binary', detail: decoded.binary },
    });
  }
  return decoded.text;
}

/** All of standard input as text (decoded; at most {@link MAX_STDIN_BYTES}). */
export async function readStdin(stdin: CliContext['stdin']): Promise<string> {
  return decodeInput(await readStdinBytes(stdin), 'Standard input');
}

/** A file's text (decoded; at most {@link MAX_STDIN_BYTES}); `-` means standard input. */
export async function readFileOrStdin(path: string, ctx: CliContext): Promise<string> {
  if (path === '-') return readStdin(ctx.stdin);
  let bytes: Buffer;
  try {
    const stats = statSync(path);
    if (stats.size > MAX_STDIN_BYTES) throw tooLarge(`File ${path}`, MAX_STDIN_BYTES);
    // A regular file is read at once (node:fs/promises took milliseconds to load in every process
    // that could read a file). Anything else (a FIFO, a device) may wait for its writer: read it
    // without holding the thread, so that a daemon still answers `daemon status`, `stop` and its
    // signals meanwhile.
    bytes = stats.isFile() ? readFileSync(path) : await (await import('node:fs/promises')).readFile(path);
  } catch (error) {
    if (error instanceof EngramError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new EngramError('PARAM_ERROR', `Cannot read file ${path} (${code ?? 'error'})`, {
      hint: code === 'ENOENT' ? 'Check the path.' : 'Check the path and permissions.',
      details: { path },
      cause: error,
    });
  }
  return decodeInput(bytes, `File ${path}`);
}

/** `echo x` and most files end in one newline that is not part of the memory. */
function dropFinalNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}

export interface ContentSources {
  content?: string | undefined;
  file?: string | undefined;
  dash?: boolean;
}

/**
 * Content from exactly one of `--content`, `--file PATH` or stdin (`-`, or piped when no other
 * source is given).
 */
export async function readContent(sources: ContentSources, ctx: CliContext): Promise<string> {
  const given = [sources.content !== undefined, sources.file !== undefined, sources.dash === true];
  if (given.filter(Boolean).length > 1) {
    throw new EngramError('PARAM_ERROR', 'Give content only once: --content, --file or stdin (-)', {
      hint: 'Pick one content source.',
    });
  }
  if (sources.content !== undefined) return sources.content;
  if (sources.file !== undefined) return dropFinalNewline(await readFileOrStdin(sources.file, ctx));
  if (sources.dash === true || ctx.stdin.isTTY !== true)
    return dropFinalNewline(await readStdin(ctx.stdin));
  throw new EngramError('PARAM_ERROR', 'No content given', {
    hint: 'Use --content TEXT, --file PATH, or pipe it: echo \'note\' | engram put',
  });
}

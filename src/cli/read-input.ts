/** Reads command input from a flag, a file, or standard input (`-` or piped). */
import { readFile } from 'node:fs/promises';
import { EngramError } from '../errors.js';
import type { CliContext } from './context.js';

/** All of standard input as bytes (ingest decodes and hashes them itself). */
export async function readStdinBytes(stdin: CliContext['stdin']): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** All of standard input as UTF-8 text. */
export async function readStdin(stdin: CliContext['stdin']): Promise<string> {
  return (await readStdinBytes(stdin)).toString('utf8');
}

/** A file's text; `-` means standard input. */
export async function readFileOrStdin(path: string, ctx: CliContext): Promise<string> {
  if (path === '-') return readStdin(ctx.stdin);
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new EngramError('PARAM_ERROR', `Cannot read file ${path} (${code ?? 'error'})`, {
      hint: code === 'ENOENT' ? 'Check the path.' : 'Check the path and permissions.',
      details: { path },
      cause: error,
    });
  }
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

/**
 * `.engram/config.json`: per-store settings written by `init`. Read only by entry points, sitting
 * between environment variables and defaults in the precedence order.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { EngramError } from '../errors.js';
import { FTS_TOKENIZER_NAMES } from './fts-tokenizer.js';

export const projectConfigSchema = z.object({
  fts_tokenizer: z.enum(FTS_TOKENIZER_NAMES).optional(),
});

export type ProjectConfig = z.output<typeof projectConfigSchema>;

/** Reads and validates a config file; a missing file is an empty config. */
export function readProjectConfig(path: string): ProjectConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new EngramError('PARAM_ERROR', `Cannot read ${path}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new EngramError('PARAM_ERROR', `${path} is not valid JSON`, {
      hint: 'Fix or delete the file; `engram init` writes a fresh one.',
    });
  }
  const parsed = projectConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EngramError(
      'PARAM_ERROR',
      `Invalid ${path}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
    );
  }
  return parsed.data;
}

/**
 * `.engram/config.json`: per-store settings written by `init`. Read only by entry points, sitting
 * between environment variables and defaults in the precedence order.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { EngramError, FIX_HINTS } from '../errors.js';
import { TOKENIZER_NAMES } from '../types.js';
import { FTS_TOKENIZER_NAMES } from './fts-tokenizer.js';

export const projectConfigSchema = z.object({
  fts_tokenizer: z.enum(FTS_TOKENIZER_NAMES).optional(),
  /** What recall counts its budget in (`chars`, `o200k`, `cl100k`), after the flag and variable. */
  tokenizer: z.enum(TOKENIZER_NAMES).optional(),
  /**
   * The embedder (`model2vec:PATH`, `ollama:MODEL[@URL]`, `openai:MODEL[@BASE_URL]`; null or
   * `none` for none), after the flag and variable. Checked by {@link readProjectConfig} apart from
   * the other keys: a value of another type fails only where it is used, not while a flag or
   * variable names the embedder.
   */
  embedder: z.unknown().optional(),
  /** Automatic consolidation after writes: `false` turns it off; the fields override the defaults. */
  auto_consolidate: z
    .union([
      z.literal(false),
      z.strictObject({
        threshold: z.number().int().min(1).optional(),
        interval_minutes: z.number().min(0).optional(),
      }),
    ])
    .optional(),
});

export type ProjectConfig = Omit<z.output<typeof projectConfigSchema>, 'embedder'> & {
  /** The spelling; null for none; the PARAM_ERROR to throw where it is used when the file holds another type. */
  embedder?: string | null | EngramError;
};

/** `"embedder"` of the file at `path` as {@link ProjectConfig} keeps it. */
function embedderValue(value: unknown, path: string): string | null | EngramError {
  if (value === null || typeof value === 'string') return value;
  const found = Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
  return new EngramError('PARAM_ERROR', `Invalid ${path}: embedder must be a string or null, not ${found}`, {
    hint: 'Set "embedder" to model2vec:PATH, ollama:MODEL[@URL], openai:MODEL[@BASE_URL], "none" or null, or remove it.',
    details: { path, key: 'embedder' },
  });
}

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
      hint: FIX_HINTS.rewrite_config,
      fix: 'rewrite_config',
    });
  }
  const parsed = projectConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EngramError(
      'PARAM_ERROR',
      `Invalid ${path}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
      { hint: FIX_HINTS.rewrite_config, fix: 'rewrite_config', details: { path } },
    );
  }
  const { embedder, ...config } = parsed.data;
  return embedder === undefined ? config : { ...config, embedder: embedderValue(embedder, path) };
}

export interface AutoConsolidateSettings {
  threshold: number;
  intervalMinutes: number;
}

/**
 * Automatic consolidation for the CLI: the defaults, then the store's config, then
 * `ENGRAM_AUTO_CONSOLIDATE` (`off`, or a threshold); `undefined` means off.
 */
export function autoConsolidateSettings(
  defaults: AutoConsolidateSettings,
  config: ProjectConfig,
  env: string | undefined,
): AutoConsolidateSettings | undefined {
  if (env === 'off' || env === '0') return undefined;
  if (config.auto_consolidate === false && (env === undefined || env === '')) return undefined;
  const fromConfig = config.auto_consolidate === false ? {} : (config.auto_consolidate ?? {});
  const settings = {
    threshold: fromConfig.threshold ?? defaults.threshold,
    intervalMinutes: fromConfig.interval_minutes ?? defaults.intervalMinutes,
  };
  if (env === undefined || env === '') return settings;
  if (!/^[1-9]\d*$/.test(env)) {
    throw new EngramError('PARAM_ERROR', `Invalid ENGRAM_AUTO_CONSOLIDATE '${env}'`, {
      hint: 'Expected off, or the STM item count that triggers consolidation (a whole number >= 1)',
    });
  }
  return { ...settings, threshold: Number(env) };
}

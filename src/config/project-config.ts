/**
 * `.engram/config.json`: per-store settings written by `init`. Read only by entry points, sitting
 * between environment variables and defaults in the precedence order.
 */
import { readFileSync } from 'node:fs';
import { EngramError, FIX_HINTS } from '../errors.js';
import { TOKENIZER_NAMES } from '../types.js';
import { FTS_TOKENIZER_NAMES } from './fts-tokenizer.js';

/** The keys of `.engram/config.json` (others are ignored). */
export interface ProjectConfig {
  fts_tokenizer?: (typeof FTS_TOKENIZER_NAMES)[number];
  /** What recall counts its budget in (`chars`, `o200k`, `cl100k`), after the flag and variable. */
  tokenizer?: (typeof TOKENIZER_NAMES)[number];
  /**
   * The embedder (`model2vec:PATH`, `ollama:MODEL[@URL]`, `openai:MODEL[@BASE_URL]`; null or
   * `none` for none), after the flag and variable: the spelling; null for none; the PARAM_ERROR to
   * throw where it is used when the file holds another type (so it fails only where it is used,
   * not while a flag or variable names the embedder).
   */
  embedder?: string | null | EngramError;
  /** Automatic consolidation after writes: `false` turns it off; the fields override the defaults. */
  auto_consolidate?: false | { threshold?: number; interval_minutes?: number };
}

/**
 * The file's value checked by hand, not by a schema library: every command reads the file, so it
 * stays off the start-up path. Returns the first problem as `key message`, or the config.
 */
function checkConfig(json: unknown): Omit<ProjectConfig, 'embedder'> & { embedder?: unknown } | string {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'expected an object';
  const value = json as Record<string, unknown>;
  const config: Omit<ProjectConfig, 'embedder'> & { embedder?: unknown } = {};
  const named = (key: 'fts_tokenizer' | 'tokenizer', names: readonly string[]): string | undefined => {
    const given = value[key];
    return given === undefined || names.includes(given as string) ? undefined : `${key} must be one of ${names.join(', ')}`;
  };
  const wrongName = named('fts_tokenizer', FTS_TOKENIZER_NAMES) ?? named('tokenizer', TOKENIZER_NAMES);
  if (wrongName !== undefined) return wrongName;
  if (value.fts_tokenizer !== undefined) config.fts_tokenizer = value.fts_tokenizer as ProjectConfig['fts_tokenizer'];
  if (value.tokenizer !== undefined) config.tokenizer = value.tokenizer as ProjectConfig['tokenizer'];
  if ('embedder' in value) config.embedder = value.embedder;
  const auto = value.auto_consolidate;
  if (auto === false) config.auto_consolidate = false;
  else if (auto !== undefined) {
    if (typeof auto !== 'object' || auto === null || Array.isArray(auto)) return 'auto_consolidate must be false or an object';
    const { threshold, interval_minutes: interval, ...rest } = auto as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0) return `auto_consolidate has unknown key(s): ${extra.join(', ')}`;
    if (threshold !== undefined && !(Number.isInteger(threshold) && (threshold as number) >= 1)) {
      return 'auto_consolidate.threshold must be a whole number >= 1';
    }
    if (interval !== undefined && !(typeof interval === 'number' && Number.isFinite(interval) && interval >= 0)) {
      return 'auto_consolidate.interval_minutes must be a number >= 0';
    }
    config.auto_consolidate = {
      ...(threshold === undefined ? {} : { threshold: threshold as number }),
      ...(interval === undefined ? {} : { interval_minutes: interval }),
    };
  }
  return config;
}

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
  const checked = checkConfig(json);
  if (typeof checked === 'string') {
    throw new EngramError('PARAM_ERROR', `Invalid ${path}: ${checked}`, {
      hint: FIX_HINTS.rewrite_config, fix: 'rewrite_config', details: { path },
    });
  }
  const { embedder, ...config } = checked;
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

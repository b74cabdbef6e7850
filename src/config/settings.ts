/**
 * The one settings object of a run: every value a shell needs from outside the code, by the
 * precedence flags > environment > config file (`.engram/config.json`) > defaults. The shell's
 * composition root (`cli/run-cli.ts`) builds it once from the environment and the program's flags
 * and passes it down; no command and no feature module reads the environment itself.
 *
 * A value is checked when it is used, not when the object is built, so a malformed variable fails
 * only the commands that read it (an invalid `ENGRAM_BUDGET` does not break `engram list`).
 */
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { EngramError } from '../errors.js';
import { SECRECY_TIERS, type Secrecy, TOKENIZER_NAMES, type TokenizerName } from '../types.js';
import { isHostedOpenAi, OPENAI_URL, splitModelUrl } from '../util/model-url.js';
import { daemonDir } from './daemon-dir.js';
import { CONFIG_FILE, discoverStore, STORE_DIR, type StoreLocation } from './discover-store.js';
import { type FtsTokenizerPreset, ftsTokenizerFromEnv, localeFtsTokenizer } from './fts-tokenizer.js';
import type { AutoConsolidateSettings, ProjectConfig } from './project-config.js';

/** The environment as the shell received it (`process.env`). */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The program-level flags that are settings (`--db`, `--session`). */
export interface GlobalSettingsFlags {
  db?: string;
  session?: string;
  /** `--embedder SPEC`. */
  embedder?: string;
  /** `--tokenizer NAME`, checked where it is used. */
  tokenizer?: string;
}

/** The embedder of a run: its spelling (checked when opened) and the key of an OpenAI-compatible server. */
export interface EmbedderSetting {
  spec: string;
  /** `ENGRAM_EMBED_API_KEY` > `OPENAI_API_KEY` (OpenAI's hosted API only); never shown, logged or stored. */
  apiKey: string | undefined;
}

/** The directories agent clients keep their configuration in (see {@link Settings.clientDirs}). */
export interface ClientDirs {
  home: string;
  /** `XDG_CONFIG_HOME`, else ~/.config. */
  configHome: string;
  /** `APPDATA` (Windows), else ~/AppData/Roaming. */
  appData: string;
  /** `CODEX_HOME`, else ~/.codex. */
  codexHome: string;
  platform: NodeJS.Platform;
}

/** The user's home: `HOME`, else `USERPROFILE`, else the system's (an empty variable is unset). */
const homeFrom = (env: Environment): string => env.HOME || env.USERPROFILE || homedir();

/** The client directories from the environment, each empty variable taken as unset. */
function clientDirsFrom(env: Environment, home: string): ClientDirs {
  return {
    home,
    configHome: env.XDG_CONFIG_HOME || join(home, '.config'),
    appData: env.APPDATA || join(home, 'AppData', 'Roaming'),
    codexHome: env.CODEX_HOME || join(home, '.codex'),
    platform: process.platform,
  };
}

export interface SettingsSources {
  env: Environment;
  cwd: string;
  flags?: GlobalSettingsFlags;
}

export interface Settings {
  readonly cwd: string;
  /** The user's home directory (`HOME`, else `USERPROFILE`, else the system's). */
  readonly home: string;
  /** `--db` as given (possibly ''), for commands that must tell it from `ENGRAM_DB`. */
  readonly dbFlag: string | undefined;
  /** `ENGRAM_DB`, undefined when unset or empty. */
  readonly dbEnv: string | undefined;
  /** `NO_COLOR` is set (to anything): text output is never painted. */
  readonly noColor: boolean;
  /**
   * The terminal takes colour (picocolors' test, read from this run's environment): not
   * `TERM=dumb`, or `FORCE_COLOR` or `CI` set.
   */
  readonly termColor: boolean;
  /** `ENGRAM_FORMAT` as given, checked by the caller that picks the output format. */
  readonly formatEnv: string | undefined;
  /** The executable search path (`PATH`). */
  readonly searchPath: string;
  /** Actor recorded on writes: `--session` > `ENGRAM_SESSION` > none. */
  readonly session: string | null;
  /** Full-text search on, unless `ENGRAM_FTS=off`. */
  readonly fullText: boolean;
  /**
   * The directories agent clients keep their configuration in (`engram setup`): HOME,
   * XDG_CONFIG_HOME, APPDATA and CODEX_HOME, each with its documented default.
   */
  clientDirs(): ClientDirs;
  /** Where the store is: `--db` > `ENGRAM_DB` > nearest `.engram/` > the user store. */
  store(): StoreLocation;
  /** The folder of the user's `engram daemon` (see `daemon-dir.ts`); undefined on Windows. */
  daemonDir(): string | undefined;
  /** `ENGRAM_DAEMON=off`: commands never run in a daemon. */
  readonly daemonOff: boolean;
  /** `ENGRAM_DAEMON=auto`: a command that finds no daemon starts one. */
  readonly daemonAuto: boolean;
  /** Output redaction tier: `flag` > `ENGRAM_SECRECY`; PARAM_ERROR when the variable is not a tier. */
  secrecy(flag?: Secrecy): Secrecy | undefined;
  /** Recall budget in tokens: `flag` > `ENGRAM_BUDGET`; PARAM_ERROR when the variable is not one. */
  budget(flag?: number): number | undefined;
  /** HTTP bearer token of `serve --http`: `flag` > `ENGRAM_HTTP_TOKEN` (empty is none). */
  httpToken(flag?: string): string | undefined;
  /** The tools `serve` lists, as spelt (checked by the server): `flag` > `ENGRAM_MCP_TOOLS` (empty is none). */
  mcpTools(flag?: string): string | undefined;
  /** The tokenizer asked for: `flag` > `ENGRAM_FTS_TOKENIZER`; PARAM_ERROR when not a preset. */
  ftsTokenizer(flag?: FtsTokenizerPreset): FtsTokenizerPreset | undefined;
  /** The tokenizer the locale suggests (`LC_ALL` > `LC_MESSAGES` > `LANG`). */
  localeFtsTokenizer(): FtsTokenizerPreset;
  /**
   * The tokenizer of a store created now: `flag` > `ENGRAM_FTS_TOKENIZER` > the store's config >
   * the locale.
   */
  newStoreFtsTokenizer(flag: string | undefined, config: ProjectConfig): string;
  /**
   * The config file of the store at `storePath`: `config.json` beside it when it sits in a
   * `.engram` directory (never beside a `--db` file elsewhere); {} when there is none. A relative
   * `model2vec:PATH` in it is made absolute against the project (the directory holding `.engram`).
   */
  storeConfig(storePath: string): Promise<ProjectConfig>;
  /** The config file at `path` ({} when it does not exist); PARAM_ERROR when it is malformed. */
  projectConfig(path: string): Promise<ProjectConfig>;
  /**
   * The embedder: `--embedder` > `ENGRAM_EMBEDDER` > the store's config (`"embedder"`); undefined
   * when none is set (or set to `none`, empty, or null in the config): search stays lexical. A
   * config value of another type is a PARAM_ERROR here, when neither the flag nor the variable is set. A relative
   * `model2vec:PATH` from the flag or the variable is made absolute against the working directory
   * (one from the config file was against the project already, by {@link storeConfig}).
   */
  embedder(config: ProjectConfig): EmbedderSetting | undefined;
  /**
   * What recall counts its budget in: `--tokenizer` > `ENGRAM_TOKENIZER` > the store's config
   * (`"tokenizer"`); undefined when none is set (the built-in estimate). PARAM_ERROR when the
   * flag or the variable names no tokenizer.
   */
  tokenizer(config: ProjectConfig): TokenizerName | undefined;
  /**
   * Automatic consolidation: the defaults, then the store's config, then
   * `ENGRAM_AUTO_CONSOLIDATE` (`off`, or a threshold); undefined means off.
   */
  autoConsolidate(
    defaults: AutoConsolidateSettings,
    config: ProjectConfig,
  ): Promise<AutoConsolidateSettings | undefined>;
  /**
   * The environment an LLM provider (`--llm`) is given: a shell command runs in it, and an
   * `openai:` provider reads its key from it (`ENGRAM_LLM_API_KEY` > `OPENAI_API_KEY`).
   */
  llmEnv(): Environment;
  /**
   * The same settings completed with the program's flags, once commander has parsed them (the
   * output format is picked before, from the environment and the raw arguments).
   */
  withFlags(flags: GlobalSettingsFlags): Settings;
}

/** True for an `openai:` embedder on OpenAI's hosted API (no `@URL`, or an https one of openai.com). */
function hostedOpenAiSpec(spec: string): boolean {
  if (!spec.toLowerCase().startsWith('openai:')) return false;
  const parsed = splitModelUrl(spec.slice('openai:'.length), OPENAI_URL);
  return typeof parsed !== 'string' && isHostedOpenAi(parsed.url);
}

/** `ENGRAM_SECRECY`, checked: undefined when unset, PARAM_ERROR when not a tier. */
function secrecyFromEnv(value: string | undefined): Secrecy | undefined {
  if (value === undefined || value === '') return undefined;
  const tier = SECRECY_TIERS.find((t) => t === value);
  if (tier !== undefined) return tier;
  throw new EngramError('PARAM_ERROR', `Invalid ENGRAM_SECRECY '${value}'`, {
    hint: `Valid values: ${SECRECY_TIERS.join(', ')}`,
  });
}

/** `ENGRAM_BUDGET`, checked: undefined when unset, PARAM_ERROR when not a whole number >= 1. */
function budgetFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (Number.isInteger(n) && n >= 1) return n;
  throw new EngramError('PARAM_ERROR', `Invalid ENGRAM_BUDGET '${value}'`, { hint: 'Expected a whole number >= 1' });
}

/** A tokenizer name from `source` (the flag or the variable), checked; undefined when unset or empty. */
function tokenizerFrom(value: string | undefined, source: string): TokenizerName | undefined {
  if (value === undefined || value === '') return undefined;
  const name = TOKENIZER_NAMES.find((t) => t === value);
  if (name !== undefined) return name;
  throw new EngramError('PARAM_ERROR', `Invalid ${source} '${value}'`, {
    hint: `Valid values: ${TOKENIZER_NAMES.join(', ')}`,
  });
}

/** The config's embedder spelling; undefined for none (null); its PARAM_ERROR when of another type. */
function configEmbedder(config: ProjectConfig): string | undefined {
  const value = config.embedder;
  if (value instanceof EngramError) throw value;
  return value === null || value === '' ? undefined : value;
}

/**
 * `model2vec:PATH` with a relative PATH made absolute against `base`; any other spelling (another
 * kind, an absolute path, no path) as it is.
 *
 * @example
 * anchorModelPath('model2vec:./models/potion-base-8M', '/proj'); // 'model2vec:/proj/models/potion-base-8M'
 */
export function anchorModelPath(spec: string, base: string): string {
  const match = /^\s*(model2vec\s*:)\s*(.*?)\s*$/i.exec(spec);
  const path = match?.[2] ?? '';
  return match === null || path === '' || isAbsolute(path) ? spec : `${match[1]}${resolve(base, path)}`;
}

/**
 * Builds the settings of one run from the environment, the working directory and the program's
 * flags. The result is frozen.
 *
 * @example
 * const settings = createSettings({ env: process.env, cwd: process.cwd(), flags: { db: 'x.db' } });
 * settings.store().path; // '/…/x.db'
 */
export function createSettings(sources: SettingsSources): Settings {
  const { env, cwd, flags = {} } = sources;
  const dbEnv = env.ENGRAM_DB === '' ? undefined : env.ENGRAM_DB;
  const home = homeFrom(env);
  return Object.freeze({
    cwd,
    home,
    dbFlag: flags.db,
    dbEnv,
    noColor: 'NO_COLOR' in env,
    termColor: Boolean(env.FORCE_COLOR) || process.platform === 'win32' || env.TERM !== 'dumb' || Boolean(env.CI),
    formatEnv: env.ENGRAM_FORMAT,
    searchPath: env.PATH ?? '',
    session: flags.session ?? env.ENGRAM_SESSION ?? null,
    fullText: env.ENGRAM_FTS !== 'off',
    clientDirs: () => clientDirsFrom(env, home),
    store: () => discoverStore({ flag: flags.db, env: env.ENGRAM_DB, cwd, home }),
    daemonDir: () => daemonDir(env, cwd),
    daemonOff: env.ENGRAM_DAEMON === 'off',
    daemonAuto: env.ENGRAM_DAEMON === 'auto',
    secrecy: (flag?: Secrecy) => flag ?? secrecyFromEnv(env.ENGRAM_SECRECY),
    budget: (flag?: number) => flag ?? budgetFromEnv(env.ENGRAM_BUDGET),
    httpToken: (flag?: string) => flag ?? (env.ENGRAM_HTTP_TOKEN || undefined),
    mcpTools: (flag?: string) => flag ?? (env.ENGRAM_MCP_TOOLS || undefined),
    ftsTokenizer: (flag?: FtsTokenizerPreset) => flag ?? ftsTokenizerFromEnv(env.ENGRAM_FTS_TOKENIZER),
    localeFtsTokenizer: () => localeFtsTokenizer(env),
    newStoreFtsTokenizer: (flag: string | undefined, config: ProjectConfig) =>
      flag ?? ftsTokenizerFromEnv(env.ENGRAM_FTS_TOKENIZER) ?? config.fts_tokenizer ?? localeFtsTokenizer(env),
    async storeConfig(storePath: string) {
      if (basename(dirname(storePath)) !== STORE_DIR) return {};
      const { readProjectConfig } = await import('./project-config.js');
      const config = readProjectConfig(join(dirname(storePath), CONFIG_FILE));
      const project = dirname(dirname(storePath));
      if (typeof config.embedder !== 'string') return config;
      return { ...config, embedder: anchorModelPath(config.embedder, project) };
    },
    async projectConfig(path: string) {
      const { readProjectConfig } = await import('./project-config.js');
      return readProjectConfig(path);
    },
    async autoConsolidate(defaults: AutoConsolidateSettings, config: ProjectConfig) {
      const { autoConsolidateSettings } = await import('./project-config.js');
      return autoConsolidateSettings(defaults, config, env.ENGRAM_AUTO_CONSOLIDATE);
    },
    embedder(config: ProjectConfig) {
      const spec = [flags.embedder, env.ENGRAM_EMBEDDER].find((v) => v !== undefined && v !== '')
        ?? configEmbedder(config);
      if (spec === undefined || spec.trim().toLowerCase() === 'none') return undefined;
      // OPENAI_API_KEY is OpenAI's: sent only to its hosted API, never to another `openai:` server.
      const openAiKey = hostedOpenAiSpec(spec.trim()) ? env.OPENAI_API_KEY : undefined;
      const apiKey = env.ENGRAM_EMBED_API_KEY || openAiKey || undefined;
      return { spec: anchorModelPath(spec.trim(), cwd), apiKey };
    },
    tokenizer: (config: ProjectConfig) =>
      tokenizerFrom(flags.tokenizer, '--tokenizer') ?? tokenizerFrom(env.ENGRAM_TOKENIZER, 'ENGRAM_TOKENIZER') ?? config.tokenizer,
    llmEnv: () => env,
    withFlags: (next: GlobalSettingsFlags) => createSettings({ env, cwd, flags: { ...flags, ...next } }),
  });
}

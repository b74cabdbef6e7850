/**
 * memctl's FTS5 tokenizer presets, chosen once when a store is created and recorded with its search
 * index. A new store stems English (`en`) unless the locale is French (`fr`, accents folded, no
 * stemming) or the user says otherwise (`init --fts-tokenizer`, `ENGRAM_FTS_TOKENIZER`).
 */
import { EngramError } from '../errors.js';

export const FTS_TOKENIZER_PRESETS = Object.freeze({
  fr: 'unicode61 remove_diacritics 2',
  en: 'porter unicode61 remove_diacritics 2',
  raw: 'unicode61',
} as const);

export type FtsTokenizerPreset = keyof typeof FTS_TOKENIZER_PRESETS;

export const FTS_TOKENIZER_NAMES = [
  'fr',
  'en',
  'raw',
] as const satisfies readonly FtsTokenizerPreset[];

/** The preset of a new store when nothing chooses one (the library's default). */
export const DEFAULT_FTS_TOKENIZER: FtsTokenizerPreset = 'en';

export function isFtsTokenizerPreset(value: string): value is FtsTokenizerPreset {
  return Object.hasOwn(FTS_TOKENIZER_PRESETS, value);
}

/** The locale variables, in POSIX precedence for messages: `LC_ALL` > `LC_MESSAGES` > `LANG`. */
export interface LocaleEnv {
  LC_ALL?: string | undefined;
  LC_MESSAGES?: string | undefined;
  LANG?: string | undefined;
}

/**
 * The preset a new store gets from the locale: `fr` when the effective locale is French, else `en`.
 *
 * @example
 * localeFtsTokenizer({ LANG: 'fr_FR.UTF-8' }); // 'fr'
 * localeFtsTokenizer({ LANG: 'C.UTF-8' });     // 'en'
 */
export function localeFtsTokenizer(env: LocaleEnv): FtsTokenizerPreset {
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => v !== undefined && v !== '') ?? '';
  return /^fr(?:[_.@-]|$)/i.test(locale) ? 'fr' : DEFAULT_FTS_TOKENIZER;
}

/** `ENGRAM_FTS_TOKENIZER`, checked: undefined when unset, PARAM_ERROR when not a preset. */
export function ftsTokenizerFromEnv(value: string | undefined): FtsTokenizerPreset | undefined {
  if (value === undefined || value === '') return undefined;
  if (isFtsTokenizerPreset(value)) return value;
  throw new EngramError('PARAM_ERROR', `Invalid ENGRAM_FTS_TOKENIZER '${value}'`, {
    hint: `Valid values: ${FTS_TOKENIZER_NAMES.join(', ')}`,
  });
}

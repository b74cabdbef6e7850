/** memctl's FTS5 tokenizer presets, chosen once at `init` and recorded for the search index. */
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

export const DEFAULT_FTS_TOKENIZER: FtsTokenizerPreset = 'fr';

export function isFtsTokenizerPreset(value: string): value is FtsTokenizerPreset {
  return Object.hasOwn(FTS_TOKENIZER_PRESETS, value);
}

/**
 * What recall counts its budget and `tokens_used` in (`--tokenizer`, `ENGRAM_TOKENIZER`, the
 * store's config): `chars`, the built-in estimate (the default: nothing to load, see
 * `estimate-tokens.ts`), or a real BPE encoding from gpt-tokenizer: `o200k` (GPT-4o and later
 * OpenAI models) or `cl100k` (GPT-4, GPT-3.5). An encoding is a large module (o200k takes about
 * 0.2 s to load, cl100k 0.1 s), so it is imported on first use only, once per process.
 */
import { EngramError } from '../errors.js';
import { TOKENIZER_NAMES, type TokenizerName } from '../types.js';
import { estimateAtLeast, estimateTokens } from './estimate-tokens.js';

export interface Tokenizer {
  readonly name: TokenizerName;
  /** Tokens of `text` by this tokenizer's measure. */
  count(text: string): number;
  /** A count `count(text)` is never below, cheaper to get (packing skips what cannot fit with it). */
  atLeast?(text: string): number;
  /**
   * True when the recall block's count is the sum of its parts' counts: `count(a + b)` is
   * `count(a) + count(b)` for `a` ending in a line feed and `b` starting with `-` or `[` (where the
   * block's header, items and closing line meet), and an item's index numbers of up to three digits
   * count alike. Packing then counts each item once, not the block again (test/recall-budget.test.ts
   * checks both for the built-in estimate).
   */
  partsAddUp?: boolean;
}

/** The tokenizer of a run that names none. */
export const DEFAULT_TOKENIZER: TokenizerName = 'chars';

/** The built-in estimate, synchronous. */
export const CHARS_TOKENIZER: Tokenizer = Object.freeze({
  name: 'chars',
  count: estimateTokens,
  atLeast: estimateAtLeast,
  // No piece of the estimate's pattern reaches across a line feed into `-` or `[`, and any number of
  // up to three digits is one piece of one token (estimate-tokens.ts).
  partsAddUp: true,
});

/** Special-token spellings in stored text (`<|endoftext|>`) are counted as the plain text they are. */
const AS_TEXT = Object.freeze({ disallowedSpecial: new Set<string>() });

type CountTokens = (text: string, options: { disallowedSpecial: Set<string> }) => number;

async function importEncoding(name: Exclude<TokenizerName, 'chars'>): Promise<CountTokens> {
  // One literal specifier per encoding, so that a bundler sees each and loads only the one asked.
  const encoding = name === 'o200k'
    ? await import('gpt-tokenizer/encoding/o200k_base')
    : await import('gpt-tokenizer/encoding/cl100k_base');
  return encoding.countTokens;
}

const loaded = new Map<TokenizerName, Promise<Tokenizer>>();

/**
 * The tokenizer `name`, its encoding imported on the first call for it.
 *
 * @example
 * const tokenizer = await loadTokenizer('o200k');
 * tokenizer.count('我们决定把数据库迁移到新的服务器上'); // the count GPT-4o's encoding gives
 */
export async function loadTokenizer(name: TokenizerName = DEFAULT_TOKENIZER): Promise<Tokenizer> {
  if (name === 'chars') return CHARS_TOKENIZER;
  if (!TOKENIZER_NAMES.includes(name)) {
    throw new EngramError('PARAM_ERROR', `Unknown tokenizer '${String(name)}'`, { hint: `Valid values: ${TOKENIZER_NAMES.join(', ')}` });
  }
  let tokenizer = loaded.get(name);
  if (tokenizer === undefined) {
    tokenizer = importEncoding(name).then((count) =>
      Object.freeze({ name, count: (text: string) => count(text, AS_TEXT) }));
    loaded.set(name, tokenizer);
  }
  return await tokenizer;
}

/**
 * A Model2Vec model's tokenizer: `tokenizer.json` run by `@huggingface/tokenizers` (pure JS,
 * imported on first load only), applied the way model2vec applies it: no special tokens added,
 * the unknown token dropped, at most {@link MAX_TOKENS} tokens kept.
 *
 * Before tokenising, a text is cut to `MAX_TOKENS × median vocabulary token length` code points,
 * the pre-truncation model2vec itself does (Python `StaticModel.tokenize`, model2vec-rs
 * `truncate_str`), so the tokens kept are the ones model2vec keeps. It bounds the work per text:
 * a megabyte pasted into one item is tokenised as a few kilobytes (a whole-text Unigram lattice
 * over a megabyte would also overflow the tokenizer's stack). The cut is generous for prose: a
 * token of running text averages fewer characters than the median vocabulary entry (which carries
 * its `##` or `▁` marker; 6 code points for the BERT vocabulary, so 3,072 for ~600 English tokens),
 * so the cut text still holds more than MAX_TOKENS tokens unless it is mostly unknown characters,
 * where model2vec would cut the same way.
 */
import { modelFileError } from './model-error.js';

/** model2vec's default `max_length`: tokens beyond it are ignored. */
export const MAX_TOKENS = 512;

export interface ModelTokenizer {
  /** The ids model2vec pools for `text` (unknown token dropped, at most MAX_TOKENS). */
  ids(text: string): number[];
  /** One past the largest id the tokenizer can produce (vocabulary and added tokens). */
  readonly vocabularySize: number;
  /** The code-point bound a text is cut to before tokenising. */
  readonly maxChars: number;
}

/** The first `max` code points of `text` (a surrogate pair counts once, as in Python). */
export function cutToCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (let count = 0; count < max && end < text.length; count++) {
    const unit = text.charCodeAt(end);
    const next = text.charCodeAt(end + 1);
    end += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return text.slice(0, end);
}

/** numpy's median of the token lengths in code points, truncated to an integer as model2vec does. */
function medianTokenLength(tokens: Iterable<string | undefined>): number {
  const lengths: number[] = [];
  // A vocabulary with gaps in its ids lists an undefined token for them: not a token, skipped.
  for (const token of tokens) if (typeof token === 'string') lengths.push([...token].length);
  lengths.sort((a, b) => a - b);
  const mid = lengths.length >> 1;
  const median = lengths.length % 2 === 1
    ? lengths[mid] as number
    : ((lengths[mid - 1] ?? 1) + (lengths[mid] ?? 1)) / 2;
  return Math.max(1, Math.trunc(median));
}

/** The unknown token's id: WordPiece/BPE/WordLevel name it (`unk_token`), Unigram numbers it (`unk_id`). */
function unknownId(model: Record<string, unknown>, lookup: (token: string) => number | undefined): number | undefined {
  if (typeof model.unk_token === 'string') return lookup(model.unk_token);
  return typeof model.unk_id === 'number' ? model.unk_id : undefined;
}

/**
 * Builds the tokenizer of a Model2Vec directory from the text of its `tokenizer.json`.
 * An unreadable or unsupported file is a PARAM_ERROR naming `path`.
 *
 * @example
 * const tokenizer = await loadModelTokenizer(await readFile(path, 'utf8'), path);
 * tokenizer.ids('Hello world'); // [6598, 1094]
 */
export async function loadModelTokenizer(text: string, path: string): Promise<ModelTokenizer> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw modelFileError(path, 'it is not valid JSON', error);
  }
  const model = (json as { model?: unknown } | null)?.model;
  if (typeof model !== 'object' || model === null) throw modelFileError(path, 'it has no tokenizer model');
  const { Tokenizer } = await import('@huggingface/tokenizers');
  let tokenizer: InstanceType<typeof Tokenizer>;
  let vocabulary: Map<string, number>;
  try {
    tokenizer = new Tokenizer(json as object, {});
    vocabulary = tokenizer.get_vocab(true);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw modelFileError(path, `the tokenizer cannot be built (${reason})`, error);
  }
  const unk = unknownId(model as Record<string, unknown>, (token) => tokenizer.token_to_id(token));
  const maxChars = MAX_TOKENS * medianTokenLength(vocabulary.keys());
  let vocabularySize = 0;
  for (const id of vocabulary.values()) vocabularySize = Math.max(vocabularySize, id + 1);
  return {
    vocabularySize,
    maxChars,
    ids(input: string): number[] {
      const { ids } = tokenizer.encode(cutToCodePoints(input, maxChars), { add_special_tokens: false });
      const kept: number[] = [];
      for (const id of ids) {
        // A token the model has no id for comes back undefined when the model has no unknown token.
        if (typeof id === 'number' && id !== unk) kept.push(id);
        if (kept.length === MAX_TOKENS) break;
      }
      return kept;
    },
  };
}

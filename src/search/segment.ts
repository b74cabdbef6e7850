/**
 * Chinese (and other CJK) word segmentation for the full-text index and queries, with jieba
 * (`jieba-wasm`: one WebAssembly package with its dictionary, no native build, no download).
 * Loaded only when a text actually contains CJK characters.
 */

/** Splits one run of CJK text into words. */
export type Segmenter = (text: string) => string[];

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

let loaded: Segmenter | undefined;

/** True when `text` has any CJK character (so it needs the segmenter). */
export function hasCjk(text: string): boolean {
  return HAS_CJK.test(text);
}

/** Loads jieba once; later calls return the same segmenter. */
export async function loadSegmenter(): Promise<Segmenter> {
  if (loaded === undefined) {
    const { cut_for_search: cutForSearch } = await import('jieba-wasm');
    loaded = (text) => cutForSearch(text, true);
  }
  return loaded;
}

/**
 * The segmented copy of `text` for the index: the words of every CJK run, space-separated,
 * one-character words dropped (as memtool does). Empty when there is no CJK text.
 */
export function segmentedCopy(text: string, segment: Segmenter): string {
  const words: string[] = [];
  for (const [run] of text.matchAll(CJK_RUN)) {
    for (const word of segment(run)) if (word.trim().length >= 2) words.push(word.trim());
  }
  return words.join(' ');
}

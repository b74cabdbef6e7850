/**
 * Chinese (and other CJK) word segmentation for the full-text index and queries, with jieba
 * (`jieba-wasm`: one WebAssembly package with its dictionary, no native build, no download).
 * Loaded only when a text actually contains CJK characters.
 */
import { createRequire } from 'node:module';
import type * as JiebaModule from 'jieba-wasm';
import { isAscii, unicodePattern } from '../util/unicode-pattern.js';

/** Splits one run of CJK text into words. */
export type Segmenter = (text: string) => string[];

const CJK_RUN = unicodePattern('[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]+', 'gu');
const HAS_CJK = unicodePattern('[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]', 'u');

let loaded: Segmenter | undefined;

/** True when `text` has any CJK character (so it needs the segmenter). */
export function hasCjk(text: string): boolean {
  return !isAscii(text) && HAS_CJK.of(false).test(text);
}

/**
 * Loads jieba once, synchronously (its Node build compiles its WebAssembly as it is required);
 * later calls return the same segmenter. External to the bundle: a chunk's `require` loads it from
 * node_modules, the library (ES modules) the same way.
 */
function loadJieba(): Segmenter {
  if (loaded === undefined) {
    const jieba = typeof require === 'function'
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      ? (require('jieba-wasm') as typeof JiebaModule)
      : (createRequire(import.meta.url)('jieba-wasm') as typeof JiebaModule);
    loaded = (text) => jieba.cut_for_search(text, true);
  }
  return loaded;
}

/**
 * Loads jieba once; later calls return the same segmenter. It never waits on I/O (the load is
 * synchronous), so a write that meets CJK text inside its transaction (the item writer prepares
 * each item it indexes) loads it there without letting anything else run meanwhile.
 */
export async function loadSegmenter(): Promise<Segmenter> {
  return loadJieba();
}

/**
 * The segmented copy of `text` for the index: the words of every CJK run, space-separated,
 * one-character words dropped (as memtool does). Empty when there is no CJK text.
 */
export function segmentedCopy(text: string, segment: Segmenter): string {
  const words: string[] = [];
  for (const [run] of text.matchAll(CJK_RUN(text))) {
    for (const word of segment(run)) if (word.trim().length >= 2) words.push(word.trim());
  }
  return words.join(' ');
}

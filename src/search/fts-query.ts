/**
 * Turns any user string into search terms: words only, so operators and punctuation are plain
 * text; control and zero-width characters are removed; the term count and length are capped so a
 * 10 KB query stays cheap. The store builds its own query from the terms (FTS5 MATCH in
 * `store/sqlite/fts-match.ts`). Pure.
 */
import { STOPWORDS } from './stopwords.js';
import { isAscii, type UnicodePattern, unicodePattern } from '../util/unicode-pattern.js';

/** Splits a run of CJK text into words (jieba); without it a run stays one term. */
export type SegmentText = (text: string) => string[];

export const MAX_TERMS = 32;
export const MAX_TERM_LENGTH = 64;
const CJK = unicodePattern('[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]', 'u');
/** A character CJK text uses, its marks included (the kana prolonged sound mark ー, the iteration mark 々). */
const CJK_CHAR = unicodePattern('^[\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}]$', 'u');
const INVISIBLE = unicodePattern('[\\p{Cc}\\p{Cf}\\u2028\\u2029]', 'gu');
const WORD = unicodePattern('[\\p{L}\\p{N}\\p{M}]+', 'gu');

const SCRIPTS: [string, UnicodePattern][] = [
  ['hangul', unicodePattern('\\p{Script=Hangul}', 'u')],
  ['katakana', unicodePattern('\\p{Script=Katakana}', 'u')],
  ['hiragana', unicodePattern('\\p{Script=Hiragana}', 'u')],
  ['han', unicodePattern('\\p{Script=Han}', 'u')],
];

/**
 * The terms of one word with CJK text, and its fallback runs. memtool drops one-character segments:
 * they match almost everything. But jieba knows Chinese words only and cuts Korean (한국어) and kana
 * (カタカナ) into single characters, which leaves a query in those scripts no term at all. For such a
 * query, `runs` are the one-character segments joined back, one run per script (a change of script,
 * デプロイ|はいつ, ends a run; a mark two scripts share, ー or 々, goes with its run). They are used
 * only when the query has no other term: as extra terms they would add filler (있어요, ですか) that
 * outranks the query's real words, or push them past {@link MAX_TERMS}.
 */
function cjkTerms(word: string, segment: SegmentText): { terms: string[]; runs: string[] } {
  const terms: string[] = [];
  const runs: string[] = [];
  let run = '';
  let script: string | undefined;
  const endRun = () => {
    if (run.length >= 2) runs.push(run);
    run = '';
    script = undefined;
  };
  for (const part of segment(word)) {
    const trimmed = part.trim();
    if (!CJK_CHAR(trimmed).test(trimmed)) {
      endRun();
      if (trimmed !== '') terms.push(trimmed);
      continue;
    }
    const own = SCRIPTS.find(([, script]) => script(trimmed).test(trimmed))?.[0];
    if (own !== undefined && script !== undefined && own !== script) endRun();
    run += trimmed;
    script = own ?? script;
  }
  endRun();
  return { terms, runs };
}

/**
 * The searchable words of `text`: NFKC-normalised, lowercase, CJK runs segmented, stopwords
 * dropped, at most `limit` (a query's {@link MAX_TERMS} unless told).
 */
export function queryTerms(text: string, segment?: SegmentText, limit = MAX_TERMS): string[] {
  const folded = text.normalize('NFKC');
  const clean = folded.replace(INVISIBLE(folded), ' ').toLowerCase();
  let words: string[] = [];
  const runs: string[] = [];
  // Read once: the words of an ASCII text are ASCII; any other text's words take the full expressions.
  const ascii = isAscii(clean);
  // `match` gives the words alone (matchAll makes a match object of each: a write compares some 40 items).
  for (const word of clean.match(WORD.of(ascii)) ?? []) {
    if (segment !== undefined && CJK.of(ascii).test(word)) {
      const cut = cjkTerms(word, segment);
      words.push(...cut.terms);
      runs.push(...cut.runs);
    } else {
      words.push(word);
    }
  }
  if (words.length === 0) words = runs;
  const unique = [...new Set(words.map((w) => w.slice(0, MAX_TERM_LENGTH)))];
  const meaningful = unique.filter((w) => !STOPWORDS.has(w));
  // A query made only of stopwords ("to be or not to be") still searches for them.
  return (meaningful.length > 0 ? meaningful : unique).slice(0, limit);
}

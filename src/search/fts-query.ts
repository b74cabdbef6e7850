/**
 * Turns any user string into a safe FTS5 MATCH expression. Every term is quoted, so operators
 * (AND, OR, NOT, NEAR), column filters (`title:`), parentheses, `*`, `^`, `+`, `-` and quotes in
 * the input are plain text; control and zero-width characters are removed; the term count and
 * length are capped so a 10 KB query stays cheap. Pure: no SQL is run here.
 */
import { STOPWORDS } from './stopwords.js';

/** How a multi-term query is combined: every term, any term, or any term as a prefix. */
export type MatchMode = 'all' | 'any' | 'prefix';

export interface FtsQuery {
  /** The MATCH expression, or undefined when the input has no searchable term. */
  match: string | undefined;
  /** The terms that went into it, in query order, deduplicated. */
  terms: string[];
}

export interface FtsQueryOptions {
  mode?: MatchMode;
  /** Splits a run of CJK text into words (jieba); without it a run stays one term. */
  segment?: (text: string) => string[];
}

export const MAX_TERMS = 32;
export const MAX_TERM_LENGTH = 64;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * The searchable words of `text`: NFKC-normalised, lowercase, CJK runs segmented, stopwords
 * dropped, at most `limit` (a query's {@link MAX_TERMS} unless told).
 */
export function queryTerms(text: string, segment?: FtsQueryOptions['segment'], limit = MAX_TERMS): string[] {
  const clean = text.normalize('NFKC').replace(INVISIBLE, ' ').toLowerCase();
  const words: string[] = [];
  for (const [word] of clean.matchAll(WORD)) {
    if (segment !== undefined && CJK.test(word)) {
      for (const part of segment(word)) {
        const trimmed = part.trim();
        // memtool drops one-character segments: they match almost everything.
        if (trimmed.length >= 2 || (trimmed.length === 1 && !CJK.test(trimmed))) words.push(trimmed);
      }
    } else {
      words.push(word);
    }
  }
  const unique = [...new Set(words.map((w) => w.slice(0, MAX_TERM_LENGTH)))];
  const meaningful = unique.filter((w) => !STOPWORDS.has(w));
  // A query made only of stopwords ("to be or not to be") still searches for them.
  return (meaningful.length > 0 ? meaningful : unique).slice(0, limit);
}

function quote(term: string, prefix: boolean): string {
  return `"${term.replaceAll('"', '""')}"${prefix ? '*' : ''}`;
}

/**
 * Builds the MATCH expression for `text`.
 *
 * @example
 * buildFtsQuery('NOT title:(secret) OR "x"').match
 * // '"not" AND "title" AND "secret" AND "x"'
 */
export function buildFtsQuery(text: string, options: FtsQueryOptions = {}): FtsQuery {
  const terms = queryTerms(text, options.segment);
  if (terms.length === 0) return { match: undefined, terms };
  const mode = options.mode ?? 'all';
  const joiner = mode === 'all' ? ' AND ' : ' OR ';
  return { match: terms.map((t) => quote(t, mode === 'prefix')).join(joiner), terms };
}

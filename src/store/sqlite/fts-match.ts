/**
 * Turns a backend-neutral {@link TextQuery} into an FTS5 MATCH expression. Every term is quoted,
 * so operators (AND, OR, NOT, NEAR), column filters (`title:`), parentheses, `*`, `^`, `+`, `-`
 * and quotes inside a term are plain text. Pure: no SQL is run here.
 */
import type { TextQuery } from '../contract/text-index.js';

function quote(term: string, prefix: boolean): string {
  return `"${term.replaceAll('"', '""')}"${prefix ? '*' : ''}`;
}

/** Words between two terms of a `near` pair: the unordered window of the sequential dependence model. */
export const NEAR_WINDOW = 8;
/** The query terms that form `near` pairs, so a long query stays cheap. */
export const NEAR_TERMS = 16;

/** `near`: each term with the next one and the one after, within {@link NEAR_WINDOW} words. */
function nearMatch(terms: readonly string[]): string | undefined {
  const head = terms.slice(0, NEAR_TERMS).map((t) => quote(t, false));
  const pairs: string[] = [];
  for (const [i, term] of head.entries()) {
    for (const other of head.slice(i + 1, i + 3)) pairs.push(`NEAR(${term} ${other}, ${NEAR_WINDOW})`);
  }
  return pairs.length === 0 ? undefined : pairs.join(' OR ');
}

/**
 * The MATCH expression for `query`, or undefined when it has no term (or is a `substring` query,
 * which FTS5 does not answer, or a `near` query with one term).
 *
 * @example
 * ftsMatch({ terms: ['not', 'title'], mode: 'all' }); // '"not" AND "title"'
 */
export function ftsMatch(query: TextQuery): string | undefined {
  if (query.terms.length === 0 || query.mode === 'substring') return undefined;
  if (query.mode === 'near') return nearMatch(query.terms);
  const joiner = query.mode === 'all' ? ' AND ' : ' OR ';
  return query.terms.map((t) => quote(t, query.mode === 'prefix')).join(joiner);
}

/**
 * Turns a backend-neutral {@link TextQuery} into an FTS5 MATCH expression. Every term is quoted,
 * so operators (AND, OR, NOT, NEAR), column filters (`title:`), parentheses, `*`, `^`, `+`, `-`
 * and quotes inside a term are plain text. Pure: no SQL is run here.
 */
import type { TextQuery } from '../contract/text-index.js';

function quote(term: string, prefix: boolean): string {
  return `"${term.replaceAll('"', '""')}"${prefix ? '*' : ''}`;
}

/**
 * The MATCH expression for `query`, or undefined when it has no term (or is a `substring` query,
 * which FTS5 does not answer).
 *
 * @example
 * ftsMatch({ terms: ['not', 'title'], mode: 'all' }); // '"not" AND "title"'
 */
export function ftsMatch(query: TextQuery): string | undefined {
  if (query.terms.length === 0 || query.mode === 'substring') return undefined;
  const joiner = query.mode === 'all' ? ' AND ' : ' OR ';
  return query.terms.map((t) => quote(t, query.mode === 'prefix')).join(joiner);
}

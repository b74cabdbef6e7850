import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { MAX_TERMS, queryTerms } from '../../search/fts-query.js';
import type { TextMode } from '../contract/text-index.js';
import { ftsMatch } from './fts-match.js';

/** What search does with a user's text: its terms, then the MATCH expression for a mode. */
function buildFtsQuery(text: string, { mode = 'all' }: { mode?: TextMode } = {}) {
  const terms = queryTerms(text);
  return { terms, match: ftsMatch({ terms, mode }) };
}

test('operators, column filters and punctuation become quoted plain terms', () => {
  assert.equal(buildFtsQuery('NOT title:(secret) OR "x"').match, '"not" AND "title" AND "secret" AND "x"');
  assert.equal(buildFtsQuery('a NEAR/3 b* ^c +d -e').match, '"near" AND "3" AND "b" AND "c" AND "d" AND "e"');
});

test('stopwords are dropped unless nothing else is left', () => {
  assert.deepEqual(queryTerms('What is the password policy?'), ['password', 'policy']);
  assert.deepEqual(queryTerms('Quelle est la politique des mots de passe ?'), ['quelle', 'politique', 'mots', 'passe']);
  assert.deepEqual(queryTerms('to be or not to be'), ['not'], 'negations carry meaning');
  assert.deepEqual(queryTerms('The Who'), ['the', 'who']);
});

test('modes: all terms, any term, prefixes', () => {
  assert.equal(buildFtsQuery('jwt auth', { mode: 'any' }).match, '"jwt" OR "auth"');
  assert.equal(buildFtsQuery('jwt auth', { mode: 'prefix' }).match, '"jwt"* OR "auth"*');
});

test('near: each term with the next two, within the window; quotes stay plain; one term has none', () => {
  assert.equal(
    ftsMatch({ terms: ['breast', 'cancer', 'aldh1'], mode: 'near' }),
    'NEAR("breast" "cancer", 8) OR NEAR("breast" "aldh1", 8) OR NEAR("cancer" "aldh1", 8)',
  );
  assert.equal(ftsMatch({ terms: ['a"b', 'c'], mode: 'near' }), 'NEAR("a""b" "c", 8)');
  assert.equal(ftsMatch({ terms: ['alone'], mode: 'near' }), undefined);
  const long = ftsMatch({ terms: Array.from({ length: MAX_TERMS }, (_, i) => `w${i}`), mode: 'near' }) ?? '';
  assert.equal(long.split(' OR ').length, 2 * 16 - 3, 'only the first 16 terms form pairs');
});

test('empty, blank, punctuation-only and emoji-only queries have no match expression', () => {
  for (const text of ['', '   ', '()*"^:-+', '🚀🔥', '\u0000\u200b\u202e']) {
    assert.equal(buildFtsQuery(text).match, undefined, JSON.stringify(text));
  }
});

test('invisible characters cannot split or hide a word; NFKC folds look-alike forms', () => {
  assert.deepEqual(queryTerms('pass\u200bword'), ['pass', 'word']);
  assert.deepEqual(queryTerms('ｐａｓｓｗｏｒｄ'), ['password']);
});

test('CJK runs are segmented when a segmenter is given; one-character segments are dropped', () => {
  const segment = (text: string) => (text === '密码至少8位' ? ['密码', '至少', '8', '位'] : [text]);
  assert.deepEqual(queryTerms('密码至少8位', segment), ['密码', '至少', '8']);
  assert.deepEqual(queryTerms('密码至少8位'), ['密码至少8位']);
});

test('a 10 KB query is capped in terms and term length', () => {
  const { terms } = buildFtsQuery(Array.from({ length: 2000 }, (_, i) => `w${i}${'x'.repeat(i % 100)}`).join(' '));
  assert.equal(terms.length, MAX_TERMS);
  assert.ok(terms.every((t) => t.length <= 64));
});

test('1,000+ hostile strings never produce an FTS5 syntax error', () => {
  const db = new Database(':memory:');
  db.exec('CREATE VIRTUAL TABLE f USING fts5(title, content, tokenize=\'porter unicode61 remove_diacritics 2\')');
  db.prepare('INSERT INTO f VALUES (?, ?)').run('NOT near AND', 'title: or "quoted" content 密码 🚀');
  const query = db.prepare('SELECT count(*) FROM f WHERE f MATCH ?').pluck();
  const pieces = [
    '"', '\'', '(', ')', '*', '-', '+', ':', '^', '{', '}', '[', ']', 'AND', 'OR', 'NOT', 'NEAR', 'NEAR/2',
    'title:', 'content:', '\\', '\u0000', '\u001f', '\u200b', '\u202e', '🚀', '👩‍💻', '密码', 'é', 'ß', '\n', '\t', ' ',
    'x', 'pass', '*:', '""', '\'\'', '%', '_', ';', '--', '/*', 'SELECT', 'DROP TABLE f;', '\ud800', '\udfff',
  ];
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const cases: string[] = [...pieces, 'x'.repeat(10 * 1024), `${'a '.repeat(5000)}`, pieces.join('')];
  while (cases.length < 1200) {
    const length = 1 + Math.floor(random() * 12);
    cases.push(Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)] ?? '').join(random() < 0.5 ? '' : ' '));
  }
  for (const text of cases) {
    for (const mode of ['all', 'any', 'prefix'] as const) {
      const { match } = buildFtsQuery(text, { mode });
      if (match !== undefined) assert.doesNotThrow(() => query.get(match), JSON.stringify(text));
    }
  }
  db.close();
});

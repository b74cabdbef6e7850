/**
 * Cutting a refused chunk into pieces (src/ingest/split-refused.ts), judged by the real policy as
 * ingest judges them: a piece is refused by its own verdict or by a secret of the whole text that
 * reaches it. Hostile text comes from the fixtures.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Chunk } from '../src/ingest/chunk.js';
import { type PieceJudge, splitRefused } from '../src/ingest/split-refused.js';
import { evaluatePolicy } from '../src/policy/evaluate.js';
import { secretSpans } from '../src/policy/secret-spans.js';
import { hostile } from './helpers.js';

const ACCESS_KEY = hostile('secret', /^aws access key \/ context 1$/);
const SECRET_KEY = hostile('secret', /^aws secret key \/ context 1$/);

function policyJudge(text: string): PieceJudge {
  const spans = secretSpans(text);
  return (piece, start, end) => {
    const from = start + piece.content.length - piece.content.trimStart().length;
    const to = end - (piece.content.length - piece.content.trimEnd().length);
    const rules = new Set(evaluatePolicy({ content: piece.content }).matches.filter((m) => m.action === 'reject').map((m) => m.rule));
    for (const s of spans) if (s.start < to && s.end > from) rules.add(s.rule);
    return rules.size > 0 ? [...rules] : undefined;
  };
}

/** The pieces of `text` (a chunk starting at line `first`) as [line_start, line_end, rules or 'kept']. */
function split(text: string, first = 1): (number | string | string[])[][] {
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const chunk: Chunk = { content: text, line_start: first, line_end: first + lines - 1 };
  const judge = policyJudge(text);
  const rules = judge(chunk, 0, text.length);
  assert.ok(rules !== undefined, 'the whole text is refused');
  const pieces = splitRefused(chunk, rules, judge);
  assert.equal(pieces.map((p) => p.content).join(''), text, 'the pieces give back the chunk');
  return pieces.map((p) => [p.line_start, p.line_end, p.refused ?? 'kept']);
}

test('a secret in one Markdown section refuses its lines only; the other sections are kept', () => {
  const text = `# Deploy\n\nDeploys go through staging.\n\n# Credentials\n\n${ACCESS_KEY}\n${SECRET_KEY}\n\n# Cache\n\nThe TTL is 300 s.\n`;
  assert.deepEqual(split(text, 10), [
    [10, 15, 'kept'],
    [16, 18, ['secret.aws-access-key', 'secret.aws-secret-key', 'secret.assignment']],
    [19, 21, 'kept'],
  ]);
});

test('a file that is only the secret is one refused piece', () => {
  assert.deepEqual(split(`${ACCESS_KEY}\n${SECRET_KEY}\n`), [
    [1, 2, ['secret.aws-access-key', 'secret.aws-secret-key', 'secret.assignment']],
  ]);
});

test('a line is the smallest piece: a long line holding a secret is refused whole', () => {
  const line = hostile('secret', /^aws access key \/ context 2$/);
  assert.deepEqual(split(`Before.\n\n${line} ${'Innocent words follow. '.repeat(20)}\n`), [
    [1, 2, 'kept'],
    [3, 3, ['secret.aws-access-key']],
  ]);
});

test('a token split over lines: the joined view pins its lines, or its paragraph is refused whole', () => {
  // The secret spans read the text with its lines joined, so the lines holding the pieces are known.
  const split1 = hostile('secret', /^aws access key \/ split across lines$/);
  assert.deepEqual(split(`Intro.\n\n${split1}\nthen more.\n`), [[1, 3, 'kept'], [4, 6, ['secret.aws-access-key']], [7, 7, 'kept']]);
  // One whole key and one split key: each is pinned to its own lines; the label line between is kept.
  const split2 = hostile('secret', /^aws access key \(sts\) \/ split across lines$/);
  assert.deepEqual(split(`Intro.\n\n${ACCESS_KEY}\n${split2}`), [
    [1, 2, 'kept'],
    [3, 3, ['secret.aws-access-key']],
    [4, 4, 'kept'],
    [5, 6, ['secret.aws-access-key']],
  ]);
  // A secret split over lines alone in its chunk: its lines are refused, the label line before is kept.
  const split3 = hostile('secret', /^aws secret key \/ split across lines$/);
  assert.deepEqual(split(split3), [[1, 1, 'kept'], [2, 3, ['secret.assignment', 'secret.aws-secret-key']]]);
});

test('a private key block inside a paragraph: the lines around it are kept, every line of it refused', () => {
  const block = hostile('secret', /^rsa private key \/ context 1$/);
  const text = `Rotate the deploy key every quarter.\n${block}\nThe public half lives in the vault.\n`;
  const blockLines = block.split('\n').length;
  assert.deepEqual(split(text), [[1, 1, 'kept'], [2, 1 + blockLines, ['secret.private-key']], [2 + blockLines, 2 + blockLines, 'kept']]);
});

test('blank lines go with the piece before them, leading ones with the piece after', () => {
  assert.deepEqual(split(`\n\n${ACCESS_KEY}\n\n\nText.\n\n`), [[1, 5, ['secret.aws-access-key']], [6, 7, 'kept']]);
  assert.deepEqual(split(`\n\nText.\n\n${ACCESS_KEY}\n\n`), [[1, 4, 'kept'], [5, 6, ['secret.aws-access-key']]]);
});

test('a refusal that names no rule cannot be pinned to a piece: the chunk stays refused whole', () => {
  const chunk: Chunk = { content: 'one\n\ntwo\n', line_start: 1, line_end: 3 };
  const pieces = splitRefused(chunk, [], () => undefined);
  assert.deepEqual(pieces.map((p) => [p.line_start, p.line_end, p.refused]), [[1, 3, []]]);
});

test('invariants over generated text: exact cover, exact line ranges, nothing refused is kept', () => {
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const words = ['alpha', 'beta', 'SECRET', '# Head', '', '', 'gamma delta', '   ', 'x'];
  // A judge with a known answer: a piece is refused when it holds SECRET.
  const judge: PieceJudge = (piece) => (piece.content.includes('SECRET') ? ['secret.test'] : undefined);
  for (let round = 0; round < 300; round++) {
    const pick = () => words[Math.floor(random() * words.length)];
    const lines = Array.from({ length: 1 + Math.floor(random() * 30) }, pick);
    let text = lines.join('\n') + (random() < 0.5 ? '\n' : '');
    if (!text.includes('SECRET')) text = `SECRET\n${text}`;
    const first = 1 + Math.floor(random() * 50);
    const chunk: Chunk = { content: text, line_start: first, line_end: first + text.split('\n').length };
    const pieces = splitRefused(chunk, ['secret.test'], judge);
    assert.equal(pieces.map((p) => p.content).join(''), text);
    for (const [i, p] of pieces.entries()) {
      assert.equal(p.content, text.slice(p.start, p.end));
      assert.equal(p.line_start, first + text.slice(0, p.start).split('\n').length - 1, 'line_start counts the breaks before');
      const breaks = p.content.split('\n').length - 1;
      assert.equal(p.line_end, p.line_start + breaks - (p.content.endsWith('\n') && breaks > 0 ? 1 : 0));
      if (p.refused === undefined) assert.equal(p.content.includes('SECRET'), false);
      else assert.deepEqual(p.refused, ['secret.test']);
      const next = pieces[i + 1];
      if (next !== undefined) {
        assert.equal(next.start, p.end);
        assert.notEqual(next.refused === undefined, p.refused === undefined, 'neighbours differ: like pieces are joined');
      }
      // A line is never cut: every piece but the last ends with a line break.
      if (next !== undefined) assert.ok(p.content.endsWith('\n'));
    }
  }
});

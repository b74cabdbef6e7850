import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseReply } from './protocol.js';
import { repeatedQuery, textSimilarity } from './similarity.js';

test('json protocol: the first non-blank line is the directive, the rest the answer', () => {
  assert.deepEqual(parseReply('\n{"need_more": true, "query": " token expiry ", "stop": false}\n\nJWT, 1 h.\n', 'json'), {
    directive: { need_more: true, query: 'token expiry', stop: false },
    answer: 'JWT, 1 h.',
  });
  assert.deepEqual(parseReply('`{"stop": true}`\r\nDone.', 'json').directive, { need_more: false, query: null, stop: true });
  assert.deepEqual(parseReply('{}', 'json'), { directive: { need_more: false, query: null, stop: false }, answer: '' });
});

test('json protocol: anything else on the first line leaves the reply unparsed and whole', () => {
  for (const reply of ['Sure! Here is the answer.\nJWT.', '["need_more"]\nx', '{"need_more": "yes"}\nx', '{"query": 3}\nx', 'null', '']) {
    const parsed = parseReply(reply, 'json');
    assert.equal(parsed.directive, null, reply);
    assert.equal(parsed.answer, reply.trimEnd());
  }
});

test('regex protocol: directive lines anywhere, removed from the answer', () => {
  assert.deepEqual(parseReply('Draft answer.\nNEED_MORE: yes\nquery: refresh tokens\nMore text.', 'regex'), {
    directive: { need_more: true, query: 'refresh tokens', stop: false },
    answer: 'Draft answer.\nMore text.',
  });
  assert.deepEqual(parseReply('STOP: yes\nFinal.', 'regex').directive, { need_more: false, query: null, stop: true });
  assert.deepEqual(parseReply('QUERY: x\nA', 'regex').directive, { need_more: true, query: 'x', stop: false });
  assert.equal(parseReply('No directive here.', 'regex').directive, null);
  assert.equal(parseReply('NEED_MORE: perhaps\nA', 'regex').directive, null);
});

test('passive protocol: the whole reply is the answer', () => {
  assert.deepEqual(parseReply('{"need_more": true, "query": "x"}\nA\n', 'passive'), {
    directive: { need_more: false, query: null, stop: true },
    answer: '{"need_more": true, "query": "x"}\nA',
  });
});

test('similarity: trigram cosine after normalisation, deterministic and symmetric', () => {
  assert.equal(textSimilarity('Tokens expire after 1 hour.', 'tokens   EXPIRE after 1 hour'), 1);
  assert.equal(textSimilarity('', '  ...  '), 1);
  assert.equal(textSimilarity('', 'a'), 0);
  const a = 'The service signs JWTs with RS256 and they expire after one hour.';
  const b = 'The service signs JWTs with RS256; they expire after one hour, refresh after 30 days.';
  const s = textSimilarity(a, b);
  assert.equal(s, textSimilarity(b, a));
  assert.ok(s > 0.7 && s < 0.92, String(s));
  assert.ok(textSimilarity('deploy with blue green', 'postgres schema migrations') < 0.2);
  assert.ok(textSimilarity('数据库 迁移 步骤', '数据库 迁移 的 步骤') > 0.6);
});

test('repeatedQuery: equal once normalised, or similar enough, to any query tried', () => {
  const tried = ['How does auth work?', 'token expiry'];
  assert.equal(repeatedQuery('TOKEN expiry!', tried, 0.9), 'token expiry');
  assert.equal(repeatedQuery('how does auth work', tried, 0.9), 'How does auth work?');
  assert.equal(repeatedQuery('refresh token rotation', tried, 0.9), undefined);
  assert.equal(repeatedQuery('token expiry time', tried, 0.5), 'token expiry');
});

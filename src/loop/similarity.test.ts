import assert from 'node:assert/strict';
import { test } from 'node:test';
import { repeatedQuery, textSimilarity } from './similarity.js';

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

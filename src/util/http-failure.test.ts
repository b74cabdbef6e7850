import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bodyExcerpt, displayUrl, networkFailure, redact, retryAfterMs, shownFailure, statusFailure } from './http-failure.js';
import { retryDelay } from './http-post.js';

test('Retry-After: seconds (decimals too) or an HTTP date; anything else is ignored', () => {
  assert.equal(retryAfterMs('2'), 2000);
  assert.equal(retryAfterMs(' 0.25 '), 250);
  assert.equal(retryAfterMs(null), undefined);
  assert.equal(retryAfterMs('soon'), undefined);
  assert.equal(retryAfterMs('-1'), undefined);
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(retryAfterMs('Thu, 01 Jan 2026 00:00:03 GMT', now), 3000);
  assert.equal(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now), 0);
});

test('retry delays double with equal jitter, never past the cap; Retry-After wins, capped', () => {
  const policy = { backoffMs: 100, maxDelayMs: 1_000 };
  assert.deepEqual([1, 2, 3, 4, 5].map((n) => retryDelay(n, undefined, policy, () => 0)), [50, 100, 200, 400, 500]);
  const longest = [1, 2, 3, 4, 5].map((n) => Math.round(retryDelay(n, undefined, policy, () => 0.999999)));
  assert.deepEqual(longest, [100, 200, 400, 800, 1000]);
  assert.equal(retryDelay(1, 300, policy), 300);
  assert.equal(retryDelay(1, 60_000, policy), 1_000);
  assert.equal(retryDelay(40, undefined, { backoffMs: 250, maxDelayMs: 10_000 }, () => 1), 10_000);
});

test('statuses: 408, 429 and 5xx are retried; other 4xx are refusals', () => {
  assert.deepEqual(statusFailure(429, '', '1'), {
    cause: 'HTTP 429: (empty answer)', retry: true, retryAfterMs: 1000, rateLimited: true,
  });
  assert.equal(statusFailure(408, '', null).retry, true);
  assert.equal(statusFailure(408, '', null).rateLimited, undefined, 'only 429 is a rate limit');
  assert.equal(statusFailure(502, '', null).retry, true);
  for (const status of [400, 401, 403, 404, 413, 422]) {
    const failure = statusFailure(status, 'x', '5');
    assert.equal(failure.retry, false);
    assert.equal(failure.refusedStatus, status);
    assert.equal(failure.retryAfterMs, undefined);
  }
});

test('answer excerpts: the error message of JSON errors, one line, no control characters, short', () => {
  assert.equal(bodyExcerpt('{"error":{"message":"Incorrect API key"}}'), '"Incorrect API key"');
  assert.equal(bodyExcerpt('{"error":"model \\"m\\" not found"}'), '"model \\"m\\" not found"');
  assert.equal(bodyExcerpt('{"detail":"x"}'), '"{\\"detail\\":\\"x\\"}"');
  assert.equal(bodyExcerpt('line one\r\n\tline\u0007two\u001b[31m'), '"line one line two [31m"');
  assert.equal(bodyExcerpt(' \n '), '(empty answer)');
  const long = bodyExcerpt('y'.repeat(5_000));
  assert.equal(long, `"${'y'.repeat(160)}…"`);
});

test('network errors are named by their code, through causes and aggregate errors', () => {
  const refused = new TypeError('fetch failed', { cause: new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]) });
  assert.deepEqual(networkFailure(refused), { cause: 'connection refused', retry: true });
  const reset = new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
  assert.equal(networkFailure(reset).cause, 'connection closed by the server');
  assert.equal(networkFailure(new TypeError('fetch failed', { cause: Object.assign(new Error('?'), { code: 'EPROTO' }) })).cause, 'network error (EPROTO)');
  assert.equal(networkFailure(new TypeError('fetch failed')).cause, 'network error (fetch failed)');
});

test('URLs lose their user and password; secrets are cut out of messages', () => {
  assert.equal(displayUrl('http://user:pw@host:1/v1/embeddings'), 'http://host:1/v1/embeddings');
  assert.equal(redact('a KEY b KEY', 'KEY'), 'a [redacted] b [redacted]');
  assert.equal(redact('a KEY', ''), 'a KEY');
  const shown = shownFailure({ id: 'openai:m', url: 'http://u:KEY@h/v1/chat/completions', secret: 'KEY' }, statusFailure(500, 'KEY', null));
  assert.deepEqual(shown, { where: 'openai:m at http://h/v1/chat/completions', url: 'http://h/v1/chat/completions', why: 'HTTP 500: "[redacted]"' });
});

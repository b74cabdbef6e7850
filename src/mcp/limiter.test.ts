import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngramError } from '../errors.js';
import { DEFAULT_LIMITS, RateLimiter } from './limiter.js';

const limited = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof EngramError && error.code === 'RATE_LIMITED') return error.details;
    throw error;
  }
  return undefined;
};

test('token bucket: 60 a minute, 90 in a burst, refilled one per second', () => {
  let now = 0;
  const limiter = new RateLimiter(DEFAULT_LIMITS, () => now);
  for (let i = 0; i < 90; i++) assert.equal(limited(() => limiter.take('s', 'memory_search')), undefined, `call ${i + 1}`);
  assert.equal(limited(() => limiter.take('s', 'memory_search'))?.retry_after_ms, 1000);
  now += 500;
  assert.equal(limited(() => limiter.take('s', 'memory_search'))?.retry_after_ms, 500);
  now += 500;
  assert.equal(limited(() => limiter.take('s', 'memory_search')), undefined, 'one token back after a second');
  assert.equal(limited(() => limiter.take('other', 'memory_search')), undefined, 'buckets are per session');
  now += 120_000;
  assert.equal(limiter.state('s').tokens, 90, 'never more than the burst');
});

test('proposals per turn: capped at 10, reset by a new turn or an idle gap; off when disabled', () => {
  let now = 0;
  const limiter = new RateLimiter(DEFAULT_LIMITS, () => now);
  limiter.take('s', 'memory_propose');
  limiter.propose('s', 7);
  assert.deepEqual(limited(() => limiter.propose('s', 4)), {
    retry_after_ms: 120_000,
    reason: 'proposals_per_turn',
    proposals_this_turn: 7,
    proposals_limit: 10,
  });
  limiter.propose('s', 3);
  assert.equal(limiter.newTurn('s'), 2);
  limiter.propose('s', 10);
  now += 119_999;
  limiter.take('s', 'memory_propose');
  assert.ok(limited(() => limiter.propose('s', 1)), 'a gap just short of idle keeps the turn');
  now += 120_000;
  limiter.take('s', 'memory_propose');
  assert.equal(limiter.state('s').current_turn, 3, 'an idle gap starts a turn');
  limiter.propose('s', 10);

  const off = new RateLimiter({ ...DEFAULT_LIMITS, enabled: false }, () => now);
  for (let i = 0; i < 500; i++) off.take('s', 'memory_search');
  off.propose('s', 100);
  off.checkContent('x'.repeat(10_000));
  assert.throws(() => limiter.checkContent('x'.repeat(5001)), /over the 5000 limit/);
  limiter.checkContent('x'.repeat(5000));
});

test('prune forgets keys idle past the limit (and never one still refilling or in its turn)', () => {
  let now = 0;
  const limiter = new RateLimiter(DEFAULT_LIMITS, () => now);
  for (let i = 0; i < 90; i++) limiter.take('client/a', 'memory_search');
  limiter.take('client/b', 'memory_search');
  now += 60_000;
  limiter.take('client/b', 'memory_search');
  assert.equal(limiter.prune(1000), 0, 'a bucket is kept until full again and past the idle turn');
  now += 61_000;
  assert.equal(limiter.prune(1000), 1, 'client/a: idle 121 s, full again');
  assert.equal(limiter.size, 1);
  assert.equal(limiter.state('client/a').tokens, 90, 'a forgotten key starts full');
  now += 10 * 60_000;
  assert.equal(limiter.prune(15 * 60_000), 0, 'the session idle limit, when longer, rules');
});

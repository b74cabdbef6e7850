import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCanonicalTimestamp, parseTime } from './time.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');

test('durations count back for past bounds and forward for expiries', () => {
  assert.equal(parseTime('7d', NOW, 'past'), '2026-11-15T12:00:00.000Z');
  assert.equal(parseTime('24h', NOW, 'future'), '2026-11-23T12:00:00.000Z');
  assert.equal(parseTime('90m', NOW, 'past'), '2026-11-22T10:30:00.000Z');
  assert.equal(parseTime('2w', NOW, 'past'), '2026-11-08T12:00:00.000Z');
});

test('dates become canonical UTC timestamps; nonsense is rejected', () => {
  assert.equal(parseTime('2026-11-01', NOW, 'past'), '2026-11-01T00:00:00.000Z');
  assert.equal(parseTime('2026-11-01T10:00:00+02:00', NOW, 'past'), '2026-11-01T08:00:00.000Z');
  assert.equal(parseTime('yesterday', NOW, 'past'), undefined);
  assert.equal(parseTime('2026-13-45', NOW, 'past'), undefined);
  assert.equal(parseTime('', NOW, 'past'), undefined);
});

test('only toISOString output counts as canonical', () => {
  assert.equal(isCanonicalTimestamp('2026-11-22T12:00:00.000Z'), true);
  assert.equal(isCanonicalTimestamp('2026-11-22'), false);
  assert.equal(isCanonicalTimestamp('2026-11-22T12:00:00Z'), false);
  assert.equal(isCanonicalTimestamp('garbage'), false);
});

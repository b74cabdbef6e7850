import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngramError } from '../errors.js';
import { parseInput } from './parse-input.js';
import { listFilterSchema, putInputSchema } from './schemas.js';

function paramError(fn: () => unknown): EngramError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof EngramError);
    assert.equal(error.code, 'PARAM_ERROR');
    return error;
  }
  assert.fail('expected PARAM_ERROR');
}

test('a bad enum value names the field and lists the valid values', () => {
  const error = paramError(() => parseInput(putInputSchema, { content: 'x', tier: 'forever' }));
  assert.match(error.message, /tier/);
  assert.equal(error.hint, 'Valid values: stm, mtm, ltm');
});

test('unknown fields are refused rather than ignored', () => {
  const error = paramError(() => parseInput(putInputSchema, { content: 'x', colour: 'red' }));
  assert.match(error.message, /colour/);
});

test('numbers out of range and malformed timestamps are PARAM_ERROR', () => {
  paramError(() => parseInput(putInputSchema, { content: 'x', confidence: 1.5 }));
  paramError(() => parseInput(putInputSchema, { content: 'x', if_version: -1 }));
  paramError(() => parseInput(listFilterSchema, { since: 'last week' }));
  paramError(() => parseInput(putInputSchema, { content: 'x', id: 'has space' }));
});

test('valid input passes through', () => {
  const parsed = parseInput(listFilterSchema, { tier: 'ltm', limit: 5, tags: ['a'] });
  assert.deepEqual(parsed, { tier: 'ltm', limit: 5, tags: ['a'] });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngramError, EXIT_CODES, toEngramError } from './errors.js';

test('exit codes follow memtool: 1 general, 2 params, 3 not found, 4 database', () => {
  assert.deepEqual(EXIT_CODES, {
    GENERAL_ERROR: 1,
    CONFLICT: 1,
    EMPTY_INPUT: 1,
    POLICY_REJECTED: 1,
    PARAM_ERROR: 2,
    NOT_FOUND: 3,
    DB_ERROR: 4,
    DB_BUSY: 4,
    STORE_CORRUPT: 4,
    RATE_LIMITED: 1,
    UNAUTHORIZED: 1,
    EMBEDDER_UNAVAILABLE: 1,
    LLM_ERROR: 1,
    LLM_TIMEOUT: 1,
  });
});

test('JSON form puts ok, error, message, hint first and never lets details override them', () => {
  const error = new EngramError('NOT_FOUND', 'No memory item with id X', {
    hint: 'look elsewhere',
    details: { id: 'X', ok: true, error: 'spoofed' },
  });
  const json = error.toJSON();
  assert.deepEqual(Object.keys(json), ['ok', 'error', 'message', 'hint', 'id']);
  assert.equal(json.ok, false);
  assert.equal(json.error, 'NOT_FOUND');
  assert.equal(error.exitCode, 3);
});

test('DB_BUSY, RATE_LIMITED and EMBEDDER_UNAVAILABLE say they are retryable; others do not', () => {
  assert.equal(new EngramError('DB_BUSY', 'locked').toJSON().retryable, true);
  assert.equal(new EngramError('EMBEDDER_UNAVAILABLE', 'down').toJSON().retryable, true);
  assert.equal(new EngramError('RATE_LIMITED', 'slow down').toJSON().retryable, true);
  assert.equal(new EngramError('DB_ERROR', 'bad').toJSON().retryable, undefined);
});

test('unknown failures become a generic GENERAL_ERROR that keeps the cause but not its text', () => {
  const cause = new TypeError('secret internal detail');
  const error = toEngramError(cause);
  assert.equal(error.code, 'GENERAL_ERROR');
  assert.doesNotMatch(error.message, /secret/);
  assert.equal(error.cause, cause);
  const known = new EngramError('CONFLICT', 'x');
  assert.equal(toEngramError(known), known);
});

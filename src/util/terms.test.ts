import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normaliseTerms, splitCommaList } from './terms.js';

test('tags are trimmed, lowercased, deduplicated in first-seen order, empties dropped', () => {
  assert.deepEqual(normaliseTerms([' Auth ', 'auth', 'DB', '', '  ', 'db', 'Éte']), [
    'auth',
    'db',
    'éte',
  ]);
  assert.deepEqual(normaliseTerms([]), []);
});

test('comma lists from repeated flags are flattened', () => {
  assert.deepEqual(splitCommaList(['a,b', 'c', ',d,']), ['a', 'b', 'c', '', 'd', '']);
});

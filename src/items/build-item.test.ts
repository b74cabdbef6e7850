import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createItem, hasChanges, mergeFields, nextVersion } from './build-item.js';

const T0 = '2026-11-22T12:00:00.000Z';
const T1 = '2026-11-22T13:00:00.000Z';

test('a new item takes the defaults, normalised tags and a content hash', () => {
  const item = createItem('MEM-0123456789ab', { content: 'hello', tags: ['A', 'a', ' b '] }, T0);
  assert.equal(item.version, 1);
  assert.equal(item.tier, 'stm');
  assert.equal(item.type, 'note');
  assert.equal(item.scope, 'project');
  assert.deepEqual(item.tags, ['a', 'b']);
  assert.equal(
    item.content_hash,
    '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
  );
  assert.equal(item.created_at, T0);
});

test('merge keeps fields that were not given and replaces those that were', () => {
  const item = createItem('MEM-0123456789ab', { content: 'v1', tags: ['x'], confidence: 0.9 }, T0);
  const merged = mergeFields(item, { content: 'v2', tier: 'ltm' });
  assert.equal(merged.content, 'v2');
  assert.equal(merged.tier, 'ltm');
  assert.deepEqual(merged.tags, ['x']);
  assert.equal(merged.confidence, 0.9);
  assert.equal(merged.version, 1, 'merge alone does not bump the version');
});

test('only real changes count; the next version is +1 and stamped', () => {
  const item = createItem('MEM-0123456789ab', { content: 'v1', tags: ['x'] }, T0);
  assert.equal(hasChanges(item, mergeFields(item, { content: 'v1', tags: ['X'] })), false);
  assert.equal(hasChanges(item, mergeFields(item, { content: 'v1', tags: ['y'] })), true);
  const next = nextVersion(item, mergeFields(item, { content: 'v2' }), T1);
  assert.equal(next.version, 2);
  assert.equal(next.updated_at, T1);
  assert.equal(next.created_at, T0);
});

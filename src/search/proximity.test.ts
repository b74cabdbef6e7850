import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createItem } from '../items/build-item.js';
import type { ScoredItem } from '../store/store.js';
import { PROXIMITY_SHARE, withProximity } from './proximity.js';

const hit = (id: string, score: number): ScoredItem => ({
  item: createItem(id, { content: id }, '2026-11-22T00:00:00.000Z'),
  score,
});

test('a hit holding query words close together gains a share of its proximity score', () => {
  const ranked = withProximity([hit('spread', 5), hit('close', 4.8)], [hit('close', 6)]);
  assert.deepEqual(
    ranked.map((h) => [h.item.id, h.score, h.proximity]),
    [['close', 4.8 + PROXIMITY_SHARE * 6, PROXIMITY_SHARE * 6], ['spread', 5, 0]],
  );
});

test('proximity only re-orders: no hit is added or dropped, and without pairs nothing moves', () => {
  const hits = [hit('a', 3), hit('b', 2)];
  assert.deepEqual(withProximity(hits, [hit('elsewhere', 9)]).map((h) => [h.item.id, h.score]), [['a', 3], ['b', 2]]);
  assert.deepEqual(withProximity(hits, []).map((h) => [h.item.id, h.score]), [['a', 3], ['b', 2]]);
  assert.equal(hits[1]?.score, 2, 'the incoming hits are not changed');
});

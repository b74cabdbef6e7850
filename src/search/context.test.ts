import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createItem } from '../items/build-item.js';
import type { AdjacentItem, ScoredItem } from '../store/store.js';
import { NEIGHBOUR_SHARE, withNeighbours } from './context.js';

const item = (id: string) => createItem(id, { content: id, source: 'chat' }, '2026-11-22T00:00:00.000Z');
const hit = (id: string, score: number): ScoredItem => ({ item: item(id), score });
const pair = (of: string, id: string): AdjacentItem => ({ of, item: item(id) });

test('a neighbour of a hit joins the candidates with half the hit\'s score', () => {
  const ranked = withNeighbours([hit('q', 8)], [pair('q', 'answer')], 10);
  assert.deepEqual(ranked.map((h) => [h.item.id, h.score, h.context]), [['q', 8, 0], ['answer', 8 * NEIGHBOUR_SHARE, 8 * NEIGHBOUR_SHARE]]);
});

test('hits next to each other lift each other; an item between two hits ranks by both', () => {
  const hits = [hit('a', 10), hit('b', 6), hit('c', 5)];
  const adjacent = [pair('b', 'c'), pair('c', 'b'), pair('b', 'x'), pair('a', 'y')];
  const ranked = withNeighbours(hits, adjacent, 10);
  assert.deepEqual(ranked.map((h) => [h.item.id, h.score]), [['a', 10], ['b', 8.5], ['c', 8], ['y', 5], ['x', 3]]);
});

test('an item matching no query word never outranks the best hit, even between two of them', () => {
  const ranked = withNeighbours([hit('top', 9), hit('next', 9)], [pair('top', 'gap'), pair('next', 'gap')], 10);
  assert.equal(ranked.find((h) => h.item.id === 'gap')?.score, 9);
  assert.deepEqual(ranked.slice(0, 2).map((h) => h.item.id), ['top', 'next'], 'ties keep the hits first');
});

test('file chunks lift each other but a chunk without the words is not brought in', () => {
  const chunk = (id: string) => ({ ...item(id), provenance: { chunk_index: 1, line_start: 1, line_end: 9 } });
  const hits = [{ item: chunk('c2'), score: 4 }, { item: chunk('c3'), score: 2 }];
  const adjacent = [{ of: 'c2', item: chunk('c1') }, { of: 'c2', item: chunk('c3') }, { of: 'c3', item: chunk('c2') }];
  assert.deepEqual(withNeighbours(hits, adjacent, 10).map((h) => [h.item.id, h.score]), [['c2', 5], ['c3', 4]]);
});

test('without neighbours the hits keep their order and scores; the limit applies', () => {
  const hits = [hit('a', 3), hit('b', 2), hit('c', 1)];
  assert.deepEqual(withNeighbours(hits, [], 10).map((h) => [h.item.id, h.score, h.context]), [['a', 3, 0], ['b', 2, 0], ['c', 1, 0]]);
  assert.deepEqual(withNeighbours(hits, [pair('a', 'z')], 2).map((h) => h.item.id), ['a', 'b']);
  assert.equal(hits[0]?.score, 3, 'the incoming hits are not changed');
});

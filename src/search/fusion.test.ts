import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createItem } from '../items/build-item.js';
import type { ScoredItem } from '../store/store.js';
import { fuseRanks, lexicalOnly, MIN_SIMILARITY, RRF_K, similarEnough, vectorOnly } from './fusion.js';

const AT = '2026-11-22T00:00:00.000Z';
const hit = (id: string, score: number): ScoredItem => ({ item: createItem(id, { content: id }, AT), score });
const ids = (hits: { item: { id: string } }[]) => hits.map((h) => h.item.id);

test('RRF sums 1/(60 + rank) over the lists holding an item; agreement outranks one first place', () => {
  assert.equal(RRF_K, 60);
  const lexical = [hit('A', 9), hit('B', 7), hit('C', 1)];
  const vector = [hit('D', 0.9), hit('C', 0.8), hit('B', 0.7)];
  const fused = fuseRanks(lexical, vector);
  assert.deepEqual(ids(fused), ['B', 'C', 'A', 'D']);
  const b = fused[0]!;
  assert.equal(b.score, 1 / 62 + 1 / 63);
  const { lexical_rank, lexical_score, vector_rank, similarity } = b;
  assert.deepEqual(
    { lexical_rank, lexical_score, vector_rank, similarity },
    { lexical_rank: 2, lexical_score: 7, vector_rank: 3, similarity: 0.7 },
  );
  const d = fused.find((h) => h.item.id === 'D')!;
  assert.equal(d.lexical_rank, undefined);
  assert.equal(d.score, 1 / 61);
  // A first lexically, D first by vector: equal scores keep the lexical list first.
  assert.ok(fused.indexOf(fused.find((h) => h.item.id === 'A')!) < fused.indexOf(d));
});

test('an empty list leaves the other one in order; a repeated id counts once per list', () => {
  assert.deepEqual(ids(fuseRanks([], [hit('X', 0.5), hit('Y', 0.4)])), ['X', 'Y']);
  assert.deepEqual(ids(fuseRanks([hit('X', 3), hit('Y', 2)], [])), ['X', 'Y']);
  const twice = fuseRanks([hit('X', 3), hit('X', 2)], [hit('X', 0.9), hit('X', 0.8)]);
  assert.equal(twice.length, 1);
  assert.equal(twice[0]!.score, 2 / 61);
  assert.equal(fuseRanks([hit('X', 1)], [hit('Y', 1)], 0)[0]!.score, 1, 'the constant is a parameter');
});

test('single-list modes keep the backend order and score; the similarity floor drops unrelated items', () => {
  const semantic = vectorOnly([hit('X', 0.9), hit('Y', 0.3)]);
  assert.deepEqual(semantic.map((h) => [h.vector_rank, h.similarity, h.score]), [[1, 0.9, 0.9], [2, 0.3, 0.3]]);
  const lexical = lexicalOnly([hit('X', 5)]);
  assert.deepEqual(lexical.map((h) => [h.lexical_rank, h.lexical_score, h.score]), [[1, 5, 5]]);
  assert.deepEqual(ids(similarEnough([hit('X', MIN_SIMILARITY), hit('Y', MIN_SIMILARITY - 0.01)])), ['X']);
});

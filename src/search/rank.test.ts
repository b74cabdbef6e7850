import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createItem } from '../items/build-item.js';
import type { MemoryItem } from '../types.js';
import { rankFactors, recency, sortRanked } from './rank.js';

const NOW = new Date('2026-11-22T00:00:00.000Z');
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();
const item = (fields: Partial<MemoryItem> = {}): MemoryItem => ({ ...createItem('MEM-1', { content: 'x' }, daysAgo(0)), ...fields });

test('recency halves at each layer half-life (run 14 d, feature 180 d, project 365 d)', () => {
  assert.equal(recency(item({ layer: 'run', updated_at: daysAgo(14) }), NOW).toFixed(6), '0.500000');
  assert.equal(recency(item({ layer: 'feature', updated_at: daysAgo(360) }), NOW).toFixed(6), '0.250000');
  assert.equal(recency(item({ layer: 'project', updated_at: daysAgo(365) }), NOW).toFixed(6), '0.500000');
  assert.equal(recency(item({ layer: null, updated_at: daysAgo(180) }), NOW).toFixed(6), '0.500000');
  assert.equal(recency(item({ updated_at: daysAgo(-5) }), NOW), 1, 'a future timestamp counts as now');
});

test('equal items keep BM25 order; tier, type, confidence, recency, weight and usage lift the score', () => {
  const base = rankFactors(item(), 4, 8, NOW);
  assert.equal(base.relevance, 0.5);
  assert.equal(base.final, 0.5 * 0.75 * 1 * 1);
  assert.ok(rankFactors(item({ tier: 'ltm' }), 4, 8, NOW).final > base.final);
  assert.ok(rankFactors(item({ type: 'decision' }), 4, 8, NOW).final > base.final);
  assert.ok(rankFactors(item({ confidence: 0.9 }), 4, 8, NOW).final > base.final);
  assert.ok(rankFactors(item({ updated_at: daysAgo(400) }), 4, 8, NOW).final < base.final);
  assert.ok(rankFactors(item({ weight: 1.5 }), 4, 8, NOW).final > base.final);
  assert.ok(rankFactors(item({ usage_count: 10 }), 4, 8, NOW).final > base.final);
  assert.equal(rankFactors(item({ weight: 50 }), 4, 8, NOW).weight, 2, 'weight is capped');
  assert.equal(rankFactors(item(), 0, 0, NOW).final, 0);
});

test('sorts: mixed = 0.6 confidence + 0.4 recency; ties keep the incoming order', () => {
  const hits = [
    { item: item({ id: 'a', confidence: 0.2 }), factors: rankFactors(item({ confidence: 0.2 }), 8, 8, NOW) },
    { item: item({ id: 'b', confidence: 0.9 }), factors: rankFactors(item({ confidence: 0.9 }), 2, 8, NOW) },
    { item: item({ id: 'c', confidence: 0.2 }), factors: rankFactors(item({ confidence: 0.2 }), 8, 8, NOW) },
  ];
  assert.deepEqual(sortRanked(hits, 'confidence').map((h) => h.item.id), ['b', 'a', 'c']);
  assert.deepEqual(sortRanked(hits, 'relevance').map((h) => h.item.id), ['a', 'c', 'b']);
  assert.equal(hits[1]?.factors.mixed, Number((0.6 * 0.9 + 0.4).toPrecision(6)));
});

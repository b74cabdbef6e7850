/**
 * The warm vector cache answers exactly as sqlite-vec does: a property test drives random writes,
 * removals, rolled-back transactions and writes from another connection, and after each one
 * compares the cached search with vec0's on the same file (ids in order, scores within 1e-5).
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { compileWat } from '../scripts/build-wasm.js';
import { createItem } from '../src/items/build-item.js';
import type { ListFilter, Store } from '../src/store/contract/index.js';
import { createSqliteStore } from '../src/store/sqlite/store.js';
import { bestSlots, createVectorCache, loadVectorCache } from '../src/store/sqlite/vector-cache.js';
import { VECTOR_SCAN_WASM } from '../src/store/sqlite/vector-scan-wasm.js';
import { VECTOR_TABLE } from '../src/store/sqlite/vectors.js';
import type { MemoryItem } from '../src/types.js';
import { seeded } from './adversarial/case.js';
import { tempDir } from './helpers.js';
import { runVectorContract } from './store-contract-vectors.js';

const SCOPES = ['alpha', 'beta', 'gamma'] as const;

function items(count: number, next: () => number): MemoryItem[] {
  return Array.from({ length: count }, (_, i) => {
    const id = `MEM-c${i.toString(16).padStart(11, '0')}`;
    const scope = SCOPES[Math.floor(next() * SCOPES.length)] as string;
    return { ...createItem(id, { content: `cached vector item ${i}` }, '2026-11-26T10:00:00.000Z'), scope };
  });
}

async function insertAll(store: Store, list: MemoryItem[]): Promise<void> {
  await store.transaction(async (tx) => {
    for (const item of list) {
      await tx.items.insert(item);
      await tx.text.put(item, { segmented: '' });
    }
  });
}

describe('warm vector cache', () => {
  test('the committed WebAssembly is the compiled vector-scan.wat', async () => {
    const wat = fileURLToPath(new URL('../../src/store/sqlite/vector-scan.wat', import.meta.url));
    assert.deepEqual(Array.from(await compileWat(wat)), Array.from(VECTOR_SCAN_WASM));
  });

  test('scores are cosine similarities; removed slots are never among the best', () => {
    const cache = createVectorCache(3, 4, 0);
    assert.ok(cache !== undefined);
    cache.set(10, Float32Array.of(2, 0, 0));
    cache.set(11, Float32Array.of(0, 3, 0));
    cache.set(12, Float32Array.of(1, 1, 0));
    const scores = cache.score(Float32Array.of(1, 0, 0));
    assert.ok(Math.abs((scores[0] as number) - 1) < 1e-6);
    assert.ok(Math.abs((scores[1] as number) - 0) < 1e-6);
    assert.ok(Math.abs((scores[2] as number) - Math.SQRT1_2) < 1e-6);
    assert.deepEqual(bestSlots(cache, scores, 2).map((s) => cache.rowidAt(s)), [10, 12]);
    cache.remove(10);
    const after = cache.score(Float32Array.of(1, 0, 0));
    assert.deepEqual(bestSlots(cache, after, 3).map((s) => cache.rowidAt(s)), [12, 11]);
    assert.equal(cache.size(), 2);
    assert.equal(createVectorCache(8192, 50_000, 0), undefined, 'over the memory bound: no cache');
  });

  test('it loads from vec0 storage, and refuses a count that does not match', async (t) => {
    const path = join(tempDir(t), 'memory.db');
    const store = createSqliteStore(path);
    t.after(() => store.close());
    const next = seeded(7);
    const list = items(300, next);
    await insertAll(store, list);
    const model = { id: 'test:cache', dimensions: 13 };
    await store.transaction(async (tx) => {
      for (const item of list) {
        await tx.vectors?.put(item.id, Float32Array.from({ length: 13 }, () => next() - 0.5), model);
      }
    });
    await store.vectors?.remove(list[5]?.id as string);
    const db = new Database(path, { readonly: true });
    t.after(() => db.close());
    sqliteVec.load(db);
    const cache = loadVectorCache(db, VECTOR_TABLE, 13, 299, 0);
    assert.ok(cache !== undefined, 'the vec0 layout this sqlite-vec writes is the one the cache reads');
    assert.equal(cache.size(), 299);
    assert.equal(loadVectorCache(db, VECTOR_TABLE, 13, 300, 0), undefined);
  });

  for (const dimensions of [3, 8, 13, 48]) {
    test(`property: cached nearest equals vec0's after every change (${dimensions} dimensions)`, async (t) => {
      const path = join(tempDir(t), 'memory.db');
      const warm = createSqliteStore(path, { vectorCache: 'eager' });
      const plain = createSqliteStore(path, { vectorCache: 'off' });
      t.after(async () => {
        await warm.close();
        await plain.close();
      });
      const next = seeded(dimensions * 101);
      const model = { id: 'test:cache', dimensions };
      const vector = () => Float32Array.from({ length: dimensions }, () => next() - 0.5);
      const list = items(120, next);
      await insertAll(warm, list);
      const pick = () => list[Math.floor(next() * list.length)] as MemoryItem;
      let checks = 0;
      for (let step = 0; step < 160; step++) {
        const action = next();
        const writer = next() < 0.75 ? warm : plain;
        if (action < 0.55) {
          await writer.transaction(async (tx) => {
            for (let n = 1 + Math.floor(next() * 4); n > 0; n--) await tx.vectors?.put(pick().id, vector(), model);
          });
        } else if (action < 0.7) {
          await writer.vectors?.remove(pick().id);
        } else if (action < 0.8) {
          await assert.rejects(writer.transaction(async (tx) => {
            await tx.vectors?.put(pick().id, vector(), model);
            await tx.vectors?.remove(pick().id);
            throw new Error('rolled back');
          }), /rolled back/);
        } else if (action < 0.85) {
          await writer.vectors?.put(pick().id, new Float32Array(dimensions), model);
        } else if (action < 0.88) {
          const gone = pick();
          await writer.transaction((tx) => tx.items.delete(gone.id));
          list.splice(list.indexOf(gone), 1);
        }
        const query = vector();
        const filter: ListFilter = next() < 0.5 ? {} : { scope: SCOPES[Math.floor(next() * 3)] as string };
        const limit = 1 + Math.floor(next() * 15);
        const got = await warm.vectors?.nearest(query, filter, limit);
        const want = await plain.vectors?.nearest(query, filter, limit);
        assert.deepEqual(got?.map((s) => s.item.id), want?.map((s) => s.item.id), `step ${step}`);
        got?.forEach((s, i) => assert.ok(Math.abs(s.score - (want?.[i]?.score as number)) < 1e-5, `step ${step} score`));
        checks += want?.length ?? 0;
      }
      assert.ok(checks > 500, `the comparisons saw results (${checks})`);
    });
  }
});

describe('store contract, vector section, with the cache from the first query', () => {
  runVectorContract((t) => createSqliteStore(join(tempDir(t), 'memory.db'), { vectorCache: 'eager' }));
});

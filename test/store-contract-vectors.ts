/**
 * The vector section of the store contract (`store.vectors`, optional): a backend without a vector
 * index skips it. Vectors are derived data: they go with their item and with its old text.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createItem } from '../src/items/build-item.js';
import type { Store, VectorIndex } from '../src/store/contract/index.js';
import type { MemoryItem } from '../src/types.js';

interface TestContext {
  after: (fn: () => void | Promise<void>) => void;
  skip: (reason: string) => void;
}

export type VectorStoreFactory = (t: TestContext) => Store | Promise<Store>;

const MODEL = { id: 'test:unit', dimensions: 4 };

let counter = 0;
function item(fields: Partial<MemoryItem> = {}): MemoryItem {
  counter++;
  const at = `2026-11-22T12:${String(Math.floor(counter / 60) % 60).padStart(2, '0')}:${String(counter % 60).padStart(2, '0')}.000Z`;
  const id = `MEM-v${counter.toString(16).padStart(11, '0')}`;
  return { ...createItem(id, { content: `vector content ${counter}` }, at), ...fields };
}

/** A unit vector from the given components. */
function vec(...values: number[]): Float32Array {
  const norm = Math.hypot(...values) || 1;
  return Float32Array.from(values.map((v) => v / norm));
}

async function openWithVectors(factory: VectorStoreFactory, t: TestContext): Promise<[Store, VectorIndex] | undefined> {
  const store = await factory(t);
  t.after(() => store.close());
  if (store.vectors === undefined) {
    t.skip('this backend keeps no vectors');
    return undefined;
  }
  return [store, store.vectors];
}

/** Stores each item's vector with {@link MODEL}, all in one transaction. */
async function putVectors(store: Store, ...pairs: (readonly [MemoryItem, Float32Array])[]): Promise<void> {
  await store.transaction(async (tx) => {
    for (const [i, v] of pairs) await tx.vectors?.put(i.id, v, MODEL);
  });
}

async function insertAll(store: Store, ...items: MemoryItem[]): Promise<void> {
  await store.transaction(async (tx) => {
    for (const i of items) {
      await tx.items.insert(i);
      await tx.text.put(i, { segmented: '' });
    }
  });
}

export function runVectorContract(factory: VectorStoreFactory): void {
  describe('vectors (optional slot)', () => {
    test('an empty index has no model; every item is pending, oldest first', async (t) => {
      const opened = await openWithVectors(factory, t);
      if (opened === undefined) return;
      const [store, vectors] = opened;
      const [a, b] = [item(), item()];
      await insertAll(store, b, a);
      assert.equal(await vectors.model(), undefined);
      assert.equal(await vectors.count(), 0);
      assert.equal(await vectors.missingCount(), 2);
      assert.deepEqual((await vectors.missing(10)).map((i) => i.id), [a.id, b.id]);
      assert.deepEqual(await vectors.nearest(vec(1, 0, 0, 0), {}, 5), []);
    });

    test('the first vector records the model; nearest orders by cosine similarity', async (t) => {
      const opened = await openWithVectors(factory, t);
      if (opened === undefined) return;
      const [store, vectors] = opened;
      const [a, b, c] = [item(), item(), item()];
      await insertAll(store, a, b, c);
      await putVectors(store, [a, vec(1, 0, 0, 0)], [b, vec(1, 1, 0, 0)], [c, vec(0, 0, 1, 0)]);
      assert.deepEqual(await vectors.model(), MODEL);
      assert.equal(await vectors.count(), 3);
      assert.equal(await vectors.missingCount(), 0);
      const hits = await vectors.nearest(vec(1, 0.1, 0, 0), {}, 2);
      assert.deepEqual(hits.map((h) => h.item.id), [a.id, b.id]);
      assert.ok(Math.abs((hits[0]?.score ?? 0) - 0.995) < 0.01, `cosine ${hits[0]?.score}`);
      assert.deepEqual(hits[0]?.item, a);
      const all = await vectors.nearest(vec(0, 0, 1, 0), {}, 10);
      assert.deepEqual(all.map((h) => h.item.id), [c.id, a.id, b.id]);
      assert.ok(Math.abs((all[0]?.score ?? 0) - 1) < 1e-5);
    });

    test('a vector of another model or dimension is refused and nothing is written', async (t) => {
      const opened = await openWithVectors(factory, t);
      if (opened === undefined) return;
      const [store, vectors] = opened;
      const [a, b] = [item(), item()];
      await insertAll(store, a, b);
      await store.transaction(async (tx) => tx.vectors?.put(a.id, vec(1, 0, 0, 0), MODEL));
      await assert.rejects(
        store.transaction(async (tx) => tx.vectors?.put(b.id, vec(1, 0, 0, 0), { ...MODEL, id: 'other' })),
        { code: 'PARAM_ERROR' },
      );
      await assert.rejects(
        store.transaction(async (tx) => tx.vectors?.put(b.id, vec(1, 0, 0, 0, 0), { id: MODEL.id, dimensions: 5 })),
        { code: 'PARAM_ERROR' },
      );
      await assert.rejects(store.transaction(async (tx) => tx.vectors?.put(b.id, vec(1, 0, 0), MODEL)), {
        code: 'PARAM_ERROR',
      });
      await assert.rejects(store.transaction(async (tx) => tx.vectors?.put('MEM-missing', vec(1, 0, 0, 0), MODEL)), {
        code: 'NOT_FOUND',
      });
      assert.equal(await vectors.count(), 1);
      assert.deepEqual(await vectors.model(), MODEL);
    });

    test('put replaces an item\'s vector; a rolled-back put leaves nothing', async (t) => {
      const opened = await openWithVectors(factory, t);
      if (opened === undefined) return;
      const [store, vectors] = opened;
      const [a, b] = [item(), item()];
      await insertAll(store, a, b);
      await store.transaction(async (tx) => tx.vectors?.put(a.id, vec(1, 0, 0, 0), MODEL));
      await store.transaction(async (tx) => tx.vectors?.put(a.id, vec(0, 1, 0, 0), MODEL));
      assert.equal(await vectors.count(), 1);
      assert.ok(((await vectors.nearest(vec(0, 1, 0, 0), {}, 1))[0]?.score ?? 0) > 0.999);
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.vectors?.put(b.id, vec(0, 0, 1, 0), MODEL);
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal(await vectors.count(), 1);
      assert.deepEqual((await vectors.missing(5)).map((i) => i.id), [b.id]);
    });

    test('deleting an item drops its vector; a changed title or content drops it, other changes keep it', async (t) => {
      const opened = await openWithVectors(factory, t);
      if (opened === undefined) return;
      const [store, vectors] = opened;
      const [a, b, c] = [item(), item(), item()];
      await insertAll(store, a, b, c);
      await putVectors(store, [a, vec(1, 0, 0, 0)], [b, vec(0, 1, 0, 0)], [c, vec(0, 0, 1, 0)]);
      const removed = await store.transaction((tx) => tx.items.delete(a.id));
      assert.equal(removed.memory_vectors, 1);
      assert.equal(await vectors.count(), 2);
      await store.transaction((tx) => tx.items.update({ ...b, tier: 'ltm', version: 2 }));
      assert.equal(await vectors.count(), 2, 'same text keeps the vector');
      await store.transaction((tx) => tx.items.update({ ...b, content: 'new text', version: 3 }));
      await store.transaction((tx) => tx.items.update({ ...c, title: 'new title', version: 2 }));
      assert.equal(await vectors.count(), 0);
      assert.deepEqual((await vectors.missing(5)).map((i) => i.id), [b.id, c.id]);
      assert.equal(await store.transaction(async (tx) => tx.vectors?.remove(b.id)), false);
      // A new item may take the deleted one's row: it starts without a vector.
      const d = item();
      await insertAll(store, d);
      assert.equal(await vectors.missingCount(), 3);
    });

    test('filters apply before the limit, even when every nearer vector is filtered out', async (t) => {
      const opened = await openWithVectors(factory, t);
      if (opened === undefined) return;
      const [store, vectors] = opened;
      const near = Array.from({ length: 150 }, () => item({ scope: 'crowd' }));
      const far = [item({ scope: 'lonely' }), item({ scope: 'lonely' })];
      const archived = item({ scope: 'lonely', archived: true });
      await insertAll(store, ...near, ...far, archived);
      await store.transaction(async (tx) => {
        for (const [i, n] of near.entries()) await tx.vectors?.put(n.id, vec(1, i / 1000, 0, 0), MODEL);
        await tx.vectors?.put(far[0]?.id ?? '', vec(0, 0, 1, 0.2), MODEL);
        await tx.vectors?.put(far[1]?.id ?? '', vec(0, 0, 0.2, 1), MODEL);
        await tx.vectors?.put(archived.id, vec(1, 0, 0, 0), MODEL);
      });
      const hits = await vectors.nearest(vec(1, 0, 0.1, 0), { scope: 'lonely' }, 2);
      assert.deepEqual(hits.map((h) => h.item.id), [far[0]?.id, far[1]?.id]);
      const withArchived = await vectors.nearest(vec(1, 0, 0, 0), { scope: 'lonely', archived: 'include' }, 1);
      assert.deepEqual(withArchived.map((h) => h.item.id), [archived.id]);
      assert.equal((await vectors.nearest(vec(1, 0, 0, 0), { scope: 'crowd' }, 200)).length, 150);
      assert.equal((await vectors.nearest(vec(1, 0, 0, 0), { scope: 'nobody' }, 3)).length, 0);
    });

    test('a filter that drops the first nearest items asks for more of them, in order', async (t) => {
      const opened = await openWithVectors(factory, t);
      if (opened === undefined) return;
      const [store, vectors] = opened;
      const near = Array.from({ length: 40 }, () => item({ scope: 'crowd' }));
      const middle = [item({ scope: 'lonely' }), item({ scope: 'lonely' })];
      const far = Array.from({ length: 100 }, () => item({ scope: 'crowd' }));
      await insertAll(store, ...near, ...middle, ...far);
      await store.transaction(async (tx) => {
        for (const [i, n] of near.entries()) await tx.vectors?.put(n.id, vec(1, i / 1000, 0, 0), MODEL);
        await tx.vectors?.put(middle[0]?.id ?? '', vec(1, 0.5, 0, 0), MODEL);
        await tx.vectors?.put(middle[1]?.id ?? '', vec(1, 0.6, 0, 0), MODEL);
        for (const [i, f] of far.entries()) await tx.vectors?.put(f.id, vec(0, 1, i / 1000, 0), MODEL);
      });
      const hits = await vectors.nearest(vec(1, 0, 0, 0), { scope: 'lonely' }, 2);
      assert.deepEqual(hits.map((h) => h.item.id), [middle[0]?.id, middle[1]?.id]);
      const crowd = await vectors.nearest(vec(1, 0, 0, 0), { scope: 'crowd' }, 45);
      assert.deepEqual(crowd.slice(0, 40).map((h) => h.item.id), near.map((n) => n.id));
      assert.equal(crowd.length, 45);
    });

    test('reset drops every vector and records the new model (or none)', async (t) => {
      const opened = await openWithVectors(factory, t);
      if (opened === undefined) return;
      const [store, vectors] = opened;
      const a = item();
      await insertAll(store, a);
      await store.transaction(async (tx) => tx.vectors?.put(a.id, vec(1, 0, 0, 0), MODEL));
      const wider = { id: 'test:wide', dimensions: 6 };
      await store.transaction(async (tx) => tx.vectors?.reset(wider));
      assert.deepEqual(await vectors.model(), wider);
      assert.equal(await vectors.count(), 0);
      await store.transaction(async (tx) => tx.vectors?.put(a.id, vec(0, 0, 0, 0, 0, 1), wider));
      assert.equal((await vectors.nearest(vec(0, 0, 0, 0, 0, 1), {}, 1))[0]?.item.id, a.id);
      await store.transaction(async (tx) => tx.vectors?.reset(undefined));
      assert.equal(await vectors.model(), undefined);
      assert.equal(await vectors.missingCount(), 1);
      const health = (await store.health()).find((c) => c.name === 'vectors');
      assert.equal(health?.ok, true, health?.problems.join('; '));
    });

    test('health reports the vectors and the pending items', async (t) => {
      const opened = await openWithVectors(factory, t);
      if (opened === undefined) return;
      const [store] = opened;
      const [a, b] = [item(), item()];
      await insertAll(store, a, b);
      await store.transaction(async (tx) => tx.vectors?.put(a.id, vec(1, 0, 0, 0), MODEL));
      const check = (await store.health()).find((c) => c.name === 'vectors');
      assert.equal(check?.ok, true, check?.problems.join('; '));
      assert.deepEqual(check?.figures, { vectors: 1, without_vector: 0, pending: 1, dimensions: 4 });
    });

    test('a vector without a direction marks its item embedded, is never a hit, and is never a query', async (t) => {
      const opened = await openWithVectors(factory, t);
      if (opened === undefined) return;
      const [store, vectors] = opened;
      const [a, zero, broken] = [item(), item(), item()];
      await insertAll(store, a, zero, broken);
      await putVectors(store, [a, vec(1, 0, 0, 0)], [zero, vec(0, 0, 0, 0)], [broken, vec(Number.NaN, 1, 0, 0)]);
      assert.equal(await vectors.count(), 1, 'only the vector with a direction is counted');
      assert.equal(await vectors.missingCount(), 0, 'none is pending');
      assert.deepEqual((await vectors.nearest(vec(0, 1, 0, 0), {}, 10)).map((h) => h.item.id), [a.id]);
      assert.deepEqual(await vectors.nearest(vec(0, 0, 0, 0), {}, 10), []);
      assert.deepEqual(await vectors.nearest(vec(Number.NaN, 0, 0, 0), {}, 10), []);
      // A later vector with a direction replaces the empty one.
      await store.transaction(async (tx) => tx.vectors?.put(zero.id, vec(0, 1, 0, 0), MODEL));
      assert.equal((await vectors.nearest(vec(0, 1, 0, 0), {}, 1))[0]?.item.id, zero.id);
      const check = (await store.health()).find((c) => c.name === 'vectors');
      assert.equal(check?.ok, true, check?.problems.join('; '));
      assert.deepEqual(check?.figures, { vectors: 2, without_vector: 1, pending: 0, dimensions: 4 });
    });

    test('reset refuses a dimension the vector index cannot hold; nothing changes', async (t) => {
      const opened = await openWithVectors(factory, t);
      if (opened === undefined) return;
      const [store, vectors] = opened;
      const a = item();
      await insertAll(store, a);
      await store.transaction(async (tx) => tx.vectors?.put(a.id, vec(1, 0, 0, 0), MODEL));
      await assert.rejects(store.transaction(async (tx) => tx.vectors?.reset({ id: 'test:huge', dimensions: 200_000 })),
        (e: { code?: string }) => e.code === 'PARAM_ERROR');
      assert.deepEqual(await vectors.model(), MODEL);
      assert.equal(await vectors.count(), 1);
    });
  });
}

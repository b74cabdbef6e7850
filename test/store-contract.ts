/**
 * The storage contract as one reusable suite: every backend behind the async `Store` interface
 * must pass it. A backend registers with `runStoreContract(name, factory)`; a factory that needs a
 * server (a database URL) passes `skip` with the reason when none is configured. The text-search
 * section speaks in terms and modes only, never a backend's query syntax.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createItem } from '../src/items/build-item.js';
import type { ListFilter, Store } from '../src/store/contract/index.js';
import type { MemoryItem } from '../src/types.js';
import { runVectorContract } from './store-contract-vectors.js';

interface TestContext {
  after: (fn: () => void | Promise<void>) => void;
}

export type StoreFactory = (t: TestContext) => Store | Promise<Store>;

export interface ContractOptions {
  /** A reason to skip the whole suite (e.g. no database URL for a server backend). */
  skip?: string;
}

const NO_CJK = { segmented: '' };

let counter = 0;
function item(
  fields: Partial<MemoryItem> & { content?: string } = {},
  at = '2026-11-22T12:00:00.000Z',
): MemoryItem {
  counter++;
  const id = fields.id ?? `MEM-${counter.toString(16).padStart(12, '0')}`;
  return { ...createItem(id, { content: fields.content ?? `content ${counter}` }, at), ...fields };
}

async function open(factory: StoreFactory, t: TestContext): Promise<Store> {
  const store = await factory(t);
  t.after(() => store.close());
  return store;
}

/** Inserts an item with its full-text entry, the way the item writer does. */
async function put(tx: Store, stored: MemoryItem, segmented = ''): Promise<void> {
  await tx.items.insert(stored);
  await tx.text.put(stored, { segmented });
}

async function insertAll(store: Store, ...items: MemoryItem[]): Promise<void> {
  await store.transaction(async (tx) => {
    for (const i of items) await put(tx, i);
  });
}

export function runStoreContract(name: string, factory: StoreFactory, options: ContractOptions = {}): void {
  describe(`store contract: ${name}`, { skip: options.skip }, () => {
    test('an item round-trips with every field, tag order and entities intact', async (t) => {
      const store = await open(factory, t);
      const original = item({
        title: 'Título 标题 🚀',
        tags: ['zeta', 'alpha', 'mid'],
        entities: ['oracle', 'postgres'],
        layer: 'feature',
        task_id: 'T1',
        step_id: 'S1',
        key: 'contract',
        provenance: { source_kind: 'doc', lines: [1, 9] },
        confidence: 0.75,
        injectable: false,
        secrecy: 'S0',
        expires_at: '2027-01-01T00:00:00.000Z',
      });
      await insertAll(store, original);
      assert.deepEqual(await store.items.get(original.id), original);
      assert.equal(await store.items.get('MEM-missing'), undefined);
    });

    test('update replaces the row and its tags', async (t) => {
      const store = await open(factory, t);
      const original = item({ tags: ['a', 'b'] });
      await insertAll(store, original);
      const changed = { ...original, content: 'new', tags: ['c'], version: 2 };
      await store.transaction(async (tx) => {
        await tx.items.update(changed);
        await tx.text.put(changed, NO_CJK);
      });
      assert.deepEqual(await store.items.get(original.id), changed);
      assert.equal((await store.items.list({ tags: ['a'] })).total, 0);
    });

    test('a failed transaction leaves nothing behind', async (t) => {
      const store = await open(factory, t);
      const doomed = item();
      await assert.rejects(
        store.transaction(async (tx) => {
          await put(tx, doomed);
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal(await store.items.get(doomed.id), undefined);
      assert.equal((await store.stats()).total, 0);
    });

    test('findByKey matches the exact address, NULLs included, newest non-archived first', async (t) => {
      const store = await open(factory, t);
      const older = item(
        { layer: 'run', key: 'logs', task_id: 'T1', step_id: null },
        '2026-11-20T00:00:00.000Z',
      );
      const newer = item(
        { layer: 'run', key: 'logs', task_id: 'T1', step_id: null },
        '2026-11-21T00:00:00.000Z',
      );
      const archived = {
        ...item({ layer: 'run', key: 'logs', task_id: 'T1' }, '2026-11-22T00:00:00.000Z'),
        archived: true,
      };
      const otherStep = item(
        { layer: 'run', key: 'logs', task_id: 'T1', step_id: 'S2' },
        '2026-11-23T00:00:00.000Z',
      );
      await store.transaction(async (tx) => {
        for (const i of [older, newer, archived, otherStep]) await put(tx, i);
      });
      assert.equal(
        (await store.items.findByKey({ layer: 'run', key: 'logs', task_id: 'T1', step_id: null }))?.id,
        newer.id,
      );
      assert.equal(
        (await store.items.findByKey({ layer: 'run', key: 'logs', task_id: 'T1', step_id: 'S2' }))?.id,
        otherStep.id,
      );
      assert.equal(
        await store.items.findByKey({ layer: 'run', key: 'logs', task_id: null, step_id: null }),
        undefined,
      );
    });

    test('list filters combine with AND; tags must all match; totals ignore paging', async (t) => {
      const store = await open(factory, t);
      const items = [
        item({
          tier: 'ltm',
          type: 'decision',
          tags: ['auth', 'jwt'],
          scope: 'a',
          layer: 'feature',
          key: 'auth.login',
          task_id: 'T1',
        }),
        item({
          tier: 'ltm',
          type: 'fact',
          tags: ['auth'],
          scope: 'a',
          layer: 'feature',
          key: 'auth.logout',
          task_id: 'T2',
        }),
        item({
          tier: 'stm',
          type: 'fact',
          tags: ['db'],
          scope: 'b',
          layer: 'run',
          key: 'auth_x',
          step_id: 'S1',
        }),
        { ...item({ tags: ['auth', 'jwt'] }), archived: true },
      ];
      await store.transaction(async (tx) => {
        for (const i of items) await put(tx, i);
      });
      const ids = async (filter: ListFilter) =>
        (await store.items.list(filter)).items.map((i) => i.id).sort();
      assert.deepEqual(await ids({ tags: ['auth'] }), [items[0]?.id, items[1]?.id].sort());
      assert.deepEqual(await ids({ tags: ['auth', 'jwt'] }), [items[0]?.id]);
      assert.deepEqual(
        await ids({ tags: ['auth', 'jwt'], archived: 'include' }),
        [items[0]?.id, items[3]?.id].sort(),
      );
      assert.deepEqual(await ids({ archived: 'only' }), [items[3]?.id]);
      assert.deepEqual(await ids({ tier: 'ltm', type: 'fact' }), [items[1]?.id]);
      assert.deepEqual(await ids({ scope: 'b' }), [items[2]?.id]);
      assert.deepEqual(await ids({ key_prefix: 'auth.' }), [items[0]?.id, items[1]?.id].sort());
      assert.deepEqual(
        await ids({ key_prefix: 'auth_' }),
        [items[2]?.id],
        'LIKE wildcards in a prefix are literal',
      );
      assert.deepEqual(await ids({ task_id: 'T2' }), [items[1]?.id]);
      assert.deepEqual(await ids({ step_id: 'S1', layer: 'run' }), [items[2]?.id]);
      assert.deepEqual(await ids({ key: 'auth.login' }), [items[0]?.id]);
      const page = await store.items.list({ limit: 1, offset: 1 });
      assert.equal(page.total, 3);
      assert.equal(page.items.length, 1);
      for (const filter of [{ limit: 1, offset: 1 }, { tags: ['auth'] }, { archived: 'only' }] satisfies ListFilter[]) {
        assert.deepEqual(await store.items.find(filter), (await store.items.list(filter)).items, 'find is list without the total');
      }
    });

    test('list sorts newest first by updated or created, and bounds by time', async (t) => {
      const store = await open(factory, t);
      const a = { ...item({}, '2026-01-01T00:00:00.000Z'), updated_at: '2026-06-01T00:00:00.000Z' };
      const b = item({}, '2026-03-01T00:00:00.000Z');
      await store.transaction(async (tx) => {
        await put(tx, a);
        await put(tx, b);
      });
      assert.deepEqual(
        (await store.items.list({ sort: 'updated' })).items.map((i) => i.id),
        [a.id, b.id],
      );
      assert.deepEqual(
        (await store.items.list({ sort: 'created' })).items.map((i) => i.id),
        [b.id, a.id],
      );
      assert.deepEqual(
        (await store.items.list({ since: '2026-04-01T00:00:00.000Z' })).items.map((i) => i.id),
        [a.id],
      );
      assert.deepEqual(
        (await store.items.list({ until: '2026-04-01T00:00:00.000Z' })).items.map((i) => i.id),
        [b.id],
      );
    });

    test('revisions are kept per version, duplicates refused, listed oldest first', async (t) => {
      const store = await open(factory, t);
      const v1 = item();
      const v2 = { ...v1, content: 'second', version: 2 };
      await store.transaction(async (tx) => {
        await put(tx, v1);
        assert.equal(
          await tx.history.addRevision({
            item_id: v1.id,
            version: 2,
            changed_at: v1.updated_at,
            actor: 'b',
            reason: 'update',
            item: v2,
          }),
          true,
        );
        assert.equal(
          await tx.history.addRevision({
            item_id: v1.id,
            version: 1,
            changed_at: v1.created_at,
            actor: 'a',
            reason: 'create',
            item: v1,
          }),
          true,
        );
        assert.equal(
          await tx.history.addRevision({
            item_id: v1.id,
            version: 1,
            changed_at: v1.created_at,
            actor: 'x',
            reason: 'dup',
            item: v1,
          }),
          false,
        );
      });
      const revisions = await store.history.listRevisions(v1.id);
      assert.deepEqual(
        revisions.map((r) => [r.version, r.actor]),
        [
          [1, 'a'],
          [2, 'b'],
        ],
      );
      assert.deepEqual(revisions[1]?.item, v2);
      assert.equal(await store.history.countRevisions(v1.id), 2);
    });

    test('links are directed, deduplicated and listed from both ends', async (t) => {
      const store = await open(factory, t);
      const a = item();
      const b = item();
      await store.transaction(async (tx) => {
        await put(tx, a);
        await put(tx, b);
      });
      const link = {
        src_id: a.id,
        dst_id: b.id,
        type: 'supersedes' as const,
        created_at: a.created_at,
      };
      assert.equal(await store.transaction((tx) => tx.links.add(link)), true);
      assert.equal(await store.transaction((tx) => tx.links.add(link)), false);
      assert.deepEqual(await store.links.list(a.id), [link]);
      assert.deepEqual(await store.links.list(b.id), [link]);
    });

    test('hard delete removes the item and its derived rows, keeps events, reports counts', async (t) => {
      const store = await open(factory, t);
      const a = item({ tags: ['x', 'y'], entities: ['e'] });
      const b = item();
      await store.transaction(async (tx) => {
        await put(tx, a);
        await put(tx, b);
        tx.history.addRevision({
          item_id: a.id,
          version: 1,
          changed_at: a.created_at,
          actor: null,
          reason: 'create',
          item: a,
        });
        await tx.links.add({ src_id: b.id, dst_id: a.id, type: 'supports', created_at: a.created_at });
        await tx.history.addEvent({
          item_id: a.id,
          action: 'create',
          actor: null,
          at: a.created_at,
          details: {},
        });
      });
      const counts = await store.transaction((tx) => tx.items.delete(a.id));
      // A backend may report more derived tables (its full-text index); these must be there.
      assert.deepEqual(
        {
          memory_tags: counts.memory_tags,
          memory_entities: counts.memory_entities,
          memory_revisions: counts.memory_revisions,
          memory_links: counts.memory_links,
          memory_items: counts.memory_items,
        },
        { memory_tags: 2, memory_entities: 1, memory_revisions: 1, memory_links: 1, memory_items: 1 },
      );
      assert.equal(await store.items.get(a.id), undefined);
      assert.deepEqual(await store.links.list(b.id), []);
      assert.equal((await store.history.listEvents(a.id)).length, 1);
    });

    test('items.iterate yields every item oldest first, across pages', async (t) => {
      const store = await open(factory, t);
      const all: MemoryItem[] = [];
      for (let i = 0; i < 1203; i++) {
        all.push(item({}, new Date(Date.UTC(2026, 0, 1, 0, 0, i % 600)).toISOString()));
      }
      await store.transaction(async (tx) => {
        for (const i of all) await put(tx, i);
      });
      const expected = [...all]
        .sort((x, y) =>
          x.created_at === y.created_at
            ? x.id < y.id
              ? -1
              : 1
            : x.created_at < y.created_at
              ? -1
              : 1,
        )
        .map((i) => i.id);
      const seen: string[] = [];
      for await (const i of store.items.iterate()) seen.push(i.id);
      assert.deepEqual(seen, expected);
    });

    test('items.iterate with a filter yields the matching items only, oldest first, across pages', async (t) => {
      const store = await open(factory, t);
      const all: MemoryItem[] = [];
      for (let i = 0; i < 2100; i++) {
        const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i % 400)).toISOString();
        all.push({ ...item({ tier: i % 3 === 0 ? 'mtm' : 'stm', tags: i % 2 === 0 ? ['even'] : ['odd'] }, at), archived: i % 5 === 0 });
      }
      await store.transaction(async (tx) => {
        for (const i of all) await put(tx, i);
      });
      const order = (x: MemoryItem, y: MemoryItem) =>
        x.created_at === y.created_at ? (x.id < y.id ? -1 : 1) : x.created_at < y.created_at ? -1 : 1;
      const filter = { tier: 'stm', tags: ['even'], limit: 3, offset: 7 } as const;
      const expected = all.filter((i) => i.tier === 'stm' && i.tags.includes('even') && !i.archived).sort(order).map((i) => i.id);
      const seen: string[] = [];
      for await (const i of store.items.iterate(filter)) seen.push(i.id);
      assert.ok(expected.length > 500, `${expected.length} items span pages`);
      assert.deepEqual(seen, expected, 'sort, limit and offset of the filter do not apply');
      const archived: string[] = [];
      for await (const i of store.items.iterate({ archived: 'only' })) archived.push(i.id);
      assert.deepEqual(archived, all.filter((i) => i.archived).sort(order).map((i) => i.id));
    });

    test('events and stats', async (t) => {
      const store = await open(factory, t);
      await store.transaction(async (tx) => {
        await put(tx, item({ tier: 'ltm', type: 'decision', layer: 'project' }));
        await put(tx, item({ tier: 'stm' }));
        await put(tx, { ...item({ tier: 'stm' }), archived: true });
        await tx.history.addEvent({
          item_id: null,
          action: 'note',
          actor: 'me',
          at: '2026-11-22T00:00:00.000Z',
          details: { n: 1 },
        });
      });
      const events = await store.history.listEvents();
      assert.deepEqual(
        events.map((e) => [e.action, e.actor, e.details]),
        [['note', 'me', { n: 1 }]],
      );
      const stats = await store.stats();
      assert.equal(stats.total, 3);
      assert.equal(stats.archived, 1);
      assert.equal(stats.active, 2);
      assert.deepEqual(stats.by_tier, { ltm: 1, stm: 1 });
      assert.deepEqual(stats.by_layer, { '(none)': 1, 'project': 1 });
      assert.ok(stats.schema_version >= 1);
    });

    test('countLive counts live, non-quarantined, non-chunk items of a tier; meta values persist', async (t) => {
      const store = await open(factory, t);
      await store.transaction(async (tx) => {
        await put(tx, item({ tier: 'stm' }));
        await put(tx, item({ tier: 'stm', scope: 'other', provenance: { source: 'adr' } }));
        await put(tx, item({ tier: 'stm', provenance: { source_path: 'a.md', chunk_index: 1 } }));
        await put(tx, item({ tier: 'stm', archived: true }));
        await put(tx, item({ tier: 'stm', quarantined: true }));
        await put(tx, item({ tier: 'mtm' }));
      });
      assert.equal(await store.items.countLive('stm'), 2);
      assert.equal(await store.items.countLive('ltm'), 0);
      const page = await store.items.list({ tier: 'stm', chunks: 'exclude', quarantined: 'exclude' });
      assert.equal(page.total, 2, 'the list filter agrees');
      assert.equal(await store.meta.get('contract_key'), undefined);
      await store.transaction((tx) => tx.meta.set('contract_key', 'one'));
      await store.transaction((tx) => tx.meta.set('contract_key', 'two'));
      assert.equal(await store.meta.get('contract_key'), 'two');
    });

    test('adjacent: the items written just before and after, from the same source, under the filter', async (t) => {
      const store = await open(factory, t);
      const [a, b, c, other, d] = [
        item({ source: 'chat' }), item({ source: 'chat' }), item({ source: 'chat', archived: true }),
        item({ source: 'doc' }), item({ source: 'chat' }),
      ];
      const loose = [item({ source: null }), item({ source: null })];
      await insertAll(store, a!, b!, c!, other!, d!, ...loose);
      const pairs = async (ids: string[], filter = {}) =>
        (await store.items.adjacent(ids, filter)).map((p) => `${p.of}>${p.item.id}`).sort();
      const both = [`${b!.id}>${a!.id}`, `${b!.id}>${c!.id}`].sort();
      assert.deepEqual(await pairs([b!.id], { archived: 'include' }), both);
      assert.deepEqual(await pairs([b!.id], { archived: 'exclude' }), [`${b!.id}>${a!.id}`], 'the filter applies');
      assert.deepEqual(await pairs([d!.id, other!.id]), [], 'another source in between is no neighbour');
      assert.deepEqual(await pairs([loose[0]!.id]), [], 'items without a source have none');
      assert.deepEqual(await pairs([]), []);
    });

    describe('text search (terms and modes, no engine syntax)', () => {
      const docs = () => [
        item({ title: 'Deploy guide', content: 'the release pipeline ships on friday', tags: ['ops'] }),
        item({ title: 'Database', content: 'postgres replicas and release notes', tags: ['db'] }),
        item({ title: 'Lunch', content: 'tacos on friday', tags: ['team'], scope: 'other' }),
      ];

      test('any ranks items holding more of the terms first; all needs every term', async (t) => {
        const store = await open(factory, t);
        const [deploy, db, lunch] = docs();
        await insertAll(store, deploy!, db!, lunch!);
        if (!store.text.ranked) return t.skip('no ranked text index');
        const any = await store.text.search({ terms: ['release', 'friday'], mode: 'any' }, {}, 10);
        assert.equal(any[0]?.item.id, deploy!.id, 'both terms beat one');
        assert.deepEqual(new Set(any.map((h) => h.item.id)), new Set([deploy!.id, db!.id, lunch!.id]));
        assert.ok(any.every((h, i) => i === 0 || any[i - 1]!.score >= h.score), 'best first');
        const all = await store.text.search({ terms: ['release', 'friday'], mode: 'all' }, {}, 10);
        assert.deepEqual(all.map((h) => h.item.id), [deploy!.id]);
      });

      test('prefix matches word starts; filters apply; operators in terms are plain words', async (t) => {
        const store = await open(factory, t);
        const [deploy, db, lunch] = docs();
        await insertAll(store, deploy!, db!, lunch!);
        if (!store.text.ranked) return t.skip('no ranked text index');
        const prefix = await store.text.search({ terms: ['pipe'], mode: 'prefix' }, {}, 10);
        assert.deepEqual(prefix.map((h) => h.item.id), [deploy!.id]);
        const scoped = await store.text.search({ terms: ['friday'], mode: 'any' }, { scope: 'other' }, 10);
        assert.deepEqual(scoped.map((h) => h.item.id), [lunch!.id]);
        const hostile = await store.text.search({ terms: ['NOT', 'title:(x)', '"', 'OR*'], mode: 'any' }, {}, 10);
        assert.deepEqual(hostile, [], 'no error, no match');
      });

      test('near matches two query terms close together, in any order; one term matches nothing', async (t) => {
        const store = await open(factory, t);
        const close = item({ content: 'the friday release went well' });
        const apart = item({ content: 'release notes are long: one two three four five six seven eight nine friday' });
        await insertAll(store, close, apart);
        if (!store.text.ranked) return t.skip('no ranked text index');
        const near = await store.text.search({ terms: ['release', 'friday'], mode: 'near' }, {}, 10);
        assert.deepEqual(near.map((h) => h.item.id), [close.id]);
        assert.ok((near[0]?.score ?? 0) > 0);
        assert.deepEqual(await store.text.search({ terms: ['release'], mode: 'near' }, {}, 10), []);
      });

      test('substring finds parts of words and counts the terms found', async (t) => {
        const store = await open(factory, t);
        const [deploy, db, lunch] = docs();
        await insertAll(store, deploy!, db!, lunch!);
        const hits = await store.text.search({ terms: ['relea', 'pipeli'], mode: 'substring' }, {}, 10);
        assert.deepEqual(hits.map((h) => [h.item.id, h.score]), [[deploy!.id, 2], [db!.id, 1]]);
        assert.deepEqual(await store.text.search({ terms: ['100%_'], mode: 'substring' }, {}, 10), []);
      });

      test('newest returns the most recently created matches first, bounded', async (t) => {
        const store = await open(factory, t);
        const first = item({ content: 'cache warmup job' }, '2026-01-01T00:00:00.000Z');
        const second = item({ content: 'cache eviction policy' }, '2026-02-01T00:00:00.000Z');
        await insertAll(store, first, second);
        if (!store.text.ranked) return t.skip('no ranked text index');
        const newest = await store.text.newest({ terms: ['cache'], mode: 'any' }, 1);
        assert.deepEqual(newest.map((i) => i.id), [second.id]);
      });

      test('rebuild writes one entry per item and search sees the extra text', async (t) => {
        const store = await open(factory, t);
        const a = item({ content: 'plain words' });
        await insertAll(store, a);
        const written = await store.text.rebuild(() => ({ segmented: 'zanzibar' }));
        if (!store.text.ranked) return assert.equal(written, 0);
        assert.equal(written, 1);
        const hits = await store.text.search({ terms: ['zanzibar'], mode: 'any' }, {}, 10);
        assert.deepEqual(hits.map((h) => h.item.id), [a.id]);
        const index = (await store.health()).find((c) => c.name === 'index');
        assert.deepEqual(index?.figures, { items: 1, indexed: 1 });
      });
    });

    describe('transactions', () => {
      test('a nested transaction that fails is undone alone', async (t) => {
        const store = await open(factory, t);
        const kept = item();
        const undone = item();
        await store.transaction(async (tx) => {
          await put(tx, kept);
          await assert.rejects(
            tx.transaction(async (inner) => {
              await put(inner, undone);
              throw new Error('inner');
            }),
            /inner/,
          );
        });
        assert.ok(await store.items.get(kept.id));
        assert.equal(await store.items.get(undone.id), undefined);
      });

      test('a bulk transaction: each nested one that fails is undone alone, over rows written before it', async (t) => {
        const store = await open(factory, t);
        const before = Array.from({ length: 120 }, (_, i) => item({ content: `earlier note ${i} about deploys` }));
        await insertAll(store, ...before);
        const added: MemoryItem[] = [];
        await store.transaction(async (tx) => {
          for (let i = 0; i < 30; i++) {
            const fresh = item({ content: `batch note ${i} about queues` });
            added.push(fresh);
            const failing = i % 3 === 0;
            const write = tx.transaction(async (inner) => {
              await put(inner, fresh);
              // Rows that existed before the batch change too: their pages must be restored.
              for (const old of before.slice(i * 4, i * 4 + 4)) {
                const changed = { ...old, content: `${old.content} changed in ${i}`, version: old.version + 1 };
                await inner.items.update(changed);
                await inner.text.put(changed, NO_CJK);
              }
              if (failing) throw new Error(`file ${i}`);
            });
            if (failing) await assert.rejects(write, new RegExp(`file ${i}`));
            else await write;
          }
        }, { bulk: true });
        for (const [i, fresh] of added.entries()) {
          assert.equal((await store.items.get(fresh.id)) !== undefined, i % 3 !== 0, `batch note ${i}`);
        }
        for (const [k, old] of before.entries()) {
          const i = Math.floor(k / 4);
          const changed = i < 30 && i % 3 !== 0;
          assert.equal((await store.items.get(old.id))?.content, changed ? `${old.content} changed in ${i}` : old.content);
        }
        if (store.text.ranked) {
          const hits = await store.text.search({ terms: ['changed'], mode: 'any' }, {}, 200);
          assert.equal(hits.length, 80, 'the index holds the kept changes only');
        }
        const index = (await store.health()).find((c) => c.name === 'index');
        if (index?.figures !== undefined) assert.deepEqual(index.figures, { items: 140, indexed: 140 });
      });

      test('a read from outside waits for a running transaction and sees only what it committed', async (t) => {
        const store = await open(factory, t);
        const a = item();
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const running = store.transaction(async (tx) => {
          await put(tx, a);
          await gate;
          throw new Error('rolled back');
        });
        const read = store.items.get(a.id);
        release();
        await assert.rejects(running, /rolled back/);
        assert.equal(await read, undefined, 'never saw the uncommitted row');
      });

      test('a transaction searches what it indexed; a savepoint undone takes its index rows along', async (t) => {
        const store = await open(factory, t);
        if (!store.text.ranked) return t.skip('no ranked text index');
        const kept = item({ content: 'alpha deploy note' });
        const undone = item({ content: 'bravo deploy note' });
        const ids = async (tx: Store, term: string) =>
          (await tx.text.search({ terms: [term], mode: 'any' }, {}, 10)).map((h) => h.item.id);
        await store.transaction(async (tx) => {
          await put(tx, kept);
          assert.deepEqual(await ids(tx, 'alpha'), [kept.id], 'its own row, before the commit');
          await put(tx, item({ content: 'charlie waits' }));
          await assert.rejects(
            tx.transaction(async (inner) => {
              await put(inner, undone);
              assert.deepEqual(await ids(inner, 'bravo'), [undone.id]);
              throw new Error('inner');
            }),
            /inner/,
          );
          assert.deepEqual(await ids(tx, 'bravo'), [], 'the undone savepoint left no index row');
          assert.equal((await ids(tx, 'charlie')).length, 1, 'a row written before the savepoint is still indexed');
        });
        await assert.rejects(
          store.transaction(async (tx) => {
            await put(tx, item({ content: 'delta never' }));
            throw new Error('outer');
          }),
          /outer/,
        );
        assert.deepEqual(await ids(store, 'bravo'), []);
        assert.deepEqual(await ids(store, 'delta'), []);
        assert.deepEqual(await ids(store, 'deploy'), [kept.id]);
        const index = (await store.health()).find((c) => c.name === 'index');
        assert.deepEqual(index?.figures, { items: 2, indexed: 2 });
      });

      test('concurrent transactions run one after the other', async (t) => {
        const store = await open(factory, t);
        const order: string[] = [];
        const run = (name: string) =>
          store.transaction(async (tx) => {
            order.push(`${name}:begin`);
            await put(tx, item());
            await new Promise((resolve) => setTimeout(resolve, 5));
            order.push(`${name}:end`);
          });
        await Promise.all([run('a'), run('b')]);
        assert.deepEqual(order, ['a:begin', 'a:end', 'b:begin', 'b:end']);
        assert.equal((await store.stats()).total, 2);
      });
    });

    test('health is a list of named checks', async (t) => {
      const store = await open(factory, t);
      await insertAll(store, item());
      const checks = await store.health();
      const names = checks.map((c) => c.name);
      for (const required of ['schema', 'integrity', 'full_text', 'index']) assert.ok(names.includes(required), required);
      assert.ok(checks.find((c) => c.name === 'integrity')?.ok);
      assert.ok((checks.find((c) => c.name === 'schema')?.figures.schema_version ?? 0) >= 1);
    });

    test('corpus records keep chunk order, root and scope; workspaces round-trip', async (t) => {
      const store = await open(factory, t);
      const [a, b] = [item(), item()];
      await insertAll(store, a, b);
      const file = {
        corpus_id: 'c1', path: '/docs/x.md', sha256: 'f'.repeat(64), size_bytes: 10,
        ingested_at: a.created_at, item_ids: [b.id, a.id], root: '/docs', scope: 'project', refused: 0,
      };
      await store.transaction((tx) => tx.corpus.put(file));
      assert.deepEqual(await store.corpus.get('c1', '/docs/x.md'), file);
      await store.transaction((tx) => tx.corpus.put({ ...file, root: null, item_ids: [a.id] }));
      assert.equal((await store.corpus.get('c1', '/docs/x.md'))?.root, '/docs', 'a null root keeps the old one');
      assert.deepEqual((await store.corpus.listUnder('c1', '/docs', 'project')).map((f) => f.path), ['/docs/x.md']);
      assert.equal(await store.corpus.isChunkShared(a.id, 'c1', '/docs/x.md'), false);
      assert.equal(await store.transaction((tx) => tx.corpus.remove('c1', '/docs/x.md')), true);
      assert.equal(await store.corpus.get('c1', '/docs/x.md'), undefined);
      const workspace = {
        name: 'w', scope: 'w', corpus_id: 'w', description: 'd', created_at: a.created_at, updated_at: a.created_at,
      };
      assert.equal(await store.transaction((tx) => tx.workspaces.put(workspace)), true);
      assert.equal(await store.transaction((tx) => tx.workspaces.put(workspace)), false);
      assert.deepEqual(await store.workspaces.get('w'), workspace);
      assert.equal(await store.transaction((tx) => tx.workspaces.remove('w')), true);
    });

    test('synced folders round-trip with their options; one name per path', async (t) => {
      const store = await open(factory, t);
      const docs = {
        name: 'docs', path: '/work/docs', scope: 'project', corpus_id: '', include: ['*.md', 'guides/**'], exclude: ['draft*'],
        tags: ['docs'], format: 'auto' as const, added_at: '2026-11-22T12:00:00.000Z', synced_at: null,
      };
      assert.equal(await store.transaction((tx) => tx.folders.put(docs)), true);
      assert.deepEqual(await store.folders.get('docs'), docs);
      const synced = { ...docs, synced_at: '2026-11-22T13:00:00.000Z', tags: [] };
      assert.equal(await store.transaction((tx) => tx.folders.put(synced)), false, 'same name: updated');
      assert.deepEqual(await store.folders.get('docs'), synced);
      const notes = { ...docs, name: 'notes', path: '/work/notes', corpus_id: 'n', format: 'text' as const };
      await store.transaction((tx) => tx.folders.put(notes));
      assert.deepEqual((await store.folders.list()).map((f) => f.name), ['docs', 'notes']);
      await assert.rejects(store.transaction((tx) => tx.folders.put({ ...notes, name: 'other', path: '/work/docs' })));
      assert.equal(await store.transaction((tx) => tx.folders.remove('docs')), true);
      assert.equal(await store.transaction((tx) => tx.folders.remove('docs')), false);
      assert.equal(await store.folders.get('docs'), undefined);
      assert.deepEqual((await store.folders.list()).map((f) => f.name), ['notes']);
    });

    test('lastEvent finds the newest event of the given actions', async (t) => {
      const store = await open(factory, t);
      const event = (action: string, at: string) => ({ item_id: null, action, actor: null, at, details: { action } });
      await store.transaction(async (tx) => {
        await tx.history.addEvent(event('consolidate', '2026-11-22T10:00:00.000Z'));
        await tx.history.addEvent(event('promote', '2026-11-22T11:00:00.000Z'));
        await tx.history.addEvent(event('create', '2026-11-22T12:00:00.000Z'));
      });
      const last = await store.history.lastEvent(['consolidate', 'promote']);
      assert.equal(last?.action, 'promote');
      assert.deepEqual(last?.details, { action: 'promote' });
      assert.equal((await store.history.lastEvent(['consolidate']))?.at, '2026-11-22T10:00:00.000Z');
      assert.equal(await store.history.lastEvent(['purge']), undefined);
      assert.equal(await store.history.lastEvent([]), undefined);
    });
    runVectorContract(factory);
  });
}

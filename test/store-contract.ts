/**
 * The storage contract as one reusable suite: every backend behind the `Store` interface must pass
 * it. Backends register with `runStoreContract(name, factory)`. Calls are awaited so an async
 * backend can pass the same suite.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createItem } from '../src/items/build-item.js';
import type { Store } from '../src/store/store.js';
import type { MemoryItem } from '../src/types.js';

export type StoreFactory = (t: { after: (fn: () => void) => void }) => Store;

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

function open(factory: StoreFactory, t: { after: (fn: () => void) => void }): Store {
  const store = factory(t);
  t.after(() => store.close());
  return store;
}

export function runStoreContract(name: string, factory: StoreFactory): void {
  describe(`store contract: ${name}`, () => {
    test('an item round-trips with every field, tag order and entities intact', async (t) => {
      const store = open(factory, t);
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
      await store.transaction(() => store.insertItem(original, NO_CJK));
      assert.deepEqual(await store.getItem(original.id), original);
      assert.equal(await store.getItem('MEM-missing'), undefined);
    });

    test('update replaces the row and its tags', async (t) => {
      const store = open(factory, t);
      const original = item({ tags: ['a', 'b'] });
      await store.transaction(() => store.insertItem(original, NO_CJK));
      const changed = { ...original, content: 'new', tags: ['c'], version: 2 };
      await store.transaction(() => store.updateItem(changed, NO_CJK));
      assert.deepEqual(await store.getItem(original.id), changed);
      assert.equal((await store.listItems({ tags: ['a'] })).total, 0);
    });

    test('a failed transaction leaves nothing behind', async (t) => {
      const store = open(factory, t);
      const doomed = item();
      assert.throws(() =>
        store.transaction(() => {
          store.insertItem(doomed, NO_CJK);
          throw new Error('boom');
        }),
      );
      assert.equal(await store.getItem(doomed.id), undefined);
      assert.equal((await store.stats()).total, 0);
    });

    test('findByKey matches the exact address, NULLs included, newest non-archived first', async (t) => {
      const store = open(factory, t);
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
      await store.transaction(() => {
        for (const i of [older, newer, archived, otherStep]) store.insertItem(i, NO_CJK);
      });
      assert.equal(
        (await store.findByKey({ layer: 'run', key: 'logs', task_id: 'T1', step_id: null }))?.id,
        newer.id,
      );
      assert.equal(
        (await store.findByKey({ layer: 'run', key: 'logs', task_id: 'T1', step_id: 'S2' }))?.id,
        otherStep.id,
      );
      assert.equal(
        await store.findByKey({ layer: 'run', key: 'logs', task_id: null, step_id: null }),
        undefined,
      );
    });

    test('list filters combine with AND; tags must all match; totals ignore paging', async (t) => {
      const store = open(factory, t);
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
      await store.transaction(() => {
        for (const i of items) store.insertItem(i, NO_CJK);
      });
      const ids = async (filter: Parameters<Store['listItems']>[0]) =>
        (await store.listItems(filter)).items.map((i) => i.id).sort();
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
      const page = await store.listItems({ limit: 1, offset: 1 });
      assert.equal(page.total, 3);
      assert.equal(page.items.length, 1);
    });

    test('list sorts newest first by updated or created, and bounds by time', async (t) => {
      const store = open(factory, t);
      const a = { ...item({}, '2026-01-01T00:00:00.000Z'), updated_at: '2026-06-01T00:00:00.000Z' };
      const b = item({}, '2026-03-01T00:00:00.000Z');
      await store.transaction(() => {
        store.insertItem(a, NO_CJK);
        store.insertItem(b, NO_CJK);
      });
      assert.deepEqual(
        (await store.listItems({ sort: 'updated' })).items.map((i) => i.id),
        [a.id, b.id],
      );
      assert.deepEqual(
        (await store.listItems({ sort: 'created' })).items.map((i) => i.id),
        [b.id, a.id],
      );
      assert.deepEqual(
        (await store.listItems({ since: '2026-04-01T00:00:00.000Z' })).items.map((i) => i.id),
        [a.id],
      );
      assert.deepEqual(
        (await store.listItems({ until: '2026-04-01T00:00:00.000Z' })).items.map((i) => i.id),
        [b.id],
      );
    });

    test('revisions are kept per version, duplicates refused, listed oldest first', async (t) => {
      const store = open(factory, t);
      const v1 = item();
      const v2 = { ...v1, content: 'second', version: 2 };
      await store.transaction(() => {
        store.insertItem(v1, NO_CJK);
        assert.equal(
          store.addRevision({
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
          store.addRevision({
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
          store.addRevision({
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
      const revisions = await store.listRevisions(v1.id);
      assert.deepEqual(
        revisions.map((r) => [r.version, r.actor]),
        [
          [1, 'a'],
          [2, 'b'],
        ],
      );
      assert.deepEqual(revisions[1]?.item, v2);
      assert.equal(await store.countRevisions(v1.id), 2);
    });

    test('links are directed, deduplicated and listed from both ends', async (t) => {
      const store = open(factory, t);
      const a = item();
      const b = item();
      await store.transaction(() => {
        store.insertItem(a, NO_CJK);
        store.insertItem(b, NO_CJK);
      });
      const link = {
        src_id: a.id,
        dst_id: b.id,
        type: 'supersedes' as const,
        created_at: a.created_at,
      };
      assert.equal(await store.transaction(() => store.addLink(link)), true);
      assert.equal(await store.transaction(() => store.addLink(link)), false);
      assert.deepEqual(await store.listLinks(a.id), [link]);
      assert.deepEqual(await store.listLinks(b.id), [link]);
    });

    test('hard delete removes the item and its derived rows, keeps events, reports counts', async (t) => {
      const store = open(factory, t);
      const a = item({ tags: ['x', 'y'], entities: ['e'] });
      const b = item();
      await store.transaction(() => {
        store.insertItem(a, NO_CJK);
        store.insertItem(b, NO_CJK);
        store.addRevision({
          item_id: a.id,
          version: 1,
          changed_at: a.created_at,
          actor: null,
          reason: 'create',
          item: a,
        });
        store.addLink({ src_id: b.id, dst_id: a.id, type: 'supports', created_at: a.created_at });
        store.addEvent({
          item_id: a.id,
          action: 'create',
          actor: null,
          at: a.created_at,
          details: {},
        });
      });
      const counts = await store.transaction(() => store.deleteItem(a.id));
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
      assert.equal(await store.getItem(a.id), undefined);
      assert.deepEqual(await store.listLinks(b.id), []);
      assert.equal((await store.listEvents(a.id)).length, 1);
    });

    test('iterateItems yields every item oldest first, across pages', async (t) => {
      const store = open(factory, t);
      const all: MemoryItem[] = [];
      for (let i = 0; i < 1203; i++) {
        all.push(item({}, new Date(Date.UTC(2026, 0, 1, 0, 0, i % 600)).toISOString()));
      }
      await store.transaction(() => {
        for (const i of all) store.insertItem(i, NO_CJK);
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
      assert.deepEqual(
        [...(await store.iterateItems())].map((i) => i.id),
        expected,
      );
    });

    test('events and stats', async (t) => {
      const store = open(factory, t);
      await store.transaction(() => {
        store.insertItem(item({ tier: 'ltm', type: 'decision', layer: 'project' }), NO_CJK);
        store.insertItem(item({ tier: 'stm' }), NO_CJK);
        store.insertItem({ ...item({ tier: 'stm' }), archived: true }, NO_CJK);
        store.addEvent({
          item_id: null,
          action: 'note',
          actor: 'me',
          at: '2026-11-22T00:00:00.000Z',
          details: { n: 1 },
        });
      });
      const events = await store.listEvents();
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

    test('countLiveMemories counts live, non-quarantined, non-chunk items of a tier; meta values persist', async (t) => {
      const store = open(factory, t);
      await store.transaction(() => {
        store.insertItem(item({ tier: 'stm' }), NO_CJK);
        store.insertItem(item({ tier: 'stm', scope: 'other', provenance: { source: 'adr' } }), NO_CJK);
        store.insertItem(item({ tier: 'stm', provenance: { source_path: 'a.md', chunk_index: 1 } }), NO_CJK);
        store.insertItem(item({ tier: 'stm', archived: true }), NO_CJK);
        store.insertItem(item({ tier: 'stm', quarantined: true }), NO_CJK);
        store.insertItem(item({ tier: 'mtm' }), NO_CJK);
      });
      assert.equal(await store.countLiveMemories('stm'), 2);
      assert.equal(await store.countLiveMemories('ltm'), 0);
      const page = await store.listItems({ tier: 'stm', chunks: 'exclude', quarantined: 'exclude' });
      assert.equal(page.total, 2, 'the list filter agrees');
      assert.equal(await store.getMeta('contract_key'), undefined);
      await store.transaction(() => store.setMeta('contract_key', 'one'));
      await store.transaction(() => store.setMeta('contract_key', 'two'));
      assert.equal(await store.getMeta('contract_key'), 'two');
    });
  });
}

import assert from 'node:assert/strict';
import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createItem } from '../src/items/build-item.js';
import { createSqliteStore } from '../src/store/sqlite/store.js';
import type { MemoryItem } from '../src/types.js';
import { tempDir } from './helpers.js';
import { runStoreContract } from './store-contract.js';

runStoreContract('sqlite :memory:', () => createSqliteStore(':memory:'));
runStoreContract('sqlite file', (t) => createSqliteStore(join(tempDir(t), 'memory.db')));

/** SQLite's temporary files this process holds open (deleted as soon as opened, so only /proc shows them). */
function temporaryFiles(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.includes('etilqs_') ? [target] : [];
    } catch {
      return [];
    }
  });
}

test('a bulk transaction keeps its savepoints\' page copies in memory, not in a temporary file', async (t) => {
  if (process.platform !== 'linux') return t.skip('reads /proc/self/fd');
  const store = await createSqliteStore(join(tempDir(t), 'memory.db'));
  t.after(() => store.close());
  const at = '2026-11-27T12:00:00.000Z';
  const items = Array.from({ length: 300 }, (_, i) =>
    createItem(`MEM-${i.toString(16).padStart(12, '0')}`, { content: `note ${i} ${'about the deploy queue '.repeat(40)}` }, at));
  await store.transaction(async (tx) => {
    for (const item of items) {
      await tx.items.insert(item);
      await tx.text.put(item, { segmented: '' });
    }
  });
  // A savepoint that changes every page written before it: far more than SQLite keeps in memory
  // (64 KiB) before it writes such copies to a file, unless the transaction is a bulk one.
  const open: string[][] = [];
  for (const bulk of [false, true, false]) {
    await store.transaction(async (tx) => {
      await tx.transaction(async (inner) => {
        for (const item of items) await inner.items.update({ ...item, content: `${item.content} (${bulk})`, version: 2 });
        open.push(temporaryFiles());
      });
    }, { bulk });
  }
  // A bulk transaction that fails leaves the connection as it found it too.
  await assert.rejects(store.transaction(async (tx) => {
    await tx.items.update({ ...(items[0] as MemoryItem), content: 'never stored', version: 3 });
    throw new Error('bulk failed');
  }, { bulk: true }), /bulk failed/);
  await store.transaction(async (tx) => {
    await tx.transaction(async (inner) => {
      for (const item of items) await inner.items.update({ ...item, content: `${item.content} (again)`, version: 3 });
      open.push(temporaryFiles());
    });
  });
  const [before, bulk, after, afterFailure] = open;
  assert.ok((afterFailure ?? []).length > 0, 'and after a failed bulk transaction');
  assert.ok((before ?? []).length > 0, 'without bulk, the page copies went to a temporary file');
  assert.deepEqual(bulk, [], 'with bulk, none');
  assert.ok((after ?? []).length > 0, 'the next transaction is as before');
  assert.match((await store.items.get(items[299]?.id ?? ''))?.content ?? '', / \(again\)$/);
  assert.match((await store.items.get(items[0]?.id ?? ''))?.content ?? '', / \(again\)$/, 'the failed one stored nothing');
});

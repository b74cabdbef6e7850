/**
 * Ingest's write batches (write-batch.ts): the files of a batch are written in one transaction, a
 * savepoint each, and the transaction is a bulk one (savepoint journals in memory) unless one of
 * its files alone holds more chunk text than a batch does.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { createItem } from '../items/build-item.js';
import { createItemWriter } from '../items/writer.js';
import { createIndexer } from '../search/indexer.js';
import type { Store, TransactionOptions } from '../store/store.js';
import { createSqliteStore } from '../store/sqlite/store.js';
import { type BatchLimits, createWriteBatch, type FileWrite } from './write-batch.js';

const AT = '2026-11-27T12:00:00.000Z';
let files = 0;

function fileWrite(chars: number): FileWrite {
  const n = ++files;
  const content = `file ${n} `.padEnd(chars, 'x');
  const item = createItem(`MEM-${n.toString(16).padStart(12, '0')}`, { content, source: `f${n}.txt` }, AT);
  return {
    file: { path: `f${n}.txt`, status: 'ingested', chunks: 1, deduplicated: 0, archived: 0, bytes: chars },
    status: 'ingested',
    record: { key: `/docs/f${n}.txt`, fileHash: `${n}`.padStart(64, '0'), size: chars, root: null, refused: 0 },
    planned: [{ item, chunk: { content, line_start: 1, line_end: 1 }, rules: {} }],
    oldIds: [],
    at: AT,
  };
}

/** A batch writer over a fresh store, and the options each outermost transaction was given. */
async function spiedBatch(t: TestContext, limits: BatchLimits) {
  const store = await createSqliteStore(':memory:');
  t.after(() => store.close());
  const options: (TransactionOptions | undefined)[] = [];
  const spy: Store = Object.assign(Object.create(store) as Store, {
    transaction: <T>(fn: (tx: Store) => Promise<T>, given?: TransactionOptions) => {
      options.push(given);
      return store.transaction(fn, given);
    },
  });
  const indexer = createIndexer({ loadSegmenter: () => Promise.reject(new Error('no CJK text here')) });
  const writer = createItemWriter({ store: spy, indexer, actor: null });
  const batch = createWriteBatch({ store: spy, writer, corpus: '', scope: 'project:test' }, limits);
  // A file's own savepoint is a transaction without options.
  return { store, batch, bulk: () => options.filter((o) => o !== undefined) };
}

test('a batch is a bulk transaction unless one file holds more text than a batch', async (t) => {
  const { store, batch, bulk } = await spiedBatch(t, { files: 3, chars: 1_000, ms: 60_000 });
  const small = [fileWrite(300), fileWrite(300), fileWrite(300)];
  for (const job of small) await batch.add(job);
  const long = [fileWrite(200), fileWrite(1_200)];
  for (const job of long) await batch.add(job);
  assert.deepEqual(bulk(), [{ bulk: true }, { bulk: false }]);
  for (const job of [...small, ...long]) {
    assert.equal(job.file.status, 'ingested');
    assert.ok(await store.items.get(job.planned[0]?.item.id ?? ''), job.file.path);
  }
});

test('a file that replaces more old chunks than a batch holds (a long file cut short) is not written in bulk', async (t) => {
  // One old chunk may hold 2,000 characters: more than this batch's 1,000.
  const { batch, bulk } = await spiedBatch(t, { files: 1, chars: 1_000, ms: 60_000 });
  const short = { ...fileWrite(100), oldIds: ['MEM-ffffffffffff'] };
  await batch.add(short);
  assert.deepEqual(bulk(), [{ bulk: false }]);
  assert.equal(short.file.status, 'ingested');
});

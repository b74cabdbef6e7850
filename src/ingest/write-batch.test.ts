/**
 * Ingest's write batches (write-batch.ts): the files of a batch are written in one transaction,
 * without savepoints unless a file's write fails, when the batch is written again, a savepoint
 * each; the transaction is a bulk one (savepoint journals in memory) unless one of its files alone
 * holds more chunk text than a batch does.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { EngramError } from '../errors.js';
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

/**
 * A batch writer over a fresh store, the options each outermost transaction was given, and how
 * many savepoints were taken. The corpus record of a key in `failing` is refused (after its
 * chunks were inserted), as a file's own write failure.
 */
async function spiedBatch(t: TestContext, limits: BatchLimits, failing: ReadonlySet<string> = new Set()) {
  const store = await createSqliteStore(':memory:');
  t.after(() => store.close());
  const options: (TransactionOptions | undefined)[] = [];
  const corpus: Store['corpus'] = Object.assign(Object.create(store.corpus) as Store['corpus'], {
    put: (record: Parameters<Store['corpus']['put']>[0]) => failing.has(record.path)
      ? Promise.reject(new EngramError('PARAM_ERROR', `refused record ${record.path}`))
      : store.corpus.put(record),
  });
  const spy: Store = Object.assign(Object.create(store) as Store, {
    corpus,
    transaction: <T>(fn: (tx: Store) => Promise<T>, given?: TransactionOptions) => {
      options.push(given);
      return store.transaction(fn, given);
    },
  });
  const indexer = createIndexer({ loadSegmenter: () => Promise.reject(new Error('no CJK text here')) });
  const writer = createItemWriter({ store: spy, indexer, actor: null });
  const batch = createWriteBatch({ store: spy, writer, corpus: '', scope: 'project:test' }, limits);
  // A file's own savepoint is a transaction without options.
  return {
    store,
    batch,
    bulk: () => options.filter((o) => o !== undefined),
    savepoints: () => options.filter((o) => o === undefined).length,
  };
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

test('a batch none of whose files fails takes no savepoint; one that fails is written again, a savepoint each', async (t) => {
  const jobs = [fileWrite(100), fileWrite(100), fileWrite(100)];
  const failing = new Set([jobs[1]?.record.key ?? '']);
  const { store, batch, bulk, savepoints } = await spiedBatch(t, { files: 3, chars: 10_000, ms: 60_000 }, failing);
  const fine = [fileWrite(100), fileWrite(100), fileWrite(100)];
  for (const job of fine) await batch.add(job);
  assert.deepEqual([bulk(), savepoints()], [[{ bulk: true }], 0]);
  for (const job of jobs) await batch.add(job);
  assert.deepEqual([bulk(), savepoints()], [[{ bulk: true }, { bulk: true }, { bulk: true }], 3], 'tried whole, then file by file');
  const present = async (job: FileWrite) => (await store.items.get(job.planned[0]?.item.id ?? '')) !== undefined;
  assert.deepEqual(await Promise.all([...fine, ...jobs].map(present)), [true, true, true, true, false, true]);
  assert.deepEqual(jobs.map((job) => job.file.status), ['ingested', 'failed', 'ingested']);
  assert.match(jobs[1]?.file.reason ?? '', /^PARAM_ERROR: refused record/);
  const recorded = async (job: FileWrite) => (await store.corpus.get('', job.record.key)) !== undefined;
  assert.deepEqual(await Promise.all([...fine, ...jobs].map(recorded)), [true, true, true, true, false, true]);
});

test('a store error in a batch stops it: nothing of the batch is kept and no file is reported written', async (t) => {
  const first = fileWrite(100);
  const second = fileWrite(100);
  // The second file's chunk takes the first one's id: the store refuses the insert (DB_ERROR).
  const taken = (first.planned[0] as FileWrite['planned'][number]).item.id;
  const planned = second.planned.map((p) => ({ ...p, item: { ...p.item, id: taken } }));
  const clash = { ...second, file: { ...second.file, status: 'failed' as const }, planned };
  first.file.status = 'failed';
  const { store, batch, savepoints } = await spiedBatch(t, { files: 2, chars: 10_000, ms: 60_000 });
  await batch.add(first);
  await assert.rejects(batch.add(clash), (error: unknown) => error instanceof EngramError && error.code === 'DB_ERROR');
  assert.equal(savepoints(), 0, 'not tried again file by file');
  assert.equal(await store.items.get(taken), undefined, 'the batch was rolled back');
  assert.deepEqual([first.file.status, clash.file.status], ['failed', 'failed'], 'no report says written');
});

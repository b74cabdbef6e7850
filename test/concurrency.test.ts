/** Many processes writing one database: nothing lost, no DB_BUSY, versions strictly sequential. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openEngram } from '../src/index.js';
import { nodeAsync, tempDir } from './helpers.js';

const WORKER = fileURLToPath(new URL('./fixtures/put-worker.js', import.meta.url));

interface WorkerResult {
  created: string[];
  wins: number[];
  conflicts: number;
  busy: number;
}

/** Runs `count` workers at once; each gets [db, index, mode, perWorker, startAt, ...extra]. */
async function runWorkers(count: number, db: string, mode: string, perWorker: number, extra: string[] = []) {
  const startAt = String(Date.now() + 1500);
  return Promise.all(
    Array.from({ length: count }, (_, w) => runWorker([db, String(w), mode, String(perWorker), startAt, ...extra])),
  );
}

async function runWorker(args: string[]): Promise<WorkerResult> {
  const run = await nodeAsync([WORKER, ...args]);
  if (run.code !== 0) throw new Error(`worker exit ${run.code}: ${run.stderr}`);
  return run.json as unknown as WorkerResult;
}

test('8 processes x 250 puts: all 2,000 items present, no DB_BUSY, one revision each', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  const results = await runWorkers(8, db, 'create', 250);
  assert.equal(
    results.reduce((n, r) => n + r.busy, 0),
    0,
  );
  const ids = results.flatMap((r) => r.created);
  assert.equal(new Set(ids).size, 2000);
  const engram = await openEngram({ path: db });
  t.after(() => engram.close());
  assert.equal((await engram.stats()).total, 2000);
  for (const w of [0, 7])
    assert.equal((await engram.list({ tags: [`w${w}`], limit: 1 })).total, 250);
  for (const id of ids.slice(0, 50)) assert.equal((await engram.history(id)).length, 1);
});

test('8 processes upserting one logical key: versions 1..400 strictly sequential, no revision lost', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  const results = await runWorkers(8, db, 'upsert', 50);
  assert.equal(
    results.reduce((n, r) => n + r.busy, 0),
    0,
  );
  const engram = await openEngram({ path: db });
  t.after(() => engram.close());
  const item = await engram.get({ layer: 'run', key: 'shared' });
  assert.equal(item.version, 400);
  assert.equal((await engram.list()).total, 1, 'concurrent upserts never create a duplicate');
  const history = await engram.history(item.id);
  assert.deepEqual(
    history.map((r) => r.version),
    Array.from({ length: 400 }, (_, i) => i + 1),
  );
  const perWorker = new Map<string, number>();
  for (const r of history) perWorker.set(r.actor ?? '', (perWorker.get(r.actor ?? '') ?? 0) + 1);
  assert.deepEqual([...perWorker.values()], Array(8).fill(50));
});

test('concurrent conditional updates: exactly one writer wins each version, the rest get CONFLICT', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  const seed = await openEngram({ path: db });
  const { item } = await seed.put({ content: 'contended' });
  seed.close();
  const results = await runWorkers(4, db, 'cas', 40, [item.id]);
  const wins = results.flatMap((r) => r.wins).sort((a, b) => a - b);
  const conflicts = results.reduce((n, r) => n + r.conflicts, 0);
  assert.equal(
    results.reduce((n, r) => n + r.busy, 0),
    0,
  );
  assert.equal(wins.length + conflicts, 160);
  assert.ok(conflicts > 0, 'the workers really did contend');
  assert.deepEqual(
    wins,
    Array.from({ length: wins.length }, (_, i) => i + 2),
    'each version won once',
  );
  const engram = await openEngram({ path: db });
  t.after(() => engram.close());
  const history = await engram.history(item.id);
  assert.equal(history.length, wins.length + 1);
  for (const [w, result] of results.entries()) {
    for (const version of result.wins) assert.equal(history[version - 1]?.actor, `worker-${w}`);
  }
});

test('exact-duplicate writes from 4 processes at once leave one item, reinforced by the rest', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  const results = await runWorkers(4, db, 'duplicate', 25);
  const ids = new Set(results.flatMap((r) => r.created));
  assert.equal(ids.size, 1, 'every write returned the same item');
  const engram = await openEngram({ path: db });
  t.after(() => engram.close());
  assert.equal((await engram.stats()).total, 1);
  const [item] = (await engram.list()).items;
  assert.equal(item?.usage_count, 99, 'one creation, 99 reinforcements');
  assert.equal(item?.version, 1);
});

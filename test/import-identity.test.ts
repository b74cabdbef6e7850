/**
 * Source ids of `engram import --from`: the first record with a source id wins and a later one is
 * reported, not written over it (the dry run says the same, a re-run settles); basic-memory's
 * permalinks are kept apart by the project folder; a memctl row without a usable id is reported.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import { importFrom } from '../src/importers/run-import.js';
import { tempDir } from './helpers.js';
import { assertAddsUp, importContext } from './import-helpers.js';
import { makeMemctlDb } from './import-sqlite-fixtures.js';

const TIMEOUT = { timeout: 300_000 };

const DUPLICATE = 'duplicate source id, first kept';

test('memtool: a duplicate id keeps the first record, the dry run agrees, a re-run settles', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-import-dup-');
  const ctx = importContext(join(dir, 'memory.db'));
  t.after(() => void ctx.store.close());
  const path = join(dir, 'export.jsonl');
  const lines = [
    { id: 'u1', type: 'project', content: 'First u1' },
    { id: 'u2', type: 'project', content: 'First u2' },
    { id: 'u1', type: 'project', content: 'Second u1' },
    { id: 'u2', type: 'run', content: 'Second u2' },
  ];
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n'));
  const input = { from: 'memtool' as const, path };
  const dry = await importFrom(ctx, { ...input, dryRun: true });
  const real = await importFrom(ctx, input);
  for (const report of [dry, real]) {
    assertAddsUp(report);
    assert.deepEqual([report.read, report.created, report.updated, report.unmapped], [4, 2, 0, 2]);
    assert.deepEqual(report.not_mapped.map((u) => [u.where, u.reason]), [['u1', DUPLICATE], ['u2', DUPLICATE]]);
  }
  const { items } = await ctx.store.items.list({ limit: 10 });
  assert.deepEqual(items.map((i) => i.content).sort(), ['First u1', 'First u2']);
  const again = await importFrom(ctx, input);
  assert.deepEqual([again.created, again.updated, again.unchanged], [0, 0, 2], 'a re-run settles');
  assert.deepEqual((await ctx.store.items.list({ limit: 10 })).items.map((i) => i.version), [1, 1]);
});

test('basic-memory: a permalink twice, or equal to a path, keeps the first; two project folders never collide', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-import-bm-');
  const ctx = importContext(join(dir, 'memory.db'));
  t.after(() => void ctx.store.close());
  const a = join(dir, 'projA');
  const b = join(dir, 'projB');
  for (const folder of [a, b]) mkdirSync(join(folder, 'notes'), { recursive: true });
  writeFileSync(join(a, 'index.md'), '---\ntitle: Index A\n---\nProject A index\n\n- relates_to [[Other]]\n');
  writeFileSync(join(a, 'other.md'), '---\ntitle: Other\npermalink: index\n---\nA second note claiming index\n');
  writeFileSync(join(a, 'notes', 'x.md'), '---\ntitle: X\n---\nNote x\n');
  writeFileSync(join(a, 'y.md'), '---\ntitle: Y\npermalink: notes/x\n---\nA permalink equal to a path\n');
  writeFileSync(join(b, 'index.md'), '---\ntitle: Index B\n---\nProject B index\n');

  const first = await importFrom(ctx, { from: 'basic-memory', path: a });
  assertAddsUp(first);
  assert.deepEqual([first.read, first.created, first.unmapped], [4, 2, 2]);
  assert.equal(first.not_mapped.filter((u) => u.reason === DUPLICATE).length, 2);
  const second = await importFrom(ctx, { from: 'basic-memory', path: b });
  assert.deepEqual([second.created, second.updated], [1, 0], 'B\'s index is a new item, A\'s is untouched');
  const titles = (await ctx.store.items.list({ limit: 10 })).items.map((i) => i.title).sort();
  assert.deepEqual(titles, ['Index A', 'Index B', 'X']);
  const again = await importFrom(ctx, { from: 'basic-memory', path: a });
  assert.deepEqual([again.created, again.updated, again.unchanged], [0, 0, 2]);
});

test('memctl: a NULL or BLOB id is not mapped ("no usable id")', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-import-memctl-id-');
  const { path } = makeMemctlDb(dir, { count: 3 });
  const raw = new Database(path);
  const at = '2025-01-01T00:00:00';
  const insert = raw.prepare('INSERT INTO memory_items (id, tier, type, content, created_at, updated_at) VALUES (?, \'stm\', \'note\', ?, ?, ?)');
  insert.run(null, 'Row without id', at, at);
  insert.run(Buffer.from([1, 2]), 'Row with a blob id', at, at);
  raw.close();
  const ctx = importContext(join(dir, 'engram.db'));
  t.after(() => void ctx.store.close());
  const report = await importFrom(ctx, { from: 'memctl', path });
  assertAddsUp(report);
  const noId = report.not_mapped.filter((u) => u.reason === 'no usable id');
  assert.equal(noId.length, 2);
  assert.ok(noId.every((u) => /^row \d+$/.test(u.where)));
  const contents = (await ctx.store.items.list({ limit: 100 })).items.map((i) => i.content);
  assert.ok(!contents.includes('Row without id') && !contents.includes('Row with a blob id'));
});

/**
 * Re-importing a source into items engram changed since: an unchanged record leaves the item as
 * engram has it (an edit, a tier promotion); a record that changed applies what it changed only;
 * an item imported before the record hashes gets the older rule once; an update that replaces
 * the provenance keeps the import's mark.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { openEngram } from '../src/index.js';
import type { MemoryItem } from '../src/types.js';
import { tempDir } from './helpers.js';
import { importContext } from './import-helpers.js';

const TIMEOUT = { timeout: 300_000 };

async function only(engram: Awaited<ReturnType<typeof openEngram>>): Promise<MemoryItem> {
  const { items } = await engram.list({ limit: 10, archived: 'include', quarantined: 'include' });
  assert.equal(items.length, 1);
  return items[0] as MemoryItem;
}

test('memtool: an edit made in engram survives the re-import of an unchanged export', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-reimport-memtool-');
  const engram = await openEngram({ path: join(dir, 'memory.db') });
  t.after(() => engram.close());
  const path = join(dir, 'export.jsonl');
  writeFileSync(path, `${JSON.stringify({ id: 'u1', type: 'project', content: 'Logins lock after 5 failures', tags: ['auth'] })}\n`);
  assert.equal((await engram.importFrom({ from: 'memtool', path })).created, 1);
  const item = await only(engram);
  await engram.update(item.id, { content: 'Logins lock after 5 failures (migrated)', provenance: { note: 'kept by hand' } });
  const again = await engram.importFrom({ from: 'memtool', path });
  assert.deepEqual([again.created, again.updated, again.unchanged], [0, 0, 1]);
  const kept = await only(engram);
  assert.equal(kept.content, 'Logins lock after 5 failures (migrated)', 'the edit is kept');
  assert.equal(kept.provenance?.note, 'kept by hand');
  assert.equal((kept.provenance?.import as { source_id?: string } | undefined)?.source_id, 'u1', 'the import mark survives the update');
});

test('mem-context: a promotion survives; a changed record applies what changed only', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-reimport-memcontext-');
  const engram = await openEngram({ path: join(dir, 'memory.db') });
  t.after(() => engram.close());
  const path = join(dir, 'memories.json');
  const memory = { id: 'm1', type: 'semantic', content: 'Deploys go out on Tuesdays', tags: ['ops'], weight: 0.7 };
  writeFileSync(path, JSON.stringify({ memories: [memory] }));
  await engram.importFrom({ from: 'mem-context', path });
  const item = await only(engram);
  assert.equal(item.tier, 'mtm');
  await engram.update(item.id, { tier: 'ltm' });
  const same = await engram.importFrom({ from: 'mem-context', path });
  assert.deepEqual([same.updated, same.unchanged], [0, 1]);
  assert.equal((await only(engram)).tier, 'ltm', 'the promotion is not undone');

  writeFileSync(path, JSON.stringify({ memories: [{ ...memory, content: 'Deploys go out on Wednesdays' }] }));
  const changed = await engram.importFrom({ from: 'mem-context', path });
  assert.deepEqual([changed.updated, changed.unchanged], [1, 0]);
  const after = await only(engram);
  assert.deepEqual([after.content, after.tier], ['Deploys go out on Wednesdays', 'ltm'], 'the source wins on what it changed only');
  const settled = await engram.importFrom({ from: 'mem-context', path });
  assert.deepEqual([settled.updated, settled.unchanged], [0, 1]);

  writeFileSync(path, JSON.stringify({ memories: [{ ...memory, content: 'Deploys go out on Wednesdays', type: 'episodic' }] }));
  await engram.importFrom({ from: 'mem-context', path });
  assert.equal((await only(engram)).tier, 'stm', 'a tier the source changed is applied');
});

test('an item imported before the record hashes gets the older rule once, then settles', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-reimport-legacy-');
  const ctx = importContext(join(dir, 'memory.db'));
  t.after(() => void ctx.store.close());
  const path = join(dir, 'export.jsonl');
  writeFileSync(path, `${JSON.stringify({ id: 'u1', type: 'project', content: 'Old text' })}\n`);
  const { importFrom } = await import('../src/importers/run-import.js');
  await importFrom(ctx, { from: 'memtool', path });
  const [item] = (await ctx.store.items.list({ limit: 10 })).items;
  assert.ok(item !== undefined);
  const { record_hash: _h, record_fields: _f, ...mark } = item.provenance?.import as Record<string, unknown>;
  assert.ok(typeof _h === 'string' && typeof _f === 'object', 'the import keeps the record\'s hash');
  const legacy = { ...item, version: item.version + 1, content: 'Edited', content_hash: 'x', provenance: { import: mark } };
  await ctx.store.transaction(() => ctx.writer.amend(legacy, 'verify'));
  const once = await importFrom(ctx, { from: 'memtool', path });
  assert.deepEqual([once.updated, once.unchanged], [1, 0]);
  const now = await ctx.store.items.get(item.id);
  assert.equal(now?.content, 'Old text', 'the older rule: the source wins on what it states');
  assert.ok(typeof (now?.provenance?.import as Record<string, unknown>).record_hash === 'string');
  const settled = await importFrom(ctx, { from: 'memtool', path });
  assert.deepEqual([settled.updated, settled.unchanged], [0, 1]);
});

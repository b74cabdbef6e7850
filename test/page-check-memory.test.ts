/**
 * The memory of checked stores that a long-lived process keeps (`engram daemon`; see
 * src/store/sqlite/page-check.ts): a store changed in any way while this process had it open, or
 * since, has its pages walked again at its next open, so damage is never taken for checked.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openEngram, rememberCheckedStores } from '../src/engram.js';
import { tempDir } from './helpers.js';

/** Longer than a tick of the file system's clock (its times are coarse). */
const tick = () => new Promise((resolve) => setTimeout(resolve, 40));

/** Overwrites the b-tree page header of `table`'s root page with an invalid page type. */
function damageRoot(db: string, table: string): void {
  const raw = new Database(db, { readonly: true });
  const root = raw.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').pluck().get(table) as number;
  const pageSize = raw.pragma('page_size', { simple: true }) as number;
  raw.close();
  const bytes = readFileSync(db);
  bytes.fill(0x7f, (root - 1) * pageSize, (root - 1) * pageSize + 8);
  writeFileSync(db, bytes);
}

test('a store damaged while this process had it open is walked again at its next open, and refused', async (t) => {
  await rememberCheckedStores();
  const db = join(tempDir(t), 'memory.db');
  const seeded = await openEngram({ path: db });
  for (let i = 0; i < 20; i++) await seeded.put({ content: `Service ${i} answers within ${i * 7} ms` });
  seeded.close();
  await tick();
  // Opened, checked and closed unchanged: remembered.
  const first = await openEngram({ path: db });
  assert.equal((await first.list({ limit: 1 })).items.length, 1);
  first.close();
  await tick();
  const second = await openEngram({ path: db });
  await tick();
  // A table no list reads: only the open check finds it damaged.
  damageRoot(db, 'memory_links');
  assert.equal((await second.list({ limit: 1 })).items.length, 1, 'this connection reads on');
  second.close();
  await tick();
  await assert.rejects(openEngram({ path: db }), (error: { code?: string; details?: { trees?: string[] } }) => {
    assert.equal(error.code, 'STORE_CORRUPT');
    assert.deepEqual(error.details?.trees, ['memory_links']);
    return true;
  });
});

test('a store a command wrote is walked again between commands; one damaged by then is not taken for checked', async (t) => {
  const recheck = await rememberCheckedStores();
  const db = join(tempDir(t), 'memory.db');
  const writer = await openEngram({ path: db });
  for (let i = 0; i < 20; i++) await writer.put({ content: `Queue ${i} drains every ${i + 1} minutes` });
  writer.close();
  await tick();
  damageRoot(db, 'memory_links');
  recheck();
  await assert.rejects(openEngram({ path: db }), (error: { code?: string }) => error.code === 'STORE_CORRUPT');
});

/** The two error codes that need a special setup: DB_BUSY and POLICY_REJECTED. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { EngramError, EXIT_CODES, openEngram } from '../src/index.js';
import { createSqliteStore } from '../src/store/sqlite/store.js';
import { tempDir } from './helpers.js';

test('DB_BUSY: a writer that cannot get the lock gets a retryable DB_BUSY (exit 4) and writes nothing', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  (await openEngram({ path: db })).close();
  const holder = new Database(db);
  holder.exec('BEGIN IMMEDIATE');
  t.after(() => {
    if (holder.inTransaction) holder.exec('ROLLBACK');
    holder.close();
  });
  const engram = await openEngram({
    path: db,
    openStore: (path) => createSqliteStore(path, { busyTimeoutMs: 50, busyRetries: 1 }),
  });
  t.after(() => engram.close());
  await assert.rejects(engram.put({ content: 'blocked' }), (error: unknown) => {
    assert.ok(error instanceof EngramError);
    assert.equal(error.code, 'DB_BUSY');
    assert.equal(error.exitCode, 4);
    assert.equal(error.toJSON().retryable, true);
    return true;
  });
  holder.exec('ROLLBACK');
  assert.equal((await engram.stats()).total, 0);
  assert.equal((await engram.put({ content: 'now free' })).action, 'created');
});

test('POLICY_REJECTED from a library admission hook stops the write (exit 1); a hook may edit the item', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  const seen: string[] = [];
  const engram = await openEngram({
    path: db,
    admit: (item, context) => {
      seen.push(context.operation);
      if (item.content.includes('ORCHID')) {
        throw new EngramError('POLICY_REJECTED', 'Names an unannounced project', {
          details: { rules: ['custom.codename'] },
        });
      }
      return item.content.startsWith('draft') ? { ...item, injectable: false } : item;
    },
  });
  t.after(() => engram.close());
  await assert.rejects(engram.put({ content: 'codename ORCHID ships in May' }), (error: unknown) => {
    assert.ok(error instanceof EngramError);
    assert.equal(error.code, 'POLICY_REJECTED');
    assert.equal(EXIT_CODES[error.code], 1);
    return true;
  });
  assert.equal((await engram.stats()).total, 0);
  const draft = await engram.put({ content: 'draft: deploys move to Fridays' });
  assert.equal(draft.item.injectable, false);
  const oldVersion = { version: 1, changed_at: '2026-01-01T00:00:00.000Z', actor: null, reason: 'create' };
  const report = await engram.importLines([
    JSON.stringify({ content: 'fine' }),
    JSON.stringify({ content: 'ORCHID' }),
    JSON.stringify({ content: 'clean now', version: 2, revisions: [{ ...oldVersion, item: { content: 'ORCHID' } }] }),
  ]);
  assert.equal(report.created, 1);
  assert.deepEqual(report.errors.map((e) => [e.line, e.error]), [
    [2, 'POLICY_REJECTED'],
    [3, 'POLICY_REJECTED'],
  ]);
  assert.deepEqual(
    [...new Set(seen)],
    ['put', 'import'],
    'every write path goes through admission',
  );
});

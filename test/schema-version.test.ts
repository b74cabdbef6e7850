/** A database from a newer engram is refused with DB_ERROR and left byte-identical. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { EngramError, openEngram } from '../src/index.js';
import { SCHEMA_VERSION } from '../src/store/sqlite/migrations/index.js';
import { cli, tempDir } from './helpers.js';

const hash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

test('opening a newer schema fails with DB_ERROR naming both versions; the file is unchanged', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  const engram = await openEngram({ path: db });
  await engram.put({ content: 'from the future' });
  engram.close();
  const raw = new Database(db);
  raw.prepare('UPDATE schema_meta SET value = \'99\' WHERE key = \'schema_version\'').run();
  raw.close();
  const before = hash(db);

  const run = cli(['list', '--db', db]);
  assert.equal(run.code, 4);
  assert.equal(run.error?.error, 'DB_ERROR');
  assert.match(String(run.error?.message), new RegExp(`99.*${SCHEMA_VERSION}`));
  assert.equal(run.error?.db_schema_version, 99);
  assert.equal(run.error?.code_schema_version, SCHEMA_VERSION);
  assert.equal(cli(['put', '--db', db, '--content', 'x']).code, 4);
  await assert.rejects(
    openEngram({ path: db }),
    (error: unknown) => error instanceof EngramError && error.code === 'DB_ERROR',
  );
  assert.equal(hash(db), before);
});

test('migrations are recorded in schema_meta and re-opening is a no-op', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  (await openEngram({ path: db })).close();
  const before = hash(db);
  (await openEngram({ path: db })).close();
  assert.equal(hash(db), before);
  const raw = new Database(db, { readonly: true });
  const meta = Object.fromEntries(
    (
      raw.prepare('SELECT key, value FROM schema_meta').all() as { key: string; value: string }[]
    ).map((r) => [r.key, r.value]),
  );
  raw.close();
  assert.equal(meta.schema_version, String(SCHEMA_VERSION));
  assert.match(meta['migration:0001'] ?? '', /^initial /);
  assert.match(meta['migration:0002'] ?? '', /^fulltext /);
  assert.equal(meta.fts_tokenizer, 'en', 'the default preset (English stemming) is recorded with the index');
});

test('the store runs with WAL, foreign keys, NORMAL sync and a 5 s busy timeout', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  const { openDatabase } = await import('../src/store/sqlite/open.js');
  const conn = openDatabase(db);
  t.after(() => conn.close());
  assert.equal(conn.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(conn.pragma('foreign_keys', { simple: true }), 1);
  assert.equal(conn.pragma('synchronous', { simple: true }), 1);
  assert.equal(conn.pragma('busy_timeout', { simple: true }), 5000);
});

import assert from 'node:assert/strict';
import { closeSync, fstatSync, mkdtempSync, openSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openDatabase } from './open.js';
import { removeEmptyStore } from './remove-empty-store.js';
import { toStoreError } from './errors.js';

/** A new engram store at a fresh path, created the way the CLI creates one: O_EXCL, then opened. */
function newStore(t: { after: (fn: () => void) => void }) {
  const dir = mkdtempSync(join(tmpdir(), 'engram-remove-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'memory.db');
  const fd = openSync(path, 'wx');
  const { dev, ino, birthtimeMs } = fstatSync(fd);
  closeSync(fd);
  const db = openDatabase(path);
  return { dir, path, created: { dev, ino, birthtimeMs }, db };
}

test('a store that holds nothing is removed with its -wal and -shm; its directory is left', (t) => {
  const { dir, path, created, db } = newStore(t);
  db.close();
  assert.equal(removeEmptyStore(path, created), true);
  assert.deepEqual(readdirSync(dir), []);
});

test('a store holding a row worth keeping is kept, untouched and still in WAL mode', (t) => {
  const { path, created, db } = newStore(t);
  db.prepare('INSERT INTO workspaces (name, scope, created_at, updated_at) VALUES (\'audit\', \'audit\', \'x\', \'x\')').run();
  db.close();
  assert.equal(removeEmptyStore(path, created), false);
  const again = new Database(path);
  assert.equal(again.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(again.prepare('SELECT count(*) FROM workspaces').pluck().get(), 2);
  again.close();

  // A table added by a later schema counts too, whatever it is.
  const other = newStore(t);
  other.db.exec('CREATE TABLE future_state (x); INSERT INTO future_state VALUES (1)');
  other.db.close();
  assert.equal(removeEmptyStore(other.path, other.created), false);
});

test('a store another connection has open is kept: the exclusive lock is refused at once', (t) => {
  const { path, created, db } = newStore(t);
  // Another process that opened the new store and read it, but has not written yet.
  const reader = new Database(path);
  reader.prepare('SELECT count(*) FROM memory_items').get();
  db.close();
  const started = Date.now();
  assert.equal(removeEmptyStore(path, created), false);
  assert.ok(Date.now() - started < 1000, 'no busy wait');
  reader.close();
  assert.equal(removeEmptyStore(path, created), true, 'once it has closed, the empty store goes');
});

test('only the file this process created is removed: a store recreated at the path is kept', (t) => {
  const { path, created, db } = newStore(t);
  db.close();
  // Held open, the removed file keeps its inode number: the new one cannot reuse it.
  const original = openSync(path, 'r');
  unlinkSync(path);
  const other = openDatabase(path);
  other.close();
  assert.equal(removeEmptyStore(path, created), false);
  closeSync(original);
  // A number reused by the filesystem is told apart by the creation time, where it is recorded.
  const reused = { ...created, ino: fstatSync(openSync(path, 'r')).ino };
  if (created.birthtimeMs !== 0) assert.equal(removeEmptyStore(path, reused), false);
  assert.equal(removeEmptyStore(join(path, 'missing'), created), false);
});

test('a connection that opened the file before it was removed cannot write into it: DB_BUSY, retry', (t) => {
  const { path, created, db } = newStore(t);
  db.close();
  const late = new Database(path); // opened, not locked yet: the window the lock cannot cover
  assert.equal(removeEmptyStore(path, created), true);
  let thrown: unknown;
  try {
    late.pragma('journal_mode = WAL'); // what openDatabase does first
  } catch (error) {
    thrown = error;
  }
  late.close();
  assert.equal((thrown as { code?: string } | undefined)?.code, 'SQLITE_READONLY_DBMOVED');
  const mapped = toStoreError(thrown, path) as { code: string; hint?: string };
  assert.equal(mapped.code, 'DB_BUSY');
  assert.match(String(mapped.hint), /Retry/);
});

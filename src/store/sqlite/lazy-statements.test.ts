import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { lazyStatements } from './lazy-statements.js';

test('a statement is prepared on its first use, once, and one never used is never prepared', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (x)');
  let prepared = 0;
  const statements = lazyStatements({
    insert: () => {
      prepared++;
      return db.prepare('INSERT INTO t (x) VALUES (?)');
    },
    // A table that does not exist: preparing it would throw, so it must never be prepared.
    broken: () => db.prepare('SELECT * FROM missing'),
  });
  assert.equal(prepared, 0);
  statements.insert.run(1);
  statements.insert.run(2);
  assert.equal(prepared, 1);
  assert.equal(db.prepare('SELECT count(*) FROM t').pluck().get(), 2);
  assert.deepEqual(Object.keys(statements), ['insert', 'broken']);
  assert.throws(() => statements.broken.all(), /no such table: missing/);
  db.close();
});

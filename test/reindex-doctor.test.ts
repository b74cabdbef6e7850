/** reindex rebuilds the derived index exactly; doctor reports what is wrong and fails the exit. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { cli, tempDir } from './helpers.js';

test('reindex on a store with an emptied FTS table restores identical search results', (t) => {
  const db = join(tempDir(t), 'm.db');
  const lines = [
    { content: 'Deploys go through the staging cluster first', tags: ['ops'] },
    { content: '登录接口：密码至少8位', tags: ['auth'] },
    { title: 'Password policy', content: 'Passwords need 12 characters' },
    { content: 'Cache TTL is 600 seconds', entities: ['redis'] },
  ];
  cli(['import', '--db', db, '-'], { input: lines.map((l) => JSON.stringify(l)).join('\n') });
  const queries = ['staging', '密码', 'password policy', 'redis', 'cache ttl'];
  const before = queries.map((q) => cli(['search', '--db', db, q]).stdout);
  assert.ok(before.every((out) => (JSON.parse(out) as { count: number }).count > 0));

  const raw = new Database(db);
  raw.exec('DELETE FROM memory_fts');
  raw.close();
  assert.equal(cli(['search', '--db', db, 'staging']).json?.stage, 'like', 'an empty index falls through to LIKE');
  const broken = cli(['doctor', '--db', db]);
  assert.equal(broken.code, 4);
  assert.equal(broken.json?.ok, false);
  assert.match(String((broken.json?.problems as string[])[0]), /0 rows for 4 items/);

  const reindex = cli(['reindex', '--db', db]);
  assert.equal(reindex.code, 0, reindex.stderr);
  assert.equal(reindex.json?.indexed, 4);
  assert.deepEqual(queries.map((q) => cli(['search', '--db', db, q]).stdout), before);
  const healthy = cli(['doctor', '--db', db]);
  assert.equal(healthy.code, 0);
  assert.deepEqual(
    [healthy.json?.ok, healthy.json?.items, healthy.json?.indexed, healthy.json?.integrity],
    [true, 4, 4, ['ok']],
  );
  assert.match(cli(['doctor', '--db', db, '--format', 'text']).stdout, /items \/ indexed\s+4 \/ 4\nintegrity\s+ok\ncontent hashes\s+4 checked, 0 mismatched\nok/);
});

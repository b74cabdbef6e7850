/** reindex rebuilds the derived index exactly; doctor reports what is wrong and fails the exit. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
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

test('reindex of a store without CJK text never loads the segmenter (jieba)', (t) => {
  const dir = tempDir(t);
  const index = JSON.stringify(fileURLToPath(new URL('../src/index.js', import.meta.url)));
  const script = `
    import { createRequire } from 'node:module';
    const { openEngram } = await import(${index});
    const engram = await openEngram({ path: ${JSON.stringify(join(dir, 'ascii.db'))} });
    for (const content of ['Deploys go through staging first', 'Cache TTL is 600 seconds']) await engram.put({ content });
    const { indexed } = await engram.reindex();
    const hits = (await engram.search({ query: 'staging' })).items.length;
    engram.close();
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('jieba'));
    process.stdout.write(JSON.stringify({ indexed, hits, loaded }));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  assert.deepEqual(JSON.parse(child.stdout), { indexed: 2, hits: 1, loaded: [] });
});

/**
 * The SQLite driver's native addon (src/store/sqlite/driver.ts): found as a file in the
 * node_modules above a module, else by the driver's own lookup from its package; either opens a
 * connection. The built CLI's bundle holds the driver's JavaScript and opens stores this way.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { addonByLookup, addonFileAbove, connect } from '../src/store/sqlite/driver.js';
import { CLI, tempDir } from './helpers.js';

const here = fileURLToPath(new URL('.', import.meta.url));

test('the addon is found as a file in the nearest node_modules above a folder, Release before Debug', (t) => {
  const file = addonFileAbove(here);
  assert.ok(file?.endsWith(join('better-sqlite3', 'build', 'Release', 'better_sqlite3.node')), file);
  const dir = tempDir(t);
  const build = (kind: string) => join(dir, 'a', 'node_modules', 'better-sqlite3', 'build', kind);
  const below = join(dir, 'a', 'b', 'c');
  mkdirSync(below, { recursive: true });
  mkdirSync(build('Debug'), { recursive: true });
  writeFileSync(join(build('Debug'), 'better_sqlite3.node'), '');
  assert.equal(addonFileAbove(below), join(build('Debug'), 'better_sqlite3.node'));
  mkdirSync(build('Release'), { recursive: true });
  writeFileSync(join(build('Release'), 'better_sqlite3.node'), '');
  assert.equal(addonFileAbove(below), join(build('Release'), 'better_sqlite3.node'));
});

test('the driver\'s own lookup finds the same addon, and a connection opens with it', () => {
  const addon = addonByLookup();
  const db = new Database(':memory:', { nativeBinding: addon as unknown as string });
  assert.equal(db.prepare('SELECT 40 + 2 AS n').get()?.['n' as never], 42);
  db.close();
  const viaFile = connect(':memory:');
  assert.equal((viaFile.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v.split('.')[0], '3');
  viaFile.close();
});

test('the bundle opens a store with the driver it holds: a put, a search, a list', (t) => {
  const db = join(tempDir(t), 'memory.db');
  const run = (args: string[]) => spawnSync(process.execPath, [CLI, '--db', db, '--json', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ENGRAM_DAEMON: 'off' },
  });
  assert.equal(run(['put', '--content', 'The staging database listens on port 5433']).status, 0);
  const found = JSON.parse(run(['search', 'staging']).stdout) as { items: { content: string }[] };
  assert.equal(found.items[0]?.content, 'The staging database listens on port 5433');
  assert.equal((JSON.parse(run(['list']).stdout) as { total: number }).total, 1);
});

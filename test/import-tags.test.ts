/**
 * Tags from foreign stores, one rule for every reader (src/importers/source-values.ts `splitTags`):
 * a comma separates tags (`"a,b"` is a and b, as `--tags a,b` is), a tag holding a newline or a
 * control character is left out and listed, the others are kept.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { splitTags, toStringList, toTagList } from '../src/importers/source-values.js';
import { mcpMemoryServiceSource } from '../src/importers/sources/mcp-memory-service.js';
import { memContextSource } from '../src/importers/sources/mem-context.js';
import { memctlSource } from '../src/importers/sources/memctl.js';
import { memtoolSource } from '../src/importers/sources/memtool.js';
import { cli, tempDir } from './helpers.js';
import type { Unmapped } from '../src/importers/source.js';
import { readAll } from './import-helpers.js';

const TIMEOUT = { timeout: 60_000 };

const tagNotes = (notes: Unmapped[]) => notes.filter((n) => n.field === 'tags').map((n) => n.reason);

test('tags: commas split, newlines and control characters refused, the rest kept once', () => {
  assert.deepEqual(splitTags(['a,b', ' c ', 'a', 'x\ny', 'tab\there', '', ' , ']), { tags: ['a', 'b', 'c'], refused: ['x\ny', 'tab\there'] });
  assert.deepEqual(toTagList('["ops,release","db"]'), { tags: ['ops', 'release', 'db'], refused: [] });
  assert.deepEqual(toTagList('a, b'), { tags: ['a', 'b'], refused: [] });
  assert.equal(toTagList({}), undefined);
  assert.deepEqual(toStringList(['a,b']), ['a', 'b']);
  assert.equal(toStringList(['ok', 'line\nbreak']), undefined, 'a reader that takes the list whole reports it');
});

test('mem-context, memctl, mcp-memory-service and memtool: a comma tag is split, a newline tag listed', TIMEOUT, async (t) => {
  const dir = tempDir(t);
  const context = join(dir, 'export.json');
  writeFileSync(context, JSON.stringify({ memories: [{ id: 'm1', content: 'Deploys go through staging.', tags: ['a,b', 'x\ny', 'ops'] }] }));
  const fromContext = await readAll(memContextSource, context);
  assert.deepEqual(fromContext.records[0]?.tags, ['a', 'b', 'ops']);
  assert.deepEqual(tagNotes(fromContext.notes), ['tag "x\\ny" holds a newline or a control character; left out']);

  const memctl = join(dir, 'memory.db');
  const db = new Database(memctl);
  db.exec('CREATE TABLE memory_items (id TEXT PRIMARY KEY, content TEXT, tags TEXT, entities TEXT)');
  db.prepare('INSERT INTO memory_items VALUES (?, ?, ?, ?)').run('MEM-1', 'The cache TTL is 300 s.', JSON.stringify(['a,b', 'x\ny']), JSON.stringify(['Acme, Inc.']));
  db.close();
  const fromMemctl = await readAll(memctlSource, memctl);
  assert.deepEqual(fromMemctl.records[0]?.tags, ['a', 'b']);
  assert.deepEqual(fromMemctl.records[0]?.entities, ['Acme, Inc.'], 'entities are not tags: a comma stays');
  assert.equal(tagNotes(fromMemctl.notes).length, 1);

  const mcp = join(dir, 'sqlite_vec.db');
  const store = new Database(mcp);
  store.exec('CREATE TABLE memories (id INTEGER PRIMARY KEY, content_hash TEXT, content TEXT, tags TEXT)');
  store.prepare('INSERT INTO memories VALUES (1, ?, ?, ?)').run('h1', 'Backups run nightly.', JSON.stringify(['db,ops', 'bell\u0007']));
  store.close();
  const fromMcp = await readAll(mcpMemoryServiceSource, mcp);
  assert.deepEqual(fromMcp.records[0]?.tags, ['db', 'ops']);
  assert.equal(tagNotes(fromMcp.notes).length, 1);

  const memtool = join(dir, 'memtool.jsonl');
  writeFileSync(memtool, `${JSON.stringify({ id: 'x1', content: 'Logs rotate daily.', tags: ['a,b'] })}\n${JSON.stringify({ id: 'x2', content: 'Logs ship hourly.', tags: ['x\ny', 'ok'] })}\n`);
  const fromMemtool = await readAll(memtoolSource, memtool);
  assert.deepEqual(fromMemtool.records[0]?.tags, ['a', 'b']);
  assert.deepEqual(fromMemtool.records[1]?.tags, ['ok'], 'the other tags of the record are kept');
  assert.equal(tagNotes(fromMemtool.notes).length, 1, 'listed, not imported as it is');
});

test('an imported comma tag is found by --tags', TIMEOUT, async (t) => {
  const dir = tempDir(t);
  const context = join(dir, 'export.json');
  writeFileSync(context, JSON.stringify({ memories: [{ id: 'm1', content: 'Deploys go through staging first.', tags: ['a,b'] }] }));
  assert.equal(cli(['init', dir]).code, 0);
  const run = cli(['import', '--from', 'mem-context', context], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(cli(['list', '--tags', 'b'], { cwd: dir }).json?.total, 1);
  assert.match(cli(['recall', 'deploys staging', '--tags', 'a'], { cwd: dir }).stdout, /tags=a,b\]/);
});

/**
 * Dates and tags from foreign stores (src/importers/source-values.ts) and how every reader reports
 * one it refuses: a date in the future (it would never decay), before 1970, an ambiguous epoch, a
 * bare year; a past version dated after the current one.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { readTimestamp, toTimestamp } from '../src/importers/source-values.js';
import { basicMemorySource } from '../src/importers/sources/basic-memory.js';
import { mcpMemoryServiceSource } from '../src/importers/sources/mcp-memory-service.js';
import { memContextSource } from '../src/importers/sources/mem-context.js';
import { memctlSource } from '../src/importers/sources/memctl.js';
import { memtoolSource } from '../src/importers/sources/memtool.js';
import { tempDir } from './helpers.js';
import type { Unmapped } from '../src/importers/source.js';
import { readAll } from './import-helpers.js';

const TIMEOUT = { timeout: 60_000 };

const noteOf = (notes: Unmapped[], field: string) => notes.find((n) => n.field === field)?.reason ?? '';

test('timestamps: epoch seconds vs milliseconds by magnitude, edges, bare years, the future and before 1970', () => {
  const now = Date.parse('2026-06-01T00:00:00Z');
  const at = (value: unknown, future = false) => readTimestamp(value, { now, future });
  // Seconds from 1e8 (1973) to 1e10; milliseconds from 1e12 (2001) to 1e14; between is ambiguous.
  assert.equal(at(1e8).at, '1973-03-03T09:46:40.000Z');
  assert.equal(at(1e8 - 1).problem, 'not a date (too small for an epoch time)');
  assert.equal(at(1735787045).at, '2025-01-02T03:04:05.000Z');
  assert.equal(at(1735787045123).at, '2025-01-02T03:04:05.123Z');
  assert.equal(at(1e12).at, '2001-09-09T01:46:40.000Z');
  assert.match(at(99999999999).problem ?? '', /^not a date \(neither epoch seconds/, 'memtool created_at 99999999999 is not year 5138');
  assert.match(at(253402300800).problem ?? '', /^not a date \(neither/, 'not 1978');
  assert.match(at(1e10).problem ?? '', /^not a date \(neither/);
  assert.match(at(1e14).problem ?? '', /too large/);
  assert.equal(at(-5).problem, 'before 1970');
  assert.equal(at('1960-05-01').problem, 'before 1970');
  // A string of 1–4 digits is refused: not an epoch, and a year alone is not read as a date.
  for (const year of ['2024', '1999', '7', '0']) assert.match(at(year).problem ?? '', /^not a date \(a bare number/, year);
  assert.equal(at(2024).problem, 'not a date (too small for an epoch time)');
  assert.equal(at('1735787045').at, '2025-01-02T03:04:05.000Z');
  // The future: a day of clock skew is allowed; later is refused unless the field is a deadline.
  assert.equal(at('2026-06-01T23:00:00Z').at, '2026-06-01T23:00:00.000Z');
  assert.equal(at('2026-06-03T00:00:00Z').problem, 'in the future');
  assert.equal(at('2030-01-01').problem, 'in the future');
  assert.equal(at('2030-01-01', true).at, '2030-01-01T00:00:00.000Z');
  assert.equal(at(1900000000).problem, 'in the future');
  // A naive time without seconds (basic-memory `modified: 2024-03-05 10:00`) is read, as UTC.
  assert.equal(at('2024-03-05 10:00').at, '2024-03-05T10:00:00.000Z');
  assert.equal(toTimestamp('2024-03-05T10:00'), '2024-03-05T10:00:00.000Z');
  assert.equal(toTimestamp('9999-12-31T00:00:00Z'), undefined);
});

test('memctl: future, bare-year and ambiguous dates reported; an expiry may be future; revisions never outdate the item', TIMEOUT, async (t) => {
  const path = join(tempDir(t), 'memory.db');
  const db = new Database(path);
  db.exec(`CREATE TABLE memory_items (id TEXT PRIMARY KEY, content TEXT, created_at TEXT, updated_at TEXT, expires_at TEXT);
    CREATE TABLE memory_revisions (item_id TEXT, revision_num INTEGER, snapshot TEXT, changed_at TEXT, reason TEXT);`);
  const insert = db.prepare('INSERT INTO memory_items VALUES (?, ?, ?, ?, ?)');
  insert.run('MEM-1', 'Pinned by a date far ahead.', '2999-01-01T00:00:00Z', '1999', '2999-01-01T00:00:00Z');
  insert.run('MEM-2', 'Second version.', '2025-01-01T00:00:00Z', '2025-02-01T00:00:00Z', null);
  db.prepare('INSERT INTO memory_items (id, content, created_at) VALUES (?, ?, ?)').run('MEM-3', 'Ambiguous epoch.', 99999999999);
  const revision = db.prepare('INSERT INTO memory_revisions VALUES (?, ?, ?, ?, ?)');
  revision.run('MEM-2', 1, JSON.stringify({ content: 'First version.' }), '2025-03-01T00:00:00Z', 'edit');
  revision.run('MEM-2', 2, JSON.stringify({ content: 'A version from the future.' }), '2030-01-01T00:00:00Z', 'edit');
  revision.run('MEM-2', 3, JSON.stringify({ content: 'A version dated 1999.' }), '1999', 'edit');
  db.close();
  const { records, notes } = await readAll(memctlSource, path);
  const [one, two, three] = records;
  assert.equal(one?.created_at, undefined, 'a created_at in the future is dropped');
  assert.equal(one?.updated_at, undefined);
  assert.equal(one?.expires_at, '2999-01-01T00:00:00.000Z', 'an expiry in the future is what an expiry is');
  const mem1 = notes.filter((n) => n.where === 'MEM-1');
  assert.match(noteOf(mem1, 'created_at'), /^in the future: 2999-01-01T00:00:00Z/);
  assert.match(noteOf(mem1, 'updated_at'), /^not a date \(a bare number, or a year alone\): 1999/);
  assert.equal(three?.created_at, undefined);
  assert.match(noteOf(notes.filter((n) => n.where === 'MEM-3'), 'created_at'), /^not a date \(neither epoch seconds/);
  // Revision 1 is dated after the item's updated_at: reported and dated as the item; 2 and 3 left out.
  assert.deepEqual(two?.revisions?.map((r) => [r.content, r.changed_at]), [['First version.', '2025-02-01T00:00:00.000Z']]);
  const revisionNotes = notes.filter((n) => n.where === 'MEM-2' && n.field === 'memory_revisions').map((n) => n.reason).sort();
  assert.equal(revisionNotes.length, 3);
  assert.match(revisionNotes[0] ?? '', /revision 1 is dated 2025-03-01T00:00:00.000Z, after the item's updated_at 2025-02-01/);
  assert.match(revisionNotes[1] ?? '', /revision 2 has no date engram accepts \(in the future: 2030-01-01/);
  assert.match(revisionNotes[2] ?? '', /revision 3 has no date engram accepts \(not a date \(a bare number/);
});

test('mcp-memory-service, mem-context, memtool and basic-memory report a date they refuse', TIMEOUT, async (t) => {
  const dir = tempDir(t);
  const mcp = join(dir, 'sqlite_vec.db');
  const db = new Database(mcp);
  db.exec(`CREATE TABLE memories (id INTEGER PRIMARY KEY, content_hash TEXT, content TEXT, tags TEXT, memory_type TEXT,
    metadata TEXT, created_at REAL, updated_at REAL, valid_until TEXT, last_accessed_at REAL)`);
  db.prepare('INSERT INTO memories VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run('h1', 'Checked at startup.', 'ops', 'note', '{}', 253402300800, 4102444800, '2999-01-01T00:00:00Z', 4102444800);
  db.close();
  const fromMcp = await readAll(mcpMemoryServiceSource, mcp);
  const record = fromMcp.records[0];
  assert.deepEqual([record?.created_at, record?.updated_at, record?.last_used_at], [undefined, undefined, undefined]);
  assert.equal(record?.expires_at, '2999-01-01T00:00:00.000Z');
  assert.match(noteOf(fromMcp.notes, 'created_at'), /^not a date \(neither/);
  assert.match(noteOf(fromMcp.notes, 'updated_at'), /^in the future: 4102444800/);
  assert.match(noteOf(fromMcp.notes, 'last_accessed_at'), /^in the future: 4102444800/);

  const context = join(dir, 'export.json');
  writeFileSync(context, JSON.stringify({ memories: [{ id: 'm1', content: 'Deploys on Fridays are frozen.', created_at: '2999-01-01T00:00:00Z', updated_at: '1999' }] }));
  const fromContext = await readAll(memContextSource, context);
  assert.equal(fromContext.records[0]?.created_at, undefined);
  assert.match(noteOf(fromContext.notes, 'created_at'), /^in the future/);
  assert.match(noteOf(fromContext.notes, 'updated_at'), /^not a date \(a bare number/);

  const memtool = join(dir, 'memtool.jsonl');
  writeFileSync(memtool, `${JSON.stringify({ id: 'x1', content: 'Backups run nightly.', created_at: 99999999999 })}\n`);
  const fromMemtool = await readAll(memtoolSource, memtool);
  assert.equal(fromMemtool.records[0]?.created_at, undefined, 'not year 5138');
  assert.ok(noteOf(fromMemtool.notes, 'created_at') !== '', 'the dropped date is listed');

  const notes = join(dir, 'notes');
  mkdirSync(notes);
  writeFileSync(join(notes, 'a.md'), '---\ntitle: A\ndate: 2024\nmodified: 2024-03-05 10:00\n---\nBody A.\n');
  writeFileSync(join(notes, 'b.md'), '---\ntitle: B\ncreated: 2999-01-01\n---\nBody B.\n');
  const fromNotes = await readAll(basicMemorySource, notes);
  const a = fromNotes.records.find((r) => r.title === 'A');
  assert.equal(a?.updated_at, '2024-03-05T10:00:00.000Z', 'a time without seconds is read, not replaced by the file time');
  assert.notEqual(a?.created_at?.slice(0, 4), '1970');
  assert.match(noteOf(fromNotes.notes.filter((n) => n.where === 'a'), 'date'), /^not a date \(a bare number, or a year alone\): 2024/);
  const b = fromNotes.records.find((r) => r.title === 'B');
  assert.ok((b?.created_at ?? '') < new Date(Date.now() + 86_400_000).toISOString(), 'the file time, not 2999');
  assert.match(noteOf(fromNotes.notes.filter((n) => n.where === 'b'), 'created'), /^in the future/);
});

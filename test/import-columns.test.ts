/**
 * Columns the SQLite readers do not know are kept, never fatal (memctl with a `secrecy` column is
 * still memctl); a number in the content column (a column declared without TEXT keeps `42` as an
 * integer) is text, a BLOB is reported as such.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import type { ImportSource, SourceRecord, Unmapped } from '../src/importers/source.js';
import { mcpMemoryServiceSource } from '../src/importers/sources/mcp-memory-service.js';
import { memctlSource } from '../src/importers/sources/memctl.js';
import { tempDir } from './helpers.js';

const TIMEOUT = { timeout: 60_000 };

async function readAll(source: ImportSource, path: string): Promise<{ records: SourceRecord[]; skipped: Unmapped[] }> {
  const records: SourceRecord[] = [];
  const skipped: Unmapped[] = [];
  for await (const entry of source.read(path)) {
    if ('record' in entry) records.push(entry.record);
    else if (entry.unmapped.field === undefined) skipped.push(entry.unmapped);
  }
  return { records, skipped };
}

test('memctl: an extra column (secrecy) is kept in provenance; numeric content is text; a BLOB is reported', TIMEOUT, async (t) => {
  const path = join(tempDir(t), 'memory.db');
  const db = new Database(path);
  db.exec('CREATE TABLE memory_items (id TEXT PRIMARY KEY, content, title TEXT, secrecy TEXT, provenance_json TEXT)');
  const insert = db.prepare('INSERT INTO memory_items VALUES (?, ?, ?, ?, ?)');
  insert.run('MEM-1', 'Backups run nightly.', 'Backups', 'internal', null);
  insert.run('MEM-2', 42n, 'The answer', 'public', null);
  insert.run('MEM-3', 2.5, 'A ratio', null, null);
  insert.run('MEM-4', Buffer.from([1, 2, 3]), 'Binary', null, null);
  db.close();
  const { records, skipped } = await readAll(memctlSource, path);
  assert.deepEqual(records.map((r) => [r.sourceId, r.content]), [['MEM-1', 'Backups run nightly.'], ['MEM-2', '42'], ['MEM-3', '2.5']]);
  assert.deepEqual(records[0]?.provenance?.columns, { secrecy: 'internal' });
  assert.deepEqual(skipped, [{ where: 'MEM-4', reason: 'content is binary (a BLOB), not text' }]);
});

test('mcp-memory-service: a number in the content column is imported as text', TIMEOUT, async (t) => {
  const path = join(tempDir(t), 'sqlite_vec.db');
  const db = new Database(path);
  db.exec('CREATE TABLE memories (id INTEGER PRIMARY KEY, content_hash TEXT, content, tags TEXT, secrecy TEXT)');
  db.prepare('INSERT INTO memories VALUES (1, ?, ?, ?, ?)').run('h1', 1234n, 'ops', 'internal');
  db.close();
  const { records, skipped } = await readAll(mcpMemoryServiceSource, path);
  assert.deepEqual(skipped, []);
  assert.equal(records[0]?.content, '1234');
  assert.deepEqual((records[0]?.provenance?.columns as Record<string, unknown>).secrecy, 'internal');
});

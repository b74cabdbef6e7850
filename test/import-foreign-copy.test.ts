/**
 * The foreign SQLite opener (src/store/sqlite/foreign.ts) reads a private copy: a WAL-mode source
 * with committed rows not yet checkpointed is read whole, the source folder is left byte for byte
 * as it was (no `-shm`, no `-wal` created next to it), another process's lock does not stop the
 * read, and the copy is removed afterwards, on error too.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { isEngramError } from '../src/errors.js';
import type { SourceRecord } from '../src/importers/source.js';
import { memctlSource } from '../src/importers/sources/memctl.js';
import { CLI, tempDir } from './helpers.js';

const TIMEOUT = { timeout: 60_000 };

async function records(path: string): Promise<SourceRecord[]> {
  const out: SourceRecord[] = [];
  for await (const entry of memctlSource.read(path)) if ('record' in entry) out.push(entry.record);
  return out;
}

/** Every file of `dir` with its bytes, to compare a folder before and after. */
function snapshot(dir: string): Record<string, string> {
  const files = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name).sort();
  return Object.fromEntries(files.map((name) => [name, readFileSync(join(dir, name)).toString('base64')]));
}

const copies = () => readdirSync(tmpdir()).filter((name) => name.startsWith('engram-import-')).sort();

const SCHEMA = 'CREATE TABLE memory_items (id TEXT PRIMARY KEY, content TEXT, created_at TEXT, updated_at TEXT)';

test('foreign database: a WAL-mode source is read with its un-checkpointed rows; its folder is not written', TIMEOUT, async (t) => {
  const dir = tempDir(t);
  const live = join(dir, 'live.db');
  const writer = new Database(live);
  t.after(() => writer.close());
  writer.pragma('journal_mode = WAL');
  writer.pragma('wal_autocheckpoint = 0');
  writer.exec(SCHEMA);
  const insert = writer.prepare('INSERT INTO memory_items VALUES (?, ?, ?, ?)');
  for (let i = 0; i < 30; i++) insert.run(`MEM-${i}`, `Committed row ${i}, only in the WAL.`, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z');
  // The source as memctl leaves it when it stops uncleanly: the main file and its WAL, no -shm, no process.
  const source = join(dir, 'source');
  mkdirSync(source);
  copyFileSync(live, join(source, 'memory.db'));
  copyFileSync(`${live}-wal`, join(source, 'memory.db-wal'));
  const path = join(source, 'memory.db');
  const before = snapshot(source);
  const ownBefore = copies();
  const read = await records(path);
  assert.equal(read.length, 30, 'every committed row, the WAL included');
  assert.equal(read[29]?.content, 'Committed row 29, only in the WAL.');
  assert.deepEqual(snapshot(source), before, 'no file created, changed or removed next to the source');
  assert.deepEqual(copies(), ownBefore, 'the private copy is removed');
  // The live database, another process's WAL and -shm in use: its files are left as they were too.
  const liveBefore = snapshot(dir);
  assert.equal((await records(live)).length, 30);
  assert.deepEqual(snapshot(dir), liveBefore);
});

test('foreign database: another connection\'s exclusive lock neither stops nor delays the read', TIMEOUT, async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'memory.db');
  const setup = new Database(path);
  setup.exec(SCHEMA);
  setup.prepare('INSERT INTO memory_items VALUES (?, ?, ?, ?)').run('MEM-1', 'Committed before the lock.', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z');
  setup.close();
  const holder = new Database(path);
  t.after(() => holder.close());
  holder.exec('BEGIN EXCLUSIVE');
  holder.prepare('INSERT INTO memory_items VALUES (?, ?, ?, ?)').run('MEM-2', 'Not committed.', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z');
  const started = Date.now();
  const read = await records(path);
  assert.deepEqual(read.map((r) => r.sourceId), ['MEM-1'], 'the committed state only');
  assert.ok(Date.now() - started < 4_000, 'no wait for the lock (the driver would wait 5 s)');
  holder.exec('ROLLBACK');
});

test('foreign database: the private copy is removed when the file is not a database', TIMEOUT, async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'notes.db');
  writeFileSync(path, 'plain text, not SQLite\n'.repeat(100));
  const before = copies();
  await assert.rejects(records(path), (error: unknown) => isEngramError(error) && error.code === 'PARAM_ERROR' && error.message.includes(path));
  await assert.rejects(records(join(dir, 'absent.db')), (error: unknown) => isEngramError(error) && /absent\.db.*no such file/.test(error.message));
  await assert.rejects(records(dir), (error: unknown) => isEngramError(error) && /it is a folder/.test(error.message));
  assert.deepEqual(copies(), before);
  assert.deepEqual(readdirSync(dir), ['notes.db']);
});

// chmod does not stop root: the read-only folder is tried as an unprivileged user, when there is a way to be one.
const asNobody = process.getuid?.() === 0 && existsSync('/usr/bin/setpriv');

test('foreign database: a WAL-mode source in a read-only folder is imported by a user who cannot write there', { ...TIMEOUT, skip: !asNobody }, (t) => {
  const dir = tempDir(t);
  chmodSync(dir, 0o755);
  const live = join(dir, 'live.db');
  const writer = new Database(live);
  writer.pragma('journal_mode = WAL');
  writer.pragma('wal_autocheckpoint = 0');
  writer.exec(SCHEMA);
  writer.prepare('INSERT INTO memory_items VALUES (?, ?, ?, ?)').run('MEM-1', 'Only in the WAL.', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z');
  const source = join(dir, 'source');
  mkdirSync(source);
  copyFileSync(live, join(source, 'memory.db'));
  copyFileSync(`${live}-wal`, join(source, 'memory.db-wal'));
  writer.close();
  chmodSync(join(source, 'memory.db'), 0o444);
  chmodSync(join(source, 'memory.db-wal'), 0o444);
  chmodSync(source, 0o555);
  const out = join(dir, 'out');
  mkdirSync(out);
  chmodSync(out, 0o777);
  const before = snapshot(source);
  const run = spawnSync('/usr/bin/setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, CLI,
    'import', '--from', 'memctl', join(source, 'memory.db'), '--db', join(out, 'e.db'), '--json'], {
    encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: out, ENGRAM_NO_UPDATE_CHECK: '1' },
  });
  const report = JSON.parse(run.stdout) as { created: number };
  assert.equal(report.created, 1, run.stderr);
  assert.deepEqual(snapshot(source), before, 'nothing written next to the source');
});

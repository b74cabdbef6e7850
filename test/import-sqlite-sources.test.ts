/**
 * The two SQLite import sources at reader level (`src/importers/sources/memctl.ts`,
 * `mcp-memory-service.ts`): a generated database of each (≥ 1,000 records, every field kind) read
 * record by record and compared field by field with what the generator wrote; the notes for what
 * could not be mapped; older schemas; files that are not the source; and the file left untouched.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { isEngramError } from '../src/errors.js';
import { openEngram } from '../src/index.js';
import type { ImportSource, SourceEntry, SourceRecord, Unmapped } from '../src/importers/source.js';
import { mcpMemoryServiceSource, TYPE_MAP } from '../src/importers/sources/mcp-memory-service.js';
import { memctlSource } from '../src/importers/sources/memctl.js';
import { tempDir } from './helpers.js';
import { type MemctlItem, makeMcpMemoryDb, makeMemctlDb, type McpMemory, memctlId } from './import-sqlite-fixtures.js';

interface Read {
  records: Map<string, SourceRecord>;
  /** Field notes and schema notes (those with a `field`). */
  notes: Unmapped[];
  /** Whole records left out. */
  skipped: Unmapped[];
  order: string[];
}

async function readAll(source: ImportSource, path: string): Promise<Read> {
  const out: Read = { records: new Map(), notes: [], skipped: [], order: [] };
  for await (const entry of source.read(path) as AsyncIterable<SourceEntry>) {
    if ('record' in entry) {
      assert.ok(!out.records.has(entry.record.sourceId), `one record per source id: ${entry.record.sourceId}`);
      out.records.set(entry.record.sourceId, entry.record);
      out.order.push(entry.record.sourceId);
    } else if (entry.unmapped.field === undefined) out.skipped.push(entry.unmapped);
    else out.notes.push(entry.unmapped);
  }
  return out;
}

const notesOf = (read: Read, where: string, field?: string) =>
  read.notes.filter((n) => n.where === where && (field === undefined || n.field === field));
const fileHash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
/** What a reader must give for a timestamp the generator wrote (Python isoformat, naive, Z). */
const utc = (text: string) => new Date(/[Zz]|[+-]\d{2}:\d{2}$/.test(text) ? text : `${text.replace(' ', 'T')}Z`).toISOString();

async function rejects(source: ImportSource, path: string, pattern: RegExp): Promise<void> {
  await assert.rejects(
    async () => {
      for await (const entry of source.read(path)) void entry;
    },
    (error: unknown) => {
      assert.ok(isEngramError(error), String(error));
      assert.equal(error.code, 'PARAM_ERROR');
      assert.match(`${error.message} ${error.hint ?? ''}`, pattern);
      return true;
    },
  );
}

// ---------------------------------------------------------------------------------------------
// memctl / RAGIX
// ---------------------------------------------------------------------------------------------

const MEMCTL_TYPE = (type: string) => (type === 'process' ? 'pattern' : type === 'hunch' ? 'note' : type);
const MEMCTL_VALIDATION: Record<string, string> = { unverified: 'unverified', verified: 'verified', contested: 'contradicted', retracted: 'contradicted' };
const MEMCTL_LINK: Record<string, string> = { refines: 'derived_from', blocks: 'related', supports: 'supports', contradicts: 'contradicts', supersedes: 'supersedes' };

function expectMemctl(item: MemctlItem, record: SourceRecord, read: Read, byId: Map<string, MemctlItem>): void {
  const at = `record ${item.id}`;
  assert.equal(record.content, item.content, at);
  assert.equal(record.title, item.title === '' ? undefined : item.title, at);
  assert.equal(record.type, MEMCTL_TYPE(item.type), at);
  assert.equal(record.tier, item.tier, at);
  assert.equal(record.scope, item.scope, at);
  assert.deepEqual(record.tags, item.tags.startsWith('{') ? [] : JSON.parse(item.tags), at);
  assert.deepEqual(record.entities, JSON.parse(item.entities), at);
  assert.equal(record.confidence, item.confidence > 1 ? undefined : item.confidence, at);
  assert.equal(record.validation, MEMCTL_VALIDATION[item.validation], at);
  assert.equal(record.provenance?.validation, ['contested', 'retracted'].includes(item.validation) ? item.validation : undefined, at);
  assert.equal(record.created_at, item.created_at.startsWith('sometime') ? undefined : utc(item.created_at), at);
  assert.equal(record.updated_at, utc(item.updated_at), at);
  assert.equal(record.expires_at, item.expires_at === null ? undefined : utc(item.expires_at), at);
  assert.equal(record.source, item.file, at);
  const p = record.provenance ?? {};
  assert.equal(p.source_kind, item.file === undefined ? 'chat' : 'doc', at);
  assert.deepEqual(p.chunk_ids, item.file === undefined ? undefined : [`chunk-${item.index}`], at);
  const file = p.file as Record<string, unknown> | undefined;
  assert.equal(file?.path, item.file, at);
  if (item.file !== undefined) {
    assert.deepEqual(file?.mount, { path: '/srv/project/docs', name: 'docs' }, at);
    assert.deepEqual([file?.rel_path, file?.ext, file?.lang_hint, file?.mtime], [item.file.slice(5), '.md', 'en', '2025-12-31T00:00:00.000Z'], at);
    assert.equal(file?.ingested_at, '2026-01-01T00:00:00.123Z', at);
  }
  assert.equal(record.corpus_id, item.corpus_id ?? undefined, at);
  assert.equal(p.corpus_label, item.corpus_id === null ? undefined : 'Q1 corpus', at);
  assert.equal(p.rule_id, item.rule_id ?? undefined, at);
  assert.equal(p.content_hash, item.content_hash, at);
  assert.equal(record.usage_count, item.usage_count, at);
  assert.equal(record.last_used_at, item.last_used_at === null ? undefined : utc(item.last_used_at), at);
  assert.equal(record.archived, item.archived === 1 ? true : undefined, at);
  assert.equal(record.injectable, item.injectable === 0 ? false : undefined, at);
  assert.equal(p.type, item.type === 'process' || item.type === 'hunch' ? item.type : undefined, at);
  const palace = p.palace as Record<string, unknown> | undefined;
  const { assigned_at: assigned, ...location } = palace ?? {};
  assert.deepEqual(palace === undefined ? undefined : location, item.palace, at);
  if (palace !== undefined) assert.equal(assigned, utc(item.updated_at), at);
  // Revisions: the past versions, oldest first; the broken first snapshot is reported instead.
  const drafts = item.badRevision ? item.drafts.slice(1) : item.drafts;
  assert.deepEqual((record.revisions ?? []).map((r) => r.content), drafts, at);
  for (const r of record.revisions ?? []) {
    assert.match(r.changed_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, at);
    assert.equal(r.title, item.title === '' ? undefined : item.title, at);
  }
  assert.equal(notesOf(read, item.id, 'memory_revisions').length, item.badRevision ? 1 : 0, at);
  // Links: memory_links, links_json and superseded_by (a supersedes link from the newer item).
  const expected = [...item.links, ...JSON.parse(item.links_json) as { to: string; rel: string }[]];
  for (const other of byId.values()) if (other.superseded_by === item.id) expected.push({ to: other.id, rel: 'supersedes' });
  const kept = expected.filter((l) => byId.has(l.to));
  assert.deepEqual(
    (record.links ?? []).map((l) => `${l.type}>${l.to}`).sort(),
    kept.map((l) => `${MEMCTL_LINK[l.rel]}>${l.to}`).sort(),
    at,
  );
  assert.equal(notesOf(read, item.id, 'links').length, expected.length - kept.length + kept.filter((l) => l.rel === 'blocks').length, at);
  // Vectors: float32 as written; a blob of the wrong length is reported.
  if (item.vector === undefined || item.badVector) assert.equal(record.vector, undefined, at);
  else assert.deepEqual([...(record.vector ?? [])], item.vector, at);
  assert.equal(p.embedding_model, item.vector !== undefined && !item.badVector ? 'nomic-embed-text' : undefined, at);
  // A note for each field that could not be mapped, and none otherwise.
  const fields = new Set(notesOf(read, item.id).map((n) => n.field));
  assert.equal(fields.has('type'), item.type === 'hunch', at);
  assert.equal(fields.has('tags'), item.tags.startsWith('{'), at);
  assert.equal(fields.has('confidence'), item.confidence > 1, at);
  assert.equal(fields.has('created_at'), item.created_at.startsWith('sometime'), at);
  assert.equal(fields.has('memory_embeddings'), item.badVector, at);
}

test('memctl: a generated memory.db of 1,200 items is read field by field', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const { path, items } = makeMemctlDb(dir);
  const before = fileHash(path);
  const read = await readAll(memctlSource, path);
  const byId = new Map(items.map((item) => [item.id, item]));
  assert.ok(items.filter((item) => item.archived === 1).length > 10, 'archived items, imported archived');
  assert.equal(read.records.size, items.length);
  assert.deepEqual(read.skipped, []);
  assert.deepEqual(read.order, items.map((item) => item.id), 'in the database order');
  for (const item of items) expectMemctl(item, read.records.get(item.id) as SourceRecord, read, byId);
  const superseded = read.records.get(memctlId(58))?.links ?? [];
  assert.ok(superseded.some((l) => l.type === 'supersedes' && l.to === memctlId(59)), 'superseded_by becomes a supersedes link');
  // Schema notes: a table memctl does not have is reported with its size; the audit log, FTS5
  // shadow tables and memctl's own bookkeeping are not.
  const schema = read.notes.filter((n) => !byId.has(n.where));
  assert.deepEqual(schema, [{ where: 'team_bookmarks', field: 'team_bookmarks', reason: '3 rows not imported: not a memctl table engram maps' }]);
  assert.equal(fileHash(path), before, 'the database is left byte for byte as it was');
});

test('memctl: a database another process has open in WAL mode is read with its committed writes, untouched', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t);
  const { path } = makeMemctlDb(dir, { count: 20 });
  const writer = new Database(path);
  t.after(() => writer.close());
  writer.pragma('wal_autocheckpoint = 0');
  writer.prepare(`INSERT INTO memory_items (id, tier, type, content, created_at, updated_at) VALUES ('MEM-live', 'stm', 'note', 'Written while the import runs.', '2026-03-01T09:00:00+01:00', '2026-03-01T09:00:00+01:00')`).run();
  const main = fileHash(path);
  const wal = fileHash(`${path}-wal`);
  const read = await readAll(memctlSource, path);
  assert.equal(read.records.get('MEM-live')?.created_at, '2026-03-01T08:00:00.000Z', 'the committed write in the WAL is seen');
  assert.equal(fileHash(path), main);
  assert.equal(fileHash(`${path}-wal`), wal);
});

test('memctl: an older schema is read as far as it goes, each gap reported once', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'old.db');
  const db = new Database(path);
  db.exec(`CREATE TABLE memory_items (id TEXT PRIMARY KEY, tier TEXT, type TEXT, title TEXT, content TEXT, tags TEXT,
    created_at TEXT, updated_at TEXT, archived INTEGER, legacy_score REAL);
    CREATE TABLE memory_revisions (revision_id TEXT, item_id TEXT, revision_num INTEGER, snapshot TEXT, changed_at TEXT, reason TEXT);`);
  const insert = db.prepare('INSERT INTO memory_items VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  insert.run('MEM-1', 'ltm', 'decision', 'Use WAL', 'We use WAL mode.', '["db"]', '1767225600', '1767225600123', 0, 0.25);
  insert.run('MEM-2', 'weird', 'fact', '', '   ', '[]', '2026-01-01', '2026-01-01', 0, null);
  db.close();
  const read = await readAll(memctlSource, path);
  assert.deepEqual([...read.records.keys()], ['MEM-1']);
  const record = read.records.get('MEM-1') as SourceRecord;
  assert.equal(record.created_at, '2026-01-01T00:00:00.000Z', 'epoch seconds as text');
  assert.equal(record.updated_at, '2026-01-01T00:00:00.123Z', 'epoch milliseconds as text');
  assert.equal(record.type, 'decision');
  assert.equal(record.tier, 'ltm');
  assert.deepEqual(record.provenance, { columns: { legacy_score: 0.25 } }, 'an unknown column is kept in provenance');
  assert.equal(record.confidence, undefined);
  assert.deepEqual(read.skipped, [{ where: 'MEM-2', reason: 'empty content' }]);
  const missing = read.notes.filter((n) => n.where === 'memory_items').map((n) => n.field).sort();
  assert.deepEqual(missing, ['confidence', 'entities', 'expires_at', 'provenance_json', 'scope', 'validation']);
  assert.deepEqual(read.notes.filter((n) => n.where !== 'memory_items').map((n) => n.where).sort(), ['corpus_hashes', 'memory_links']);
});

test('memctl and mcp-memory-service: a file that is not the source is a PARAM_ERROR with a hint', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t);
  const text = join(dir, 'notes.txt');
  writeFileSync(text, 'not a database at all, just some text\n'.repeat(200));
  await rejects(memctlSource, text, /Cannot read .*notes\.txt as a SQLite database.*memctl/s);
  await rejects(mcpMemoryServiceSource, text, /Cannot read .*notes\.txt as a SQLite database.*mcp-memory-service/s);
  await rejects(memctlSource, join(dir, 'absent.db'), /absent\.db/);
  const memctl = makeMemctlDb(dir, { count: 3 }).path;
  const mcp = makeMcpMemoryDb(dir, { count: 3 }).path;
  await rejects(memctlSource, mcp, /not a memctl .* mcp-memory-service database/s);
  await rejects(mcpMemoryServiceSource, memctl, /not an mcp-memory-service one.*memctl \/ RAGIX database/s);
  const engram = join(dir, 'engram.db');
  const store = await openEngram({ path: engram });
  store.close();
  await rejects(memctlSource, engram, /is an engram store, not a memctl/);
  const empty = join(dir, 'empty.db');
  new Database(empty).close();
  await rejects(memctlSource, empty, /not a memctl \/ RAGIX one/);
});

test('memctl: a damaged database is a DB_ERROR naming the file, not a driver error', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t);
  const { path } = makeMemctlDb(dir, { count: 400 });
  const intact = readFileSync(path);
  const page = intact.readUInt16BE(16);
  // The schema's pages damaged (the open fails), then only the last third (a read fails).
  for (const from of [page, Math.floor(intact.length / page / 1.5) * page]) {
    const bytes = Buffer.from(intact);
    bytes.fill(0x5a, from, bytes.length - page);
    writeFileSync(path, bytes);
    await assert.rejects(
      async () => {
        for await (const entry of memctlSource.read(path)) void entry;
      },
      (error: unknown) => {
        assert.ok(isEngramError(error), String(error));
        assert.equal(error.code, 'DB_ERROR', error.message);
        assert.match(error.message, /Cannot read .*memory\.db: database disk image is malformed/);
        return true;
      },
    );
  }
});

// ---------------------------------------------------------------------------------------------
// mcp-memory-service
// ---------------------------------------------------------------------------------------------

/** The memory's outgoing links as the source holds them: its graph edges and its lineage. */
function mcpEdges(m: McpMemory, memories: readonly McpMemory[]): { to: string; rel: string }[] {
  const edges = [...m.graph];
  for (const other of memories) if (other.superseded_by === m.content_hash) edges.push({ to: other.content_hash, rel: 'supersedes' });
  const parent = memories.find((other) => other.content_hash === m.parent_id);
  if (parent !== undefined && parent.superseded_by !== m.content_hash) edges.push({ to: parent.content_hash, rel: 'derived_from' });
  return edges;
}

function expectMcp(
  m: McpMemory,
  record: SourceRecord,
  read: Read,
  live: Set<string>,
  memories: readonly McpMemory[],
): void {
  const at = `memory ${m.id}`;
  assert.equal(record.content, m.content, at);
  const p = record.provenance ?? {};
  assert.equal(p.id, m.id, at);
  const tags = m.tags.startsWith('{') ? [] : m.tags.startsWith('[') ? JSON.parse(m.tags) : m.tags.split(',').map((s) => s.trim()).filter(Boolean);
  assert.deepEqual(record.tags, tags, at);
  const mapped = m.memory_type === null ? undefined : TYPE_MAP[m.memory_type];
  assert.equal(record.type, m.memory_type === null ? undefined : (mapped?.type ?? 'note'), at);
  assert.equal(record.tier, mapped?.tier, at);
  assert.equal(p.memory_type, m.memory_type ?? undefined, at);
  if (m.metadata === 'not json at all') assert.equal(p.metadata_text, m.metadata, at);
  else assert.deepEqual(p.metadata, m.metadata === '{}' ? undefined : JSON.parse(m.metadata), at);
  const created = m.created_at === null ? m.created_at_iso : new Date(m.created_at * 1000).toISOString();
  assert.equal(record.created_at, created, 'created_at, or created_at_iso when it is null');
  assert.equal(record.updated_at, new Date(m.updated_at * 1000).toISOString(), at);
  assert.equal(record.expires_at, m.valid_until ?? undefined, at);
  assert.deepEqual(p.columns, { strength: m.strength, version: m.version }, at);
  assert.equal(record.confidence, m.confidence !== null && m.confidence <= 1 ? m.confidence : undefined, at);
  assert.equal(record.archived, m.superseded_by === null ? undefined : true, 'a superseded version is archived');
  const meta = m.metadata.startsWith('{') ? JSON.parse(m.metadata) as { access_count?: number; last_accessed_at?: number } : {};
  assert.equal(record.usage_count, meta.access_count, at);
  const last = m.last_accessed_at ?? m.last_accessed ?? meta.last_accessed_at;
  assert.equal(record.last_used_at, last === undefined ? undefined : new Date(last * 1000).toISOString(), at);
  assert.deepEqual([...(record.vector ?? [])], m.vector, at);
  const edges = mcpEdges(m, memories);
  const kept = edges.filter((g) => live.has(g.to));
  const exact = ['supports', 'related', 'contradicts', 'supersedes', 'derived_from'];
  const type = (rel: string) => (exact.includes(rel) ? rel : 'related');
  assert.deepEqual((record.links ?? []).map((l) => `${l.type}>${l.to}`).sort(), kept.map((g) => `${type(g.rel)}>${g.to}`).sort(), at);
  const fields = notesOf(read, m.content_hash).map((n) => n.field).sort();
  const expected = [
    ...(m.tags.startsWith('{') ? ['tags'] : []),
    ...(m.memory_type === 'whimsy' ? ['memory_type'] : []),
    ...(m.metadata === 'not json at all' ? ['metadata'] : []),
    ...(m.confidence !== null && m.confidence > 1 ? ['confidence'] : []),
    ...edges.filter((g) => !live.has(g.to) || !exact.includes(g.rel)).map(() => 'links'),
  ].sort();
  assert.deepEqual(fields, expected, at);
}

test('mcp-memory-service: a generated sqlite_vec.db of 1,100 memories is read field by field', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const { path, memories } = makeMcpMemoryDb(dir);
  const before = fileHash(path);
  const read = await readAll(mcpMemoryServiceSource, path);
  const deleted = memories.filter((m) => m.deleted_at !== null);
  const live = new Set(memories.filter((m) => m.deleted_at === null).map((m) => m.content_hash));
  assert.equal(read.records.size, memories.length - deleted.length);
  assert.equal(read.records.size + read.skipped.length, memories.length);
  assert.deepEqual(read.skipped.map((s) => s.where), deleted.map((m) => m.content_hash));
  for (const s of read.skipped) assert.match(s.reason, /tombstone/);
  for (const m of memories) {
    if (m.deleted_at !== null) continue;
    expectMcp(m, read.records.get(m.content_hash) as SourceRecord, read, live, memories);
  }
  const causes = read.notes.find((n) => /relation 'causes'/.test(n.reason));
  assert.ok(causes, 'a causes edge is reported as kept as related');
  assert.ok(read.notes.some((n) => /follows link to .* not in the database \(or deleted there\)/.test(n.reason)));
  const evolved = memories[60] as McpMemory;
  const evolvedLinks = read.records.get(evolved.content_hash)?.links ?? [];
  assert.ok(evolvedLinks.some((l) => l.type === 'supersedes' && l.to === memories[59]?.content_hash), 'superseded_by: a supersedes link');
  assert.ok(!evolvedLinks.some((l) => l.type === 'derived_from'), 'its parent_id adds nothing: the same lineage');
  assert.equal(read.records.get(memories[59]?.content_hash ?? '')?.archived, true);
  const derived = read.records.get(memories[80]?.content_hash ?? '')?.links ?? [];
  assert.ok(derived.some((l) => l.type === 'derived_from' && l.to === memories[75]?.content_hash), 'parent_id: derived_from');
  const schema = read.notes.filter((n) => !memories.some((m) => m.content_hash === n.where));
  assert.deepEqual(schema, [{ where: 'memory_conflicts', field: 'memory_conflicts', reason: '2 rows not imported: not an mcp-memory-service table engram maps' }]);
  assert.equal(fileHash(path), before, 'the database is left byte for byte as it was');
});

test('mcp-memory-service: an early schema (no ISO twins, no graph, tags as JSON) is read', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'early.db');
  const db = new Database(path);
  db.exec(`CREATE TABLE memories (id INTEGER PRIMARY KEY AUTOINCREMENT, content_hash TEXT UNIQUE NOT NULL, content TEXT NOT NULL,
    tags TEXT, memory_type TEXT, created_at REAL);`);
  db.prepare('INSERT INTO memories (content_hash, content, tags, memory_type, created_at) VALUES (?, ?, ?, ?, ?)')
    .run('h1', 'The nightly job retries three times.', '["ops","jobs"]', 'learning', 1_767_225_600.25);
  db.prepare('INSERT INTO memories (content_hash, content, tags, memory_type, created_at) VALUES (?, ?, ?, ?, ?)')
    .run('', 'A memory stored without a hash.', null, null, null);
  db.close();
  const read = await readAll(mcpMemoryServiceSource, path);
  assert.deepEqual(read.records.get('h1'), {
    sourceId: 'h1',
    content: 'The nightly job retries three times.',
    tags: ['ops', 'jobs'],
    type: 'fact',
    tier: 'mtm',
    created_at: '2026-01-01T00:00:00.250Z',
    provenance: { id: 1, memory_type: 'learning' },
  });
  assert.deepEqual(read.records.get('id:2'), { sourceId: 'id:2', content: 'A memory stored without a hash.', tags: [], provenance: { id: 2 } });
  assert.deepEqual(read.notes.map((n) => n.field).sort(), ['metadata', 'updated_at']);
});

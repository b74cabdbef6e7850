/**
 * `engram import --from mem-context`: a JSON export of 1,100 memories generated in mem-context's
 * documented shape (memory types episodic / semantic / permanent with their default weights,
 * tags, scope, session, metadata, the diff / error trace / files columns, access counts,
 * embeddings of two dimensions) and relations between them, with secrets and broken memories.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import type { Embedder } from '../src/embed/embedder.js';
import { openEngram } from '../src/index.js';
import { createSqliteStore } from '../src/store/sqlite/store.js';
import { tempDir } from './helpers.js';
import { assertAddsUp, assertNowhere, importFrom, secretValue, withoutHash } from './import-helpers.js';

const TIMEOUT = { timeout: 600_000 };
const COUNT = 1100;
const TYPES = ['episodic', 'semantic', 'permanent'] as const;
const TIERS = { episodic: 'stm', semantic: 'mtm', permanent: 'ltm' } as const;
const DEFAULT_WEIGHT = { episodic: 0.5, semantic: 0.7, permanent: 1.0 } as const;
const BASE = Date.UTC(2025, 5, 1);

const id = (i: number) => `m${i.toString(16).padStart(6, '0')}-ctx`;
const secretIn = (i: number): 'content' | 'diff' | 'metadata' | undefined =>
  i % 100 === 9 ? 'content' : i % 300 === 42 ? 'diff' : i === 777 ? 'metadata' : undefined;
const EMPTY = 15;
const NO_CONTENT = 16;
const BAD_TYPE = 17;
const UNKNOWN_FIELD = 18;
const dims = (i: number) => (i % 10 === 0 ? 8 : i % 10 === 5 ? 4 : 0);
const vectorOf = (i: number, n: number) =>
  Array.from({ length: n }, (_, k) => Math.sin(i * 7 + k) + (k === i % n ? 2 : 0));

function memory(i: number): Record<string, unknown> {
  const type = TYPES[i % 3] as (typeof TYPES)[number];
  const secret = secretIn(i) === undefined ? '' : secretValue(i, 'mem-context');
  const created = BASE + i * 600_000;
  const m: Record<string, unknown> = {
    id: id(i),
    content: i === EMPTY ? '' : i === NO_CONTENT ? { text: 'structured' } : `Conclusion ${i}: retry the sync after a timeout${secretIn(i) === 'content' ? ` ${secret}` : ''}`,
    type: i === BAD_TYPE ? 'working' : type,
    tags: i % 4 === 0 ? JSON.stringify(['sync', `t${i % 5}`]) : ['sync', `t${i % 5}`],
    scope: i % 2 === 0 ? 'proj:4f2a9c' : 'global',
    created_at: i % 3 === 0 ? Math.floor(created / 1000) : new Date(created + 7_200_000).toISOString().replace('Z', '+02:00'),
    updated_at: new Date(created + 60_000).toISOString(),
    access_count: i % 6,
    last_accessed: new Date(created + 120_000).toISOString(),
  };
  if (i % 4 !== 1) m.weight = i % 40 === 2 ? 0 : Math.round((0.1 + (i % 9) / 10) * 100) / 100;
  if (i % 3 === 0) m.session_id = `sess-${i % 13}`;
  if (i % 5 === 0) m.files = [`src/sync/${i % 4}.ts`];
  if (i % 7 === 0 || secretIn(i) === 'diff') m.diff = `- old ${i}\n+ new ${i}${secretIn(i) === 'diff' ? ` ${secret}` : ''}`;
  if (i % 11 === 0) m.error_trace = `TimeoutError: sync ${i} after 30s`;
  if (i % 8 === 0) m.metadata = i % 16 === 0 ? { origin: 'capture' } : JSON.stringify({ origin: 'manual' });
  if (secretIn(i) === 'metadata') m.metadata = { note: `key ${secret}` };
  if (dims(i) > 0) m.embedding = vectorOf(i, dims(i));
  if (i === UNKNOWN_FIELD) m.color = 'blue';
  return m;
}

const stored = (i: number) => i < COUNT && secretIn(i) === undefined && i !== EMPTY && i !== NO_CONTENT;

function relations(): Record<string, unknown>[] {
  const list: Record<string, unknown>[] = [];
  for (let i = 0; i < COUNT; i += 3) list.push({ source_id: id(i), target_id: id(i + 1), relation_type: 'related_to' });
  for (let i = 1; i < COUNT; i += 50) list.push({ source_id: id(i), target_id: id(i - 1), relation_type: 'supersedes' });
  list.push({ source_id: id(3), target_id: 'ghost', relation_type: 'supports' });
  list.push({ source_id: 'nobody', target_id: id(3), relation_type: 'supports' });
  return list;
}

function writeExport(dir: string): { path: string; secrets: string[]; links: { created: number; unresolved: number } } {
  const memories = Array.from({ length: COUNT }, (_, i) => memory(i));
  const path = join(dir, 'memories.json');
  writeFileSync(path, JSON.stringify({ version: 1, memories, relations: relations() }, null, 2));
  const secrets = memories.flatMap((_, i) => (secretIn(i) === undefined ? [] : [secretValue(i, 'mem-context')]));
  const index = (sid: unknown) => (typeof sid === 'string' && sid.endsWith('-ctx') ? Number.parseInt(sid.slice(1, 7), 16) : -1);
  const links = { created: 0, unresolved: 0 };
  for (const r of relations()) {
    const [from, to] = [index(r.source_id), index(r.target_id)];
    if (from < 0 || !stored(from)) continue;
    if (to >= 0 && stored(to)) links.created++;
    else links.unresolved++;
  }
  return { path, secrets, links };
}

test('mem-context: 1,100 exported memories imported, counted, mapped field by field; secrets refused; re-import adds nothing', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-import-mem-context-');
  const db = join(dir, 'memory.db');
  const { path, secrets, links } = writeExport(dir);

  const first = importFrom(db, 'mem-context', path);
  assert.equal(first.code, 1);
  const r = first.report;
  assertAddsUp(r);
  assert.equal(r.read, COUNT);
  assert.equal(r.refused, secrets.length);
  assert.equal(r.invalid, 1, 'the empty memory');
  assert.equal(r.unmapped, 1, 'the memory without text content');
  assert.deepEqual(r.links, { created: links.created, existing: 0, unresolved: links.unresolved });
  const withVector = Array.from({ length: COUNT }, (_, i) => i).filter((i) => stored(i) && dims(i) > 0).length;
  assert.deepEqual(r.vectors, { kept: 0, dropped: withVector, reasons: { 'no embedder is configured': withVector } });
  const fields = r.not_mapped.filter((u) => u.field !== 'links').map((u) => [u.where, u.field ?? null]);
  const orphan = `relation ${relations().length}`;
  const expected = [[id(NO_CONTENT), null], [id(BAD_TYPE), 'type'], [id(UNKNOWN_FIELD), 'color'], [orphan, 'relations']];
  assert.deepEqual(fields.sort(), expected.sort());
  assertNowhere(db, secrets, first);

  const engram = await openEngram({ path: db });
  const { items } = await engram.list({ limit: 100_000, archived: 'include', quarantined: 'include' });
  assert.equal(items.length, r.created);
  const bySource = new Map(items.map((item) => [(item.provenance?.import as { source_id: string }).source_id, item]));
  for (let i = 0; i < COUNT; i += 23) {
    const item = bySource.get(id(i));
    if (!stored(i)) {
      assert.equal(item, undefined, `memory ${i} not stored`);
      continue;
    }
    const m = memory(i);
    const type = TYPES[i % 3] as (typeof TYPES)[number];
    assert.ok(item !== undefined, `memory ${i} stored`);
    let content = String(m.content);
    if (m.diff !== undefined) content += `\n\n## Diff\n\n\`\`\`diff\n${String(m.diff)}\n\`\`\``;
    if (m.error_trace !== undefined) content += `\n\n## Error trace\n\n\`\`\`\n${String(m.error_trace)}\n\`\`\``;
    assert.equal(item.content, content);
    assert.equal(item.tier, i === BAD_TYPE ? 'stm' : TIERS[type]);
    // mem-context's weight is on its type's scale (default 0.5 / 0.7 / 1.0); engram's default is 1.
    const typeDefault = i === BAD_TYPE ? DEFAULT_WEIGHT.episodic : DEFAULT_WEIGHT[type];
    const weight = m.weight === undefined ? 1 : Number(((m.weight as number) / typeDefault).toPrecision(12));
    assert.equal(item.weight, weight);
    assert.equal(item.archived, weight === 0, 'weight 0 (forgotten) is archived');
    assert.deepEqual(item.tags, ['sync', `t${i % 5}`]);
    const created = BASE + i * 600_000;
    assert.equal(item.created_at, new Date(i % 3 === 0 ? Math.floor(created / 1000) * 1000 : created).toISOString());
    assert.equal(item.updated_at, new Date(created + 60_000).toISOString());
    assert.equal(item.usage_count, i % 6);
    assert.equal(item.last_used_at, new Date(created + 120_000).toISOString());
    const provenance: Record<string, unknown> = { from: 'mem-context', source_id: id(i), path, scope: m.scope };
    for (const key of ['files', 'session_id'] as const) if (m[key] !== undefined) provenance[key] = m[key];
    if (m.metadata !== undefined) provenance.metadata = typeof m.metadata === 'string' ? JSON.parse(m.metadata) : m.metadata;
    assert.deepEqual(withoutHash(item.provenance), { import: provenance });
  }
  const linked = await engram.links(bySource.get(id(3))?.id ?? '');
  assert.ok(linked.some((l) => l.type === 'related' && l.dst_id === bySource.get(id(4))?.id), 'related_to became a related link');
  engram.close();

  const again = importFrom(db, 'mem-context', path);
  assertAddsUp(again.report);
  assert.equal(again.report.created, 0, 're-import adds nothing');
  assert.equal(again.report.updated, 0);
  assert.equal(again.report.unchanged, r.created);
  assert.deepEqual(again.report.links, { created: 0, existing: links.created, unresolved: links.unresolved });
});

test('mem-context: vectors of the embedder\'s dimension are kept, others dropped and reported', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-import-vectors-');
  const { path } = writeExport(dir);
  const embedder: Embedder = {
    id: 'test:eight',
    dimensions: 8,
    embed: async (texts) =>
      texts.map((text) => Float32Array.from({ length: 8 }, (_, k) => (text.length % (k + 2)) + 1)),
  };
  const store = createSqliteStore(join(dir, 'memory.db'));
  const engram = await openEngram({ path: join(dir, 'memory.db'), embedder, openStore: () => store });
  t.after(() => engram.close());
  const dry = await engram.importFrom({ from: 'mem-context', path, dryRun: true });
  const report = await engram.importFrom({ from: 'mem-context', path });
  const kept = Array.from({ length: COUNT }, (_, i) => i).filter((i) => stored(i) && dims(i) === 8);
  const dropped = Array.from({ length: COUNT }, (_, i) => i).filter((i) => stored(i) && dims(i) === 4).length;
  assert.deepEqual(report.vectors, { kept: kept.length, dropped, reasons: { '4 dimensions, the embedder\'s are 8': dropped } });
  assert.deepEqual(dry.vectors, report.vectors, 'the dry run decides as the import does');
  for (const i of kept.slice(0, 5)) {
    const [hit] = (await store.vectors?.nearest(Float32Array.from(vectorOf(i, 8)), {}, 1)) ?? [];
    assert.equal((hit?.item.provenance?.import as { source_id?: string }).source_id, id(i), 'the imported vector is the item\'s');
    assert.ok((hit?.score ?? 0) > 0.999);
  }
});

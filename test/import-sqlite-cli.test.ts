/**
 * `engram import --from memctl` and `--from mcp-memory-service` end to end, through the CLI: a
 * generated database of each (≥ 1,000 records, every field kind, secrets planted in contents,
 * past versions and metadata) imported with a dry run first; the report's counts add up; a sample
 * compared field by field with the source; vectors of the embedder's dimension kept; the secrets
 * refused and found nowhere in the store's bytes; a re-import adds nothing.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openEngram } from '../src/index.js';
import type { MemoryItem } from '../src/types.js';
import { cli, tempDir } from './helpers.js';
import { assertAddsUp, assertNowhere, type Report } from './import-helpers.js';
import { makeMcpMemoryDb, makeMemctlDb, plantedSecret } from './import-sqlite-fixtures.js';
import { writeTestModel } from './model2vec-model.js';

const TIMEOUT = { timeout: 600_000 };
const utc = (text: string) => new Date(/[Zz]|[+-]\d{2}:\d{2}$/.test(text) ? text : `${text.replace(' ', 'T')}Z`).toISOString();

function run(db: string, embedder: string, from: string, path: string, extra: string[] = []) {
  const result = cli(['--db', db, '--embedder', embedder, 'import', '--from', from, path, '--json', ...extra]);
  assert.ok(result.json !== undefined, `import printed its report (stderr: ${result.stderr.slice(0, 400)})`);
  return { ...result, report: result.json as unknown as Report };
}

async function itemsOf(db: string): Promise<Map<string, MemoryItem>> {
  const engram = await openEngram({ path: db });
  try {
    const { items } = await engram.list({ limit: 100_000, archived: 'include', quarantined: 'include' });
    return new Map(items.map((item) => [(item.provenance?.import as { source_id: string }).source_id, item]));
  } finally {
    engram.close();
  }
}

/** A second import of the same source: every record unchanged, no item and no link added. */
async function assertReimportAddsNothing(again: Report, created: number, db: string): Promise<void> {
  assertAddsUp(again);
  assert.equal(again.created, 0, 're-import adds nothing');
  assert.equal(again.updated, 0);
  assert.equal(again.unchanged, created);
  assert.equal(again.links.created, 0);
  assert.equal((await itemsOf(db)).size, created);
}

test('memctl: a 1,200-item memory.db imported through the CLI, field by field; secrets refused; re-import adds nothing', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-import-memctl-');
  const db = join(dir, 'engram.db');
  const model = await writeTestModel(join(dir, 'model'), { dims: 8 });
  const embedder = `model2vec:${model.dir}`;
  const secretsAt = [100, 500, 902];
  const draftSecretsAt = [301, 704];
  const { path, items } = makeMemctlDb(dir, { secretsAt, draftSecretsAt });
  const secrets = [
    ...secretsAt.map((i) => plantedSecret(i).value),
    ...draftSecretsAt.map((i) => plantedSecret(i + 1).value),
  ];

  const dry = run(db, embedder, 'memctl', path, ['--dry-run']);
  assert.equal(existsSync(db), false, 'a dry run creates no store');
  assert.ok(dry.report.mapping?.some(([from]) => from.startsWith('memory_revisions')), 'the dry run shows the mapping');

  const first = run(db, embedder, 'memctl', path);
  const r = first.report;
  assertAddsUp(r);
  assert.equal(first.code, 1, 'refused and unmapped things make the run exit 1');
  assert.equal(r.read, items.length);
  assert.equal(r.refused, secretsAt.length);
  assert.equal(r.invalid, 0);
  assert.equal(r.unmapped, 0);
  assert.equal(r.created, items.length - secretsAt.length);
  for (const key of ['created', 'updated', 'unchanged', 'refused', 'invalid', 'unmapped'] as const) {
    assert.equal(dry.report[key], r[key], `the dry run counted ${key} as the real run did`);
  }
  const kept = items.filter((item) => !secretsAt.includes(item.index));
  const unreadable = (item: (typeof items)[number]) => (item.badRevision && item.drafts.length > 0 ? 1 : 0);
  const drafts = kept.reduce((sum, item) => sum + item.drafts.length - unreadable(item), 0);
  assert.equal(r.revisions.refused, draftSecretsAt.length, 'a past version holding a secret is refused alone');
  assert.equal(r.revisions.stored, drafts - draftSecretsAt.length);
  const vectors = kept.filter((item) => item.vector !== undefined && !item.badVector).length;
  assert.deepEqual(r.vectors, { kept: vectors, dropped: 0, reasons: {} }, 'vectors of the embedder\'s dimension are kept');
  assert.ok(r.links.created > 100, `links written (${r.links.created})`);
  assert.ok(r.refusals.every((f) => f.error === 'POLICY_REJECTED'));
  assertNowhere(db, secrets, first);

  const stored = await itemsOf(db);
  assert.equal(stored.size, r.created);
  const engram = await openEngram({ path: db });
  t.after(() => engram.close());
  for (const item of items.filter((_, i) => i % 23 === 0 || [59, 58, 45, 301].includes(i))) {
    const at = `item ${item.index}`;
    const got = stored.get(item.id);
    if (secretsAt.includes(item.index)) {
      assert.equal(got, undefined, at);
      continue;
    }
    assert.ok(got !== undefined, at);
    assert.equal(got.id, item.id, 'memctl ids are engram ids: kept');
    assert.equal(got.content, item.content, at);
    if (item.title !== '') assert.equal(got.title, item.title, at);
    assert.equal(got.type, item.type === 'process' ? 'pattern' : item.type === 'hunch' ? 'note' : item.type, at);
    assert.equal(got.tier, item.tier, at);
    assert.equal(got.scope, item.scope, at);
    assert.deepEqual(got.tags, item.tags.startsWith('{') ? [] : (JSON.parse(item.tags) as string[]).map((tag) => tag.toLowerCase()), at);
    assert.deepEqual(got.entities, (JSON.parse(item.entities) as string[]).map((e) => e.toLowerCase()), 'entities, lower-cased as engram keeps them');
    if (item.confidence <= 1) assert.equal(got.confidence, item.confidence, at);
    assert.equal(got.validation, { contested: 'contradicted', retracted: 'contradicted' }[item.validation] ?? item.validation, at);
    if (!item.created_at.startsWith('sometime')) assert.equal(got.created_at, utc(item.created_at), at);
    assert.equal(got.updated_at, utc(item.updated_at), at);
    assert.equal(got.expires_at, item.expires_at === null ? null : utc(item.expires_at), at);
    assert.equal(got.source, item.file ?? null, at);
    assert.equal(got.archived, item.archived === 1, at);
    assert.equal(got.corpus_id, item.corpus_id, at);
    if (item.injectable === 0) assert.equal(got.injectable, false, `${at}: memctl's quarantine kept`);
    assert.equal(got.usage_count, item.usage_count, at);
    assert.equal(got.last_used_at, item.last_used_at === null ? null : utc(item.last_used_at), at);
    const mark = got.provenance?.import as Record<string, unknown>;
    assert.equal(mark.from, 'memctl', at);
    assert.equal(mark.source_id, item.id, at);
    assert.equal(mark.content_hash, item.content_hash, at);
    assert.equal(mark.rule_id, item.rule_id ?? undefined, at);
    const history = await engram.history(item.id);
    const past = item.drafts.filter((_, k) => !(k === 0 && (item.badRevision || draftSecretsAt.includes(item.index))));
    assert.deepEqual(history.map((h) => h.item.content), [...past, item.content], `${at}: past versions, then the current one`);
  }
  const links = await engram.links(items[58]?.id ?? '');
  assert.ok(links.some((l) => l.type === 'supersedes' && l.dst_id === items[59]?.id), 'superseded_by is a supersedes link');

  await assertReimportAddsNothing(run(db, embedder, 'memctl', path).report, r.created, db);

  // memctl goes on: one item edited, one added; the next import updates the one, adds the other.
  const source = new Database(path);
  source.prepare('UPDATE memory_items SET content = ?, updated_at = ? WHERE id = ?').run('Edited in memctl.', '2026-06-01T00:00:00+00:00', items[7]?.id);
  source.prepare(`INSERT INTO memory_items (id, tier, type, content, created_at, updated_at)
    VALUES ('MEM-0000000000ff', 'stm', 'note', 'Added in memctl later.', '2026-06-02 00:00:00', '2026-06-02 00:00:00')`).run();
  source.close();
  const later = run(db, embedder, 'memctl', path);
  assertAddsUp(later.report);
  assert.deepEqual([later.report.created, later.report.updated, later.report.unchanged], [1, 1, r.created - 1]);
  const after = await itemsOf(db);
  assert.equal(after.get(items[7]?.id ?? '')?.content, 'Edited in memctl.');
  assert.equal(after.get('MEM-0000000000ff')?.created_at, '2026-06-02T00:00:00.000Z');
});

test('mcp-memory-service: a 1,100-memory sqlite_vec.db imported through the CLI, field by field; secrets refused; re-import adds nothing', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-import-mcp-');
  const db = join(dir, 'engram.db');
  const model = await writeTestModel(join(dir, 'model'), { dims: 8 });
  const embedder = `model2vec:${model.dir}`;
  const secretsAt = [40, 555];
  const metadataSecretsAt = [201, 602];
  const { path, memories } = makeMcpMemoryDb(dir, { secretsAt, metadataSecretsAt });
  const secrets = [...secretsAt, ...metadataSecretsAt].map((i) => plantedSecret(i).value);
  const refusedAt = [...secretsAt, ...metadataSecretsAt];

  const dry = run(db, embedder, 'mcp-memory-service', path, ['--dry-run']);
  assert.equal(existsSync(db), false, 'a dry run creates no store');
  assert.ok(dry.report.mapping?.some(([from, to]) => from === 'memory_type' && to.startsWith('type and tier')));

  const first = run(db, embedder, 'mcp-memory-service', path);
  const r = first.report;
  assertAddsUp(r);
  assert.equal(first.code, 1);
  const tombstones = memories.filter((m) => m.deleted_at !== null);
  assert.equal(r.read, memories.length);
  assert.equal(r.unmapped, tombstones.length, 'tombstones are reported, not imported');
  assert.equal(r.refused, refusedAt.length, 'a secret in the content or in the metadata refuses the memory');
  assert.equal(r.created, memories.length - tombstones.length - refusedAt.length);
  for (const key of ['created', 'updated', 'unchanged', 'refused', 'invalid', 'unmapped'] as const) {
    assert.equal(dry.report[key], r[key], `the dry run counted ${key} as the real run did`);
  }
  assert.deepEqual(r.vectors, { kept: r.created, dropped: 0, reasons: {} });
  assertNowhere(db, secrets, first);

  const stored = await itemsOf(db);
  assert.equal(stored.size, r.created);
  for (const m of memories.filter((_, i) => i % 19 === 0 || refusedAt.includes(i))) {
    const at = `memory ${m.id}`;
    const got = stored.get(m.content_hash);
    if (m.deleted_at !== null || refusedAt.includes(m.id - 1)) {
      assert.equal(got, undefined, at);
      continue;
    }
    assert.ok(got !== undefined, at);
    assert.equal(got.content, m.content, at);
    const tags = m.tags.startsWith('{') ? [] : m.tags.startsWith('[') ? JSON.parse(m.tags) as string[] : m.tags.split(',').map((s) => s.trim()).filter(Boolean);
    assert.deepEqual(got.tags, tags.map((tag) => tag.toLowerCase()), at);
    const created = m.created_at === null ? m.created_at_iso : new Date(m.created_at * 1000).toISOString();
    assert.equal(got.created_at, created, at);
    assert.equal(got.updated_at, new Date(m.updated_at * 1000).toISOString(), at);
    assert.equal(got.expires_at, m.valid_until, at);
    assert.equal(got.archived, m.superseded_by !== null, `${at}: a superseded version is archived`);
    if (m.confidence !== null && m.confidence <= 1) assert.equal(got.confidence, m.confidence, at);
    const mark = got.provenance?.import as Record<string, unknown>;
    assert.deepEqual([mark.from, mark.source_id, mark.id, mark.memory_type], ['mcp-memory-service', m.content_hash, m.id, m.memory_type ?? undefined], at);
    if (m.memory_type === 'decision') assert.deepEqual([got.type, got.tier], ['decision', 'ltm'], at);
    if (m.memory_type === 'observation') assert.deepEqual([got.type, got.tier], ['note', 'stm'], at);
    if (m.memory_type === 'learning') assert.deepEqual([got.type, got.tier], ['fact', 'mtm'], at);
  }

  const engram = await openEngram({ path: db });
  const lineage = await engram.links(stored.get(memories[60]?.content_hash ?? '')?.id ?? '');
  engram.close();
  const older = stored.get(memories[59]?.content_hash ?? '')?.id;
  assert.ok(lineage.some((l) => l.type === 'supersedes' && l.dst_id === older), 'memory evolution: the new version supersedes the old');

  await assertReimportAddsNothing(run(db, embedder, 'mcp-memory-service', path).report, r.created, db);
});

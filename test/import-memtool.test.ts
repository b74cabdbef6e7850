/**
 * `engram import --from memtool`: a JSONL export of 1,200 items generated in memtool's documented
 * format (its design doc §4.1, §6.2 export, §8.1 confidence), with every field kind, a few
 * secrets, an empty item, a line without id, a broken line and unknown fields.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { openEngram } from '../src/index.js';
import { tempDir } from './helpers.js';
import { assertAddsUp, assertNowhere, importFrom, secretValue, withoutHash } from './import-helpers.js';

const TIMEOUT = { timeout: 600_000 };
const COUNT = 1200;
const LAYERS = ['project', 'feature', 'run'] as const;
const KEYS = ['glossary', 'invariants', 'contract', 'business_rules', 'reproduction', 'stacktrace', 'diff_summary'];
const SOURCES = ['PRD', 'manual', 'log', 'stacktrace'];
const LEVELS = ['high', 'medium', 'low', undefined] as const;
const SCORES: Record<string, number> = { high: 1.0, medium: 0.6, low: 0.3 };
const BASE = Date.UTC(2025, 0, 1);

const uuid = (i: number) => createHash('md5').update(`memtool ${i}`).digest('hex');
const isSecret = (i: number) => i % 100 === 7;
const secretInTag = (i: number) => i % 200 === 7;
const EMPTY = 13;
const NO_ID = 21;
const UNKNOWN_FIELD = 33;
const BAD_TYPE = 34;

/** memtool writes UTC without an offset (Python's isoformat), sometimes with microseconds. */
function stamp(ms: number, i: number): string {
  const iso = new Date(ms).toISOString();
  return i % 2 === 0 ? iso.replace('.000Z', '.123456') : iso.replace('.000Z', '');
}

function line(i: number): Record<string, unknown> {
  const secret = isSecret(i) ? secretValue(i, 'memtool') : '';
  const content = i === EMPTY
    ? ''
    : `## Memory ${i}\n\n${i % 3 === 0 ? '密码至少 8 位，失败重试限制：15 分钟内最多 5 次' : `Step ${i} keeps the login contract stable`}${secret && !secretInTag(i) ? ` credential ${secret}` : ''}`;
  const tags = [`t${i % 9}`, i % 2 === 0 ? 'Auth' : 'api', ...(secretInTag(i) ? [secret] : [])];
  const created = BASE + i * 3_600_000;
  return {
    ...(i === NO_ID ? {} : { id: uuid(i) }),
    type: i === BAD_TYPE ? 'epic' : LAYERS[i % 3],
    task_id: i % 3 === 0 ? `T${i % 50}` : null,
    step_id: i % 4 === 0 ? `S${i % 7}` : null,
    key: KEYS[i % KEYS.length],
    content,
    content_search: `${content} tokens`,
    ...(i % 5 === 0 ? { tags_json: JSON.stringify(tags) } : { tags }),
    source: SOURCES[i % SOURCES.length],
    weight: (i % 10) / 2,
    version: 1 + (i % 5),
    ...(LEVELS[i % 4] === undefined ? {} : { confidence: LEVELS[i % 4] }),
    created_at: stamp(created, i),
    updated_at: stamp(created + 60_000 * (i % 60), i + 1),
    ...(i === UNKNOWN_FIELD ? { owner: 'team-a' } : {}),
  };
}

function writeExport(dir: string): { path: string; secrets: string[] } {
  const lines = Array.from({ length: COUNT }, (_, i) => JSON.stringify(line(i)));
  lines.splice(500, 0, '{"id": broken');
  const path = join(dir, 'memtool-export.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  const secrets = Array.from({ length: COUNT }, (_, i) => i).filter(isSecret).map((i) => secretValue(i, 'memtool'));
  return { path, secrets };
}

test('memtool: 1,200 exported items imported, counted, mapped field by field; secrets refused; re-import adds nothing', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-import-memtool-');
  const db = join(dir, 'memory.db');
  const { path, secrets } = writeExport(dir);

  const dry = importFrom(db, 'memtool', path, ['--dry-run']);
  assert.equal(existsSync(db), false, 'a dry run creates no store');
  assert.equal(dry.report.dry_run, true);
  assert.ok(dry.report.mapping?.some(([from, to]) => from.startsWith('type') && to === 'layer'), 'the dry run shows the mapping');

  const first = importFrom(db, 'memtool', path);
  assert.equal(first.code, 1, 'refused and unmapped things make the run exit 1');
  const r = first.report;
  assertAddsUp(r);
  assert.equal(r.read, COUNT + 1, 'every line read, the broken one included');
  assert.equal(r.refused, secrets.length);
  assert.equal(r.invalid, 1, 'the empty item');
  assert.equal(r.unmapped, 2, 'the line without id and the broken line');
  assert.equal(r.created, COUNT - 1 - secrets.length - 1);
  for (const key of ['created', 'updated', 'unchanged', 'refused', 'invalid', 'unmapped'] as const) {
    assert.equal(dry.report[key], r[key], `the dry run counted ${key} as the real run did`);
  }
  assert.ok(r.refusals.every((f) => f.error === 'POLICY_REJECTED' || f.where === uuid(EMPTY)));
  assert.deepEqual(
    r.not_mapped.map((u) => [u.where, u.field ?? null]).sort(),
    [['line 22', null], ['line 501', null], [uuid(BAD_TYPE), 'type'], [uuid(UNKNOWN_FIELD), 'owner']].sort(),
  );
  assertNowhere(db, secrets, first);

  const engram = await openEngram({ path: db });
  const { items } = await engram.list({ limit: 100_000, archived: 'include', quarantined: 'include' });
  assert.equal(items.length, r.created);
  const bySource = new Map(items.map((item) => [(item.provenance?.import as { source_id: string }).source_id, item]));
  for (let i = 0; i < COUNT; i += 37) {
    const item = bySource.get(uuid(i));
    if (isSecret(i) || i === EMPTY || i === NO_ID) {
      assert.equal(item, undefined, `item ${i} not stored`);
      continue;
    }
    const source = line(i);
    assert.ok(item !== undefined, `item ${i} stored`);
    assert.equal(item.content, source.content);
    assert.equal(item.layer, i === BAD_TYPE ? null : LAYERS[i % 3]);
    assert.equal(item.task_id, source.task_id);
    assert.equal(item.step_id, source.step_id);
    assert.equal(item.key, source.key);
    assert.deepEqual(item.tags, [`t${i % 9}`, i % 2 === 0 ? 'auth' : 'api']);
    assert.equal(item.source, source.source);
    assert.equal(item.weight, source.weight);
    assert.equal(item.confidence, SCORES[LEVELS[i % 4] ?? ''] ?? 0.5);
    const created = BASE + i * 3_600_000;
    assert.equal(item.created_at, new Date(created + (i % 2 === 0 ? 123 : 0)).toISOString());
    assert.equal(item.updated_at, new Date(created + 60_000 * (i % 60) + ((i + 1) % 2 === 0 ? 123 : 0)).toISOString());
    assert.deepEqual(withoutHash(item.provenance), { import: { from: 'memtool', source_id: uuid(i), path, version: source.version } });
    assert.match(item.id, /^MEM-[0-9a-f]{12}$/, 'the UUID is kept as the source id; the item has an engram id');
  }
  engram.close();

  const again = importFrom(db, 'memtool', path);
  assertAddsUp(again.report);
  assert.equal(again.report.created, 0, 're-import adds nothing');
  assert.equal(again.report.updated, 0);
  assert.equal(again.report.unchanged, r.created);
});

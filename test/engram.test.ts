/** The facade through the library API, on real SQLite files. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Engram, EngramError, openEngram } from '../src/index.js';
import { tempDir } from './helpers.js';

function fixedClock(start = Date.parse('2026-11-22T12:00:00.000Z')) {
  let now = start;
  return () => {
    now += 1000;
    return new Date(now);
  };
}

async function engramIn(
  t: { after: (fn: () => void) => void },
  session = 'tester',
): Promise<Engram> {
  const engram = await openEngram({
    path: join(tempDir(t), 'memory.db'),
    session,
    clock: fixedClock(),
  });
  t.after(() => engram.close());
  return engram;
}

async function rejects(promise: Promise<unknown>, code: string): Promise<EngramError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof EngramError, String(error));
    assert.equal(error.code, code);
    return error;
  }
  assert.fail(`expected ${code}`);
}

test('mode 3: no id and no logical key creates a new item with a MEM- id', async (t) => {
  const engram = await engramIn(t);
  const a = await engram.put({ content: 'same' });
  const b = await engram.put({ content: 'other' });
  assert.equal(a.action, 'created');
  assert.equal(a.mode, 'new');
  assert.match(a.item.id, /^MEM-[0-9a-f]{12}$/);
  assert.notEqual(a.item.id, b.item.id);
});

test('dedup on write: the same content in the same scope reinforces the existing item', async (t) => {
  const engram = await engramIn(t);
  const first = await engram.put({ content: 'Deploys go through staging first', tags: ['deploy'] });
  const again = await engram.put({ content: 'Deploys go through staging first  \r\n', tags: ['other'] });
  assert.deepEqual([again.action, again.deduplicated, again.item.id], ['updated', true, first.item.id]);
  assert.deepEqual([again.item.usage_count, again.item.weight, again.item.version], [1, 1.1, 2]);
  assert.deepEqual(again.item.tags, ['deploy', 'other'], 'the tags the write brings are kept');
  assert.equal(again.item.content, 'Deploys go through staging first', 'the stored text stays');
  const thrice = await engram.put({ content: 'Deploys go through staging first', tags: ['deploy'] });
  assert.deepEqual([thrice.action, thrice.item.version, thrice.item.weight], ['unchanged', 2, 1.2], 'nothing new: no version');
  const elsewhere = await engram.put({ content: 'Deploys go through staging first', scope: 'infra' });
  assert.equal(elsewhere.action, 'created', 'another scope is another memory');
  await engram.delete(first.item.id);
  assert.equal((await engram.put({ content: 'Deploys go through staging first' })).action, 'created', 'archived items do not count');
  const keyed = await engram.put({ content: 'Deploys go through staging first', layer: 'project', key: 'deploy' });
  assert.equal(keyed.action, 'created', 'an addressed write is never deduplicated into another item');
  await engram.put({ content: 'Backups run nightly' });
  const cased = await engram.put({ content: 'backups RUN nightly' });
  assert.equal(cased.action, 'created', 'case is part of what was said');
  const typed = await engram.put({ content: 'Backups run nightly', type: 'decision' });
  assert.equal(typed.action, 'created', 'another type is another memory');
  const titled = await engram.put({ content: 'Backups run nightly', title: 'Staging' });
  assert.equal(titled.action, 'created', 'a title is part of what was said');
  assert.equal((await engram.put({ content: 'Backups run nightly', title: 'Staging' })).action, 'unchanged', 'the same title dedups');
  const sourced = await engram.put({ content: 'Backups run nightly', source: 'SECURITY.md' });
  assert.equal(sourced.action, 'created', 'another source is another memory');
  const expiring = await engram.put({ content: 'Backups run nightly', expires_at: '2099-01-01T00:00:00.000Z' });
  assert.equal(expiring.action, 'created', 'a lasting fact never lands in an expiring item, nor the reverse');
  const hidden = await engram.put({ content: 'Backups run nightly', injectable: false });
  assert.equal(hidden.action, 'created', 'never into an item of other visibility');
});

test('mode 2: layer + key (+ task, step) upserts the same item and bumps its version', async (t) => {
  const engram = await engramIn(t);
  const address = { layer: 'feature', key: 'business_rules', task_id: 'T123' } as const;
  const first = await engram.put({ ...address, content: 'Password: 8+ chars' });
  const second = await engram.put({ ...address, content: 'Password: 12+ chars' });
  const otherStep = await engram.put({ ...address, step_id: 'S1', content: 'step scoped' });
  assert.equal(second.action, 'updated');
  assert.equal(second.mode, 'key');
  assert.equal(second.item.id, first.item.id);
  assert.equal(second.item.version, 2);
  assert.notEqual(otherStep.item.id, first.item.id);
  const got = await engram.get({ layer: 'feature', key: 'business_rules', task_id: 'T123' });
  assert.equal(got.content, 'Password: 12+ chars');
});

test('mode 1: --id updates that item, NOT_FOUND when absent', async (t) => {
  const engram = await engramIn(t);
  const { item } = await engram.put({ content: 'v1', tags: ['a'] });
  const updated = await engram.put({ id: item.id, content: 'v2' });
  assert.equal(updated.action, 'updated');
  assert.equal(updated.item.version, 2);
  assert.deepEqual(updated.item.tags, ['a'], 'fields not given are kept');
  await rejects(engram.put({ id: 'MEM-000000000000', content: 'x' }), 'NOT_FOUND');
});

test('a put that changes nothing keeps the version and writes no revision', async (t) => {
  const engram = await engramIn(t);
  const { item } = await engram.put({ content: 'v1', tags: ['a'] });
  const again = await engram.put({ id: item.id, content: 'v1', tags: ['A'] });
  assert.equal(again.action, 'unchanged');
  assert.equal(again.item.version, 1);
  assert.equal((await engram.history(item.id)).length, 1);
});

test('--if-version: a stale version is CONFLICT with the current version, and nothing is written', async (t) => {
  const engram = await engramIn(t);
  const { item } = await engram.put({ content: 'v1' });
  await engram.put({ id: item.id, content: 'v2', if_version: 1 });
  const error = await rejects(
    engram.put({ id: item.id, content: 'v3', if_version: 1 }),
    'CONFLICT',
  );
  assert.equal(error.details.current_version, 2);
  assert.equal((await engram.get({ id: item.id })).content, 'v2');
  await rejects(engram.put({ layer: 'run', key: 'k', content: 'x', if_version: 3 }), 'CONFLICT');
  const created = await engram.put({ layer: 'run', key: 'k', content: 'x', if_version: 0 });
  assert.equal(created.action, 'created');
  await rejects(engram.put({ layer: 'run', key: 'k', content: 'y', if_version: 0 }), 'CONFLICT');
});

test('empty or blank content is EMPTY_INPUT and stores nothing', async (t) => {
  const engram = await engramIn(t);
  await rejects(engram.put({ content: '' }), 'EMPTY_INPUT');
  await rejects(engram.put({ content: ' \n\t ' }), 'EMPTY_INPUT');
  assert.equal((await engram.stats()).total, 0);
});

test('history keeps every full previous state, oldest first, with the actor', async (t) => {
  const engram = await engramIn(t, 'agent-7');
  const { item } = await engram.put({ content: 'v1', tags: ['x'] });
  await engram.put({ id: item.id, content: 'v2', tier: 'mtm' });
  await engram.put({ id: item.id, content: 'v3' });
  const history = await engram.history(item.id);
  assert.deepEqual(
    history.map((r) => [r.version, r.item.content, r.item.tier, r.reason, r.actor]),
    [
      [1, 'v1', 'stm', 'create', 'agent-7'],
      [2, 'v2', 'mtm', 'update', 'agent-7'],
      [3, 'v3', 'mtm', 'update', 'agent-7'],
    ],
  );
  await rejects(engram.history('MEM-000000000000'), 'NOT_FOUND');
});

test('delete archives with an event and a version; --hard removes and counts rows', async (t) => {
  const engram = await engramIn(t);
  const { item } = await engram.put({ content: 'to archive', tags: ['a', 'b'] });
  const archived = await engram.delete(item.id);
  assert.equal(archived.action, 'archived');
  const stored = await engram.get({ id: item.id });
  assert.equal(stored.archived, true);
  assert.equal(stored.version, 2);
  assert.equal((await engram.list()).total, 0);
  assert.equal((await engram.list({ archived: 'only' })).total, 1);
  assert.equal((await engram.delete(item.id)).action, 'unchanged');
  const hard = await engram.delete(item.id, { hard: true });
  assert.equal(hard.action, 'deleted');
  assert.deepEqual(hard.removed, {
    memory_tags: 2,
    memory_entities: 0,
    memory_revisions: 2,
    corpus_chunks: 0,
    memory_links: 0,
    memory_fts: 1,
    memory_items: 1,
  });
  await rejects(engram.get({ id: item.id }), 'NOT_FOUND');
  await rejects(engram.delete(item.id), 'NOT_FOUND');
});

test('show gives the item, its revision count and links', async (t) => {
  const engram = await engramIn(t);
  const a = (await engram.put({ content: 'old decision' })).item;
  const b = (await engram.put({ content: 'new decision' })).item;
  await engram.put({ id: b.id, content: 'new decision, revised' });
  assert.equal(
    (await engram.link({ src_id: b.id, dst_id: a.id, type: 'supersedes' })).created,
    true,
  );
  assert.equal(
    (await engram.link({ src_id: b.id, dst_id: a.id, type: 'supersedes' })).created,
    false,
  );
  const shown = await engram.show(b.id);
  assert.equal(shown.revisions, 2);
  assert.deepEqual(
    shown.links.map((l) => [l.src_id, l.type, l.dst_id]),
    [[b.id, 'supersedes', a.id]],
  );
  await rejects(engram.link({ src_id: a.id, dst_id: a.id, type: 'supports' }), 'PARAM_ERROR');
  await rejects(
    engram.link({ src_id: a.id, dst_id: 'MEM-000000000000', type: 'supports' }),
    'NOT_FOUND',
  );
});

test('list returns a total, honours limit/offset and every filter', async (t) => {
  const engram = await engramIn(t);
  for (let i = 0; i < 7; i++) {
    await engram.put({
      content: `n${i}`,
      tags: i % 2 === 0 ? ['even'] : ['odd'],
      layer: 'run',
      task_id: 'T1',
      key: `k${i}`,
    });
  }
  const page = await engram.list({ tags: ['even'], limit: 2, offset: 1 });
  assert.equal(page.total, 4);
  assert.deepEqual(
    page.items.map((i) => i.content),
    ['n4', 'n2'],
  );
  assert.equal((await engram.list({ key_prefix: 'k', task_id: 'T1', layer: 'run' })).total, 7);
  await rejects(engram.list({ tier: 'eternal' as never }), 'PARAM_ERROR');
});

test('import reports created/updated/unchanged/invalid with line numbers and keeps the rest', async (t) => {
  const engram = await engramIn(t);
  const existing = (await engram.put({ content: 'existing' })).item;
  const lines = [
    JSON.stringify({ id: 'legacy-uuid-1', content: 'imported', tags: ['A'] }),
    '{not json',
    JSON.stringify({ ...existing }),
    '',
    JSON.stringify({ ...existing, content: 'changed by import' }),
    JSON.stringify({ content: 'bad tier', tier: 'forever' }),
    JSON.stringify({ content: '' }),
  ];
  const report = await engram.importLines(lines);
  assert.equal(report.created, 1);
  assert.equal(report.unchanged, 1);
  assert.equal(report.updated, 1);
  assert.equal(report.invalid, 3);
  assert.deepEqual(
    report.errors.map((e) => [e.line, e.error]),
    [
      [2, 'PARAM_ERROR'],
      [6, 'PARAM_ERROR'],
      [7, 'EMPTY_INPUT'],
    ],
  );
  const legacy = await engram.get({ id: 'legacy-uuid-1' });
  assert.deepEqual(legacy.tags, ['a']);
  const updated = await engram.get({ id: existing.id });
  assert.equal(updated.content, 'changed by import');
  assert.equal(updated.version, 2);
});

/**
 * Lifecycle pieces: tier aliases, update, forget, links, and what recall leaves out
 * (contradicted items and items another one supersedes).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { EngramError, openEngram } from '../src/index.js';
import { cli, tempDir } from './helpers.js';

test('mem-context tier names are accepted everywhere a tier is read', async (t) => {
  const engram = await openEngram({ path: ':memory:' });
  t.after(() => engram.close());
  const names = { episodic: 'stm', semantic: 'mtm', permanent: 'ltm' } as const;
  for (const [alias, tier] of Object.entries(names)) {
    assert.equal((await engram.put({ content: `an ${alias} memory`, tier: alias as 'stm' })).item.tier, tier);
    assert.equal((await engram.list({ tier: alias as 'stm' })).total, 1);
  }
  const report = await engram.importLines([JSON.stringify({ content: 'imported', tier: 'permanent' })]);
  assert.equal(report.created, 1);
  assert.equal((await engram.list({ tier: 'ltm' })).total, 2);
  await assert.rejects(engram.put({ content: 'x', tier: 'eternal' as 'stm' }), (e: unknown) => e instanceof EngramError && e.code === 'PARAM_ERROR');
});

test('update changes fields by id with a new version; content optional; if-version honoured', async (t) => {
  const engram = await openEngram({ path: ':memory:' });
  t.after(() => engram.close());
  const { item } = await engram.put({ content: 'Cache TTL is 300 s', tags: ['cache'] });
  const retagged = await engram.update(item.id, { tags: ['cache', 'perf'], confidence: 0.9 });
  assert.deepEqual([retagged.action, retagged.item.version, retagged.item.content, retagged.item.tags], ['updated', 2, 'Cache TTL is 300 s', ['cache', 'perf']]);
  const rewritten = await engram.update(item.id, { content: 'Cache TTL is 600 s', if_version: 2 });
  assert.equal(rewritten.item.content, 'Cache TTL is 600 s');
  await assert.rejects(engram.update(item.id, { weight: 2, if_version: 1 }), (e: unknown) => e instanceof EngramError && e.code === 'CONFLICT');
  await assert.rejects(engram.update('MEM-000000000000', { weight: 2 }), (e: unknown) => e instanceof EngramError && e.code === 'NOT_FOUND');
  assert.equal((await engram.update(item.id, { weight: 1 })).action, 'unchanged');
});

test('recall leaves out forgotten, contradicted and superseded items; search still finds the latter two', async (t) => {
  const engram = await openEngram({ path: ':memory:' });
  t.after(() => engram.close());
  const put = async (content: string) => (await engram.put({ content, tags: ['deploy'] })).item.id;
  const old = await put('Deploys run on Tuesdays from the release branch');
  const current = await put('Deploys run on Thursdays from the release branch');
  const wrong = await put('Deploys run on Sundays from the release branch');
  const gone = await put('Deploys run on Mondays from the release branch');
  const recalled = async () => (await engram.recall({ query: 'deploys release branch' })).injected.map((e) => e.id).sort();
  assert.deepEqual(await recalled(), [old, current, wrong, gone].sort());

  assert.equal((await engram.link({ src_id: current, dst_id: old, type: 'supersedes' })).created, true);
  await engram.update(wrong, { validation: 'contradicted' });
  const forgotten = await engram.forget(gone);
  assert.deepEqual([forgotten.action, forgotten.item.archived, forgotten.item.weight, forgotten.item.injectable], ['forgotten', true, 0, false]);
  assert.equal((await engram.forget(gone)).action, 'unchanged');
  assert.deepEqual(await recalled(), [current]);
  const found = (await engram.search({ query: 'deploys release branch' })).items.map((i) => i.id).sort();
  assert.deepEqual(found, [old, current, wrong].sort(), 'search is for looking; recall is for injecting');
  assert.deepEqual((await engram.links(old)).map((l) => [l.src_id, l.type]), [[current, 'supersedes']]);
  assert.equal((await engram.history(gone)).at(-1)?.reason, 'forget');
});

test('CLI: update, forget, link, links', (t) => {
  const db = join(tempDir(t), 'm.db');
  const id = (run: ReturnType<typeof cli>) => (run.json?.item as { id: string }).id;
  const a = id(cli(['put', '--db', db, '--content', 'Queue is RabbitMQ', '--tier', 'episodic']));
  const b = id(cli(['put', '--db', db, '--content', 'Queue is NATS']));
  const updated = cli(['update', '--db', db, a, '--title', 'Queue', '--tier', 'semantic']);
  assert.equal(updated.code, 0, updated.stderr);
  assert.deepEqual([(updated.json?.item as { tier: string }).tier, (updated.json?.item as { content: string }).content], ['mtm', 'Queue is RabbitMQ']);
  const replaced = cli(['update', '--db', db, a, '-'], { input: 'x' });
  assert.equal(replaced.code, 2, 'update takes content from --content or --file only');
  const linked = cli(['link', '--db', db, b, a, '--type', 'supersedes']);
  assert.equal(linked.json?.created, true);
  assert.equal(cli(['link', '--db', db, b, a]).error?.error, 'PARAM_ERROR', '--type is required');
  assert.equal(cli(['link', '--db', db, b, a, '--type', 'replaces']).error?.error, 'PARAM_ERROR');
  assert.deepEqual((cli(['links', '--db', db, a]).json?.links as { src_id: string }[]).map((l) => l.src_id), [b]);
  assert.match(cli(['links', '--db', db, a, '--format', 'text']).stdout, new RegExp(`${b} --supersedes--> ${a}`));
  assert.equal(cli(['forget', '--db', db, b]).json?.action, 'forgotten');
  assert.equal(cli(['forget', '--db', db, 'MEM-000000000000']).code, 3);
  assert.equal(cli(['recall', '--db', db, 'queue']).stdout, '', 'superseded and forgotten: nothing to inject');
});

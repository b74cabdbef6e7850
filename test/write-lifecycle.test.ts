/**
 * What happens around a write: near-duplicates reported and, with merge_similar, merged; automatic
 * consolidation when STM fills up (KOAS), at most once per interval, off unless asked for in the
 * library and on by default in the CLI.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openEngram } from '../src/index.js';
import { cli, hostile, tempDir } from './helpers.js';

const START = Date.parse('2026-11-23T10:00:00.000Z');
const MINUTE = 60_000;

test('a near-duplicate write is reported; merge_similar folds it into the closest item', async (t) => {
  const engram = await openEngram({ path: ':memory:' });
  t.after(() => engram.close());
  const first = await engram.put({ content: 'We chose JWT for stateless auth in the API gateway', tags: ['auth'] });
  assert.equal(first.similar, undefined);

  const near = await engram.put({ content: 'We chose JWT for stateless auth in the API gateway service', tags: ['auth'] });
  assert.equal(near.action, 'created');
  assert.deepEqual(near.similar, [{ id: first.item.id, similarity: 0.857 }]);

  const unrelated = await engram.put({ content: 'The billing job exports invoices as CSV every night' });
  assert.equal(unrelated.similar, undefined, 'unrelated content is not reported');
  const elsewhere = await engram.put({ content: 'We chose JWT for stateless auth in the API gateway', scope: 'other' });
  assert.equal(elsewhere.similar, undefined, 'another scope is not compared');

  const merged = await engram.put({
    content: 'We chose JWT tokens for stateless auth in the API gateway service layer',
    tags: ['security'],
    confidence: 0.9,
    merge_similar: true,
  });
  assert.equal(merged.mode, 'similar');
  assert.equal(merged.action, 'updated');
  assert.equal(merged.item.id, near.item.id, 'the closest item takes the write');
  assert.equal(merged.item.version, 2);
  assert.equal(merged.item.content, 'We chose JWT tokens for stateless auth in the API gateway service layer', 'longest content wins');
  assert.deepEqual(merged.item.tags, ['auth', 'security']);
  assert.equal(merged.item.confidence, 0.9);
  assert.equal(merged.item.usage_count, 1, 'the merge reinforces the item');
  assert.equal((await engram.list({ scope: 'project' })).total, 3, 'nothing new was stored');
  assert.equal((await engram.history(near.item.id)).length, 2);

  const shorter = await engram.put({ content: 'We chose JWT for stateless auth in API gateway', merge_similar: true });
  assert.deepEqual([shorter.action, shorter.item.id], ['unchanged', first.item.id], 'a shorter near-duplicate adds nothing');
  assert.equal(shorter.item.usage_count, 1, 'but reinforcement');
});

test('near-duplicates: never a quarantined item, never without the full-text index', async (t) => {
  const engram = await openEngram({ path: ':memory:' });
  t.after(() => engram.close());
  const held = await engram.put({ content: hostile('self-instruction', /^self-instruction 1$/) });
  assert.equal(held.item.quarantined, true);
  const write = await engram.put({ content: `${held.item.content} Today.`, merge_similar: true });
  assert.equal(write.action, 'created');
  assert.notEqual(write.item.id, held.item.id);
  assert.equal(write.similar, undefined);

  const like = await openEngram({ path: ':memory:', fullText: false });
  t.after(() => like.close());
  await like.put({ content: 'Deploys run from the release branch on Thursdays' });
  assert.equal((await like.put({ content: 'Deploys run from the release branch on Thursday' })).similar, undefined);
});

test('auto-consolidation: at the STM threshold, at most once per interval, off by default', async (t) => {
  const dir = tempDir(t);
  let now = START;
  const engram = await openEngram({
    path: join(dir, 'auto.db'),
    clock: () => new Date(now),
    autoConsolidate: { threshold: 5, intervalMinutes: 10 },
  });
  t.after(() => engram.close());
  const put = (n: number, topic = 'release') =>
    engram.put({ content: `The ${topic} pipeline runs step ${n} on the staging cluster`, tags: [topic] });

  for (let n = 1; n <= 4; n++) assert.equal((await put(n)).auto_consolidation, undefined);
  const fifth = await put(5);
  const run = fifth.auto_consolidation;
  assert.ok(run, 'the fifth STM item triggers it');
  const { merged_into: into, ...counts } = run;
  assert.deepEqual(counts, { stm: 5, threshold: 5, clusters: 1, archived: 5, promoted: 0 });
  assert.match(String(into), /^MEM-[0-9a-f]{12}$/);
  assert.equal((await engram.list({ tier: 'stm' })).total, 0);
  assert.equal((await engram.list({ tier: 'mtm' })).total, 1);
  assert.equal((await engram.get({ id: fifth.item.id })).archived, true);

  for (let n = 1; n <= 5; n++) {
    now += 1000;
    await put(n, 'billing');
  }
  assert.equal((await engram.list({ tier: 'stm' })).total, 5, 'inside the interval nothing runs again');
  now = START + 10 * MINUTE - 1;
  assert.equal((await put(6, 'billing')).auto_consolidation, undefined, 'one millisecond short of the interval');
  now = START + 10 * MINUTE;
  assert.equal((await put(7, 'billing')).auto_consolidation?.clusters, 1, 'the interval has passed');
  assert.equal((await engram.list({ tier: 'stm' })).total, 0);

  const off = await openEngram({ path: ':memory:' });
  t.after(() => off.close());
  for (let n = 1; n <= 25; n++) {
    assert.equal((await off.put({ content: `Step ${n} of the nightly job` })).auto_consolidation, undefined);
  }
  assert.equal((await off.list({ tier: 'stm' })).total, 25, 'the library consolidates only when asked');
});

test('auto-consolidation after pull and ingest; dry runs and no-op writes never trigger it', async (t) => {
  const dir = tempDir(t);
  const engram = await openEngram({ path: join(dir, 'auto.db'), autoConsolidate: { threshold: 3, intervalMinutes: 10 } });
  t.after(() => engram.close());
  const proposals = [1, 2, 3].map((n) => ({ title: `Cache rule ${n}`, content: `The cache keeps entries for ${n} hours in the edge tier`, tags: ['cache'] }));
  const pulled = await engram.pull(JSON.stringify(proposals));
  assert.equal(pulled.stored, 3);
  assert.equal(pulled.auto_consolidation?.clusters, 1);
  const twice = await engram.pull(JSON.stringify([{ content: 'The edge tier is in Frankfurt' }, { content: 'the edge tier is in  Frankfurt' }]));
  assert.deepEqual(twice.items.map((i) => i.deduplicated), [undefined, true]);
  assert.equal(twice.items[0]?.id, twice.items[1]?.id);

  const other = await openEngram({ path: join(dir, 'ingest.db'), autoConsolidate: { threshold: 2, intervalMinutes: 10 } });
  t.after(() => other.close());
  mkdirSync(join(dir, 'docs'));
  // Two alike parts of one file: `engram consolidate` would merge them, the automatic run must not.
  writeFileSync(join(dir, 'docs', 'a.md'), 'The alpha service owns billing and invoices.\n\nThe alpha service owns billing and refunds.\n');
  const dry = await other.ingest({ sources: ['docs'], cwd: dir, dry_run: true });
  assert.equal(dry.auto_consolidation, undefined);
  const report = await other.ingest({ sources: ['docs'], cwd: dir, chunk_tokens: 12 });
  assert.equal(report.totals.chunks, 2);
  assert.equal(report.auto_consolidation, undefined, 'document chunks do not count');
  assert.equal((await other.consolidate({ dryRun: true })).clusters.length, 1, 'an explicit run would merge them');
  await other.put({ content: 'The billing team owns the invoice templates' });
  const run = (await other.put({ content: 'Refunds over 500 EUR need a second approval' })).auto_consolidation;
  assert.equal(run?.stm, 2, 'two memories reach the threshold');
  assert.equal(run?.clusters, 0, 'and the chunks are left alone');
  assert.equal((await other.list({ tier: 'stm' })).total, 4);
});

test('CLI: auto-consolidation on by default (20), ENGRAM_AUTO_CONSOLIDATE, config.json and --no-auto', (t) => {
  const dir = tempDir(t);
  assert.equal(cli(['init'], { cwd: dir }).code, 0);
  const put = (n: number, args: string[] = [], env: Record<string, string> = {}) =>
    cli(['put', '--tags', 'deploy', '--content', `Deploy step ${n} runs the release pipeline for staging`, ...args], { cwd: dir, env });
  for (let n = 1; n <= 2; n++) assert.equal(put(n, ['--no-auto'], { ENGRAM_AUTO_CONSOLIDATE: '2' }).json?.auto_consolidation, undefined);
  const third = put(3, [], { ENGRAM_AUTO_CONSOLIDATE: '2' });
  assert.equal(third.code, 0);
  assert.equal((third.json?.auto_consolidation as { clusters: number }).clusters, 1);
  assert.match(third.stderr, /auto-consolidated 3 STM items \(threshold 2\): 1 merged, 3 archived/);

  const bad = put(4, [], { ENGRAM_AUTO_CONSOLIDATE: 'often' });
  assert.equal(bad.code, 2);
  assert.equal(bad.error?.error, 'PARAM_ERROR');

  writeFileSync(join(dir, '.engram', 'config.json'), JSON.stringify({ fts_tokenizer: 'fr', auto_consolidate: false }));
  for (let n = 5; n <= 26; n++) assert.equal(put(n).code, 0);
  const stm = cli(['list', '--tier', 'stm', '--limit', '1'], { cwd: dir }).json?.total;
  assert.equal(stm, 22, 'config.json turned it off');
  writeFileSync(join(dir, '.engram', 'config.json'), JSON.stringify({ fts_tokenizer: 'fr', auto_consolidate: { interval_minutes: 0 } }));
  const on = put(27);
  assert.equal((on.json?.auto_consolidation as { stm: number; threshold: number }).threshold, 20, 'the default threshold');
  assert.equal(cli(['list', '--tier', 'stm', '--limit', '1'], { cwd: dir }).json?.total, 0);
});

/**
 * What happens around a write: near-duplicates reported and, with merge_similar, merged; automatic
 * consolidation when STM fills up (KOAS), at most once per interval, off unless asked for in the
 * library and on by default in the CLI.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openEngram } from '../src/index.js';
import { cli, hostile, tempDir } from './helpers.js';

const START = Date.parse('2026-11-23T10:00:00.000Z');
const MINUTE = 60_000;

test('similar writes are reported with what tells them apart; merge_similar folds only a near-duplicate', async (t) => {
  const engram = await openEngram({ path: ':memory:' });
  t.after(() => engram.close());
  // Each write in a millisecond of its own: "older → newer" is by creation time (two writes of one
  // millisecond are ordered by id).
  const put = async (input: Parameters<typeof engram.put>[0]) => {
    await new Promise((resolve) => setTimeout(resolve, 2));
    return engram.put(input);
  };
  const first = await put({ content: 'We chose JWT for stateless auth in the API gateway of the billing service.', tags: ['auth'] });
  assert.equal(first.similar, undefined);

  const near = await put({ content: 'We chose JWT for stateless auth in the API gateway of the billing service. Tokens expire in 15 minutes.', tags: ['auth'] });
  assert.equal(near.action, 'created');
  assert.deepEqual(near.similar, [{ id: first.item.id, similarity: 0.667, kind: 'near-duplicate', differs_in: ['∅ → 15'] }]);

  const other = await put({ content: 'We chose JWT for stateless auth in the API gateway of the billing service. Tokens expire in 30 minutes.' });
  assert.deepEqual(
    other.similar?.map((s) => [s.id, s.kind, s.differs_in]),
    [[near.item.id, 'possible-contradiction', ['15 → 30']], [first.item.id, 'near-duplicate', ['∅ → 30']]],
  );
  const unrelated = await put({ content: 'The billing job exports invoices as CSV every night' });
  assert.equal(unrelated.similar, undefined, 'unrelated content is not reported');
  const elsewhere = await put({ content: 'We chose JWT for stateless auth in the API gateway of the billing service.', scope: 'other' });
  assert.equal(elsewhere.similar, undefined, 'another scope is not compared');

  const merged = await put({
    content: 'We chose JWT for stateless auth in the API gateway of the billing service. Tokens expire in 15 minutes. Refresh tokens last 7 days.',
    tags: ['security'],
    confidence: 0.9,
    merge_similar: true,
  });
  assert.equal(merged.mode, 'similar');
  assert.equal(merged.action, 'updated');
  assert.equal(merged.item.id, near.item.id, 'the closest near-duplicate takes the write');
  assert.equal(merged.item.version, 2);
  assert.match(merged.item.content, /Refresh tokens last 7 days/, 'the text that says everything is kept');
  assert.deepEqual(merged.item.tags, ['auth', 'security']);
  assert.equal(merged.item.confidence, 0.9);
  assert.equal(merged.item.usage_count, 1, 'the merge reinforces the item');
  assert.equal((await engram.list({ scope: 'project' })).total, 4, 'nothing new was stored');
  assert.equal((await engram.history(near.item.id)).length, 2);

  const part = await put({
    content: 'We chose JWT for stateless auth in the API gateway of the billing service. Tokens expire in 15 minutes.',
    merge_similar: true,
    tags: ['auth'],
  });
  assert.deepEqual([part.action, part.mode, part.item.id], ['unchanged', 'similar', near.item.id], 'a write the item already says adds nothing');
  assert.equal(part.item.usage_count, 2, 'but reinforcement');
  const reordered = await put({ content: 'Tokens expire in 15 minutes. We chose JWT for stateless auth in the API gateway of the billing service.', merge_similar: true });
  assert.deepEqual([reordered.action, reordered.mode], ['created', 'new'], 'the first note after another sentence is not said the same way');

  const port = await put({ content: 'Postgres listens on port 5432.' });
  const conflicting = await put({ content: 'Postgres listens on port 5433.', merge_similar: true });
  assert.deepEqual([conflicting.action, conflicting.mode], ['created', 'new'], 'a possible contradiction is never merged');
  assert.deepEqual(conflicting.similar, [{ id: port.item.id, similarity: 0.6, kind: 'possible-contradiction', differs_in: ['5432 → 5433'] }]);
  assert.equal((await engram.get({ id: port.item.id })).content, 'Postgres listens on port 5432.');
  const tiny = await put({ content: 'Port 6379', scope: 'cache' });
  const other6380 = await put({ content: 'Port 6380', scope: 'cache' });
  assert.deepEqual(other6380.similar?.map((s) => [s.id, s.kind, s.differs_in]), [[tiny.item.id, 'possible-contradiction', ['6379 → 6380']]], 'however short');
  const review = await engram.review();
  assert.deepEqual(
    review.possible_contradictions.map((c) => [c.items.map((i) => i.id), c.differs_in]).sort(),
    [
      [[near.item.id, other.item.id], ['15 → 30']],
      [[other.item.id, reordered.item.id], ['30 → 15']],
      [[port.item.id, conflicting.item.id], ['5432 → 5433']],
      [[tiny.item.id, other6380.item.id], ['6379 → 6380']],
    ].sort(),
    'the 15/30 minutes sentences still disagree after the merge added a sentence to one',
  );
});

test('review: one sentence of a longer note contradicting another note is listed; other subjects are not', async (t) => {
  const engram = await openEngram({ path: ':memory:' });
  t.after(() => engram.close());
  const old = await engram.put({ content: 'Redis 7.2 is the cache. The session store keeps tokens for 30 days.' });
  const fresh = await engram.put({ content: 'The session store keeps tokens for 14 days.' });
  await engram.put({ content: 'The staging database runs Postgres 12 on port 6100' });
  await engram.put({ content: 'The production database runs Postgres 12 on port 6101' });
  await engram.put({ content: 'The session store keeps tokens for 14 days.', scope: 'elsewhere' });
  const { possible_contradictions: found } = await engram.review();
  assert.deepEqual(found.map((c) => [c.items.map((i) => i.id), c.differs_in]), [[[old.item.id, fresh.item.id], ['30 → 14']]]);
});

test('CLI: a possible contradiction is reported on write and listed side by side by review', (t) => {
  const db = join(tempDir(t), 'm.db');
  assert.equal(cli(['put', '--db', db, '--content', 'The database listens on port 5432']).code, 0);
  const put = cli(['put', '--db', db, '--content', 'The database listens on port 5433', '--merge-similar']);
  assert.equal(put.code, 0, put.stderr);
  assert.match(put.stderr, /possible contradiction of MEM-[0-9a-f]{12} \(similarity [\d.]+\); differs in: 5432 → 5433/);
  assert.equal((put.json?.item as { content: string }).content, 'The database listens on port 5433');
  const review = cli(['review', '--db', db, '--format', 'text']);
  assert.equal(review.code, 0, review.stderr);
  assert.match(review.stdout, /possible contradictions \(1\)\ndiffers in: 5432 → 5433\nMEM-\S+ .*\n {2}The database listens on port 5432\nMEM-\S+ .*\n {2}The database listens on port 5433/);
  assert.equal(cli(['list', '--db', db]).json?.total, 2, 'both stay');
});

test('near-duplicates: never a quarantined item, never without the full-text index', async (t) => {
  const engram = await openEngram({ path: ':memory:' });
  t.after(() => engram.close());
  const held = await engram.put({ content: hostile('self-instruction', /^self-instruction 3$/) });
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
  // Each note repeats the ones before it and adds a step: the newest says all of them.
  const put = (n: number, topic = 'release') => engram.put({
    content: Array.from({ length: n }, (_, i) => `The ${topic} pipeline passed step ${i + 1}.`).join(' '),
    tags: [topic],
  });

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
  assert.equal(pulled.auto_consolidation?.clusters, 0, 'three facts with other values stay apart');
  assert.equal((await engram.list({ tier: 'stm' })).total, 3);
  const twice = await engram.pull(JSON.stringify([{ content: 'The edge tier is in Frankfurt' }, { content: 'The edge tier is in Frankfurt  ' }]));
  assert.deepEqual(twice.items.map((i) => i.deduplicated), [undefined, true]);
  assert.equal(twice.items[0]?.id, twice.items[1]?.id);

  const other = await openEngram({ path: join(dir, 'ingest.db'), autoConsolidate: { threshold: 2, intervalMinutes: 10 } });
  t.after(() => other.close());
  mkdirSync(join(dir, 'docs'));
  // A part repeated in one file: neither the automatic run nor `engram consolidate` folds chunks.
  writeFileSync(join(dir, 'docs', 'a.md'), 'The alpha service owns billing and invoices.\n\nThe alpha service owns billing and invoices.\n');
  const dry = await other.ingest({ sources: ['docs'], cwd: dir, dry_run: true });
  assert.equal(dry.auto_consolidation, undefined);
  const report = await other.ingest({ sources: ['docs'], cwd: dir, chunk_tokens: 12 });
  assert.equal(report.totals.chunks, 2);
  assert.equal(report.auto_consolidation, undefined, 'document chunks do not count');
  assert.equal((await other.consolidate({ dryRun: true })).clusters.length, 0, 'nor an explicit run');
  await other.put({ content: 'The billing team owns the invoice templates' });
  const run = (await other.put({ content: 'Refunds over 500 EUR need a second approval' })).auto_consolidation;
  assert.equal(run?.stm, 2, 'two memories reach the threshold');
  assert.equal(run?.clusters, 0, 'and the chunks are left alone');
  assert.equal((await other.list({ tier: 'stm' })).total, 4);
});

test('CLI: auto-consolidation on by default (20), ENGRAM_AUTO_CONSOLIDATE, config.json and --no-auto', (t) => {
  const dir = tempDir(t);
  assert.equal(cli(['init'], { cwd: dir }).code, 0);
  // Puts come in pairs: the second of each says all the first says, and a sentence more.
  const put = (n: number, args: string[] = [], env: Record<string, string> = {}) => {
    const content = `Deploy step ${Math.ceil(n / 2)} runs the release pipeline for staging.${n % 2 === 0 ? ' It takes ten minutes.' : ''}`;
    return cli(['put', '--tags', 'deploy', '--content', content, ...args], { cwd: dir, env });
  };
  for (let n = 1; n <= 2; n++) assert.equal(put(n, ['--no-auto'], { ENGRAM_AUTO_CONSOLIDATE: '2' }).json?.auto_consolidation, undefined);
  const third = put(3, [], { ENGRAM_AUTO_CONSOLIDATE: '2' });
  assert.equal(third.code, 0);
  assert.equal((third.json?.auto_consolidation as { clusters: number }).clusters, 1);
  assert.match(third.stderr, /auto-consolidated 3 STM items \(threshold 2\): 1 merged, 2 archived/);

  const bad = put(4, [], { ENGRAM_AUTO_CONSOLIDATE: 'often' });
  assert.equal(bad.code, 2);
  assert.equal(bad.error?.error, 'PARAM_ERROR');

  writeFileSync(join(dir, '.engram', 'config.json'), JSON.stringify({ fts_tokenizer: 'fr', auto_consolidate: false }));
  for (let n = 5; n <= 26; n++) assert.equal(put(n).code, 0);
  const stm = cli(['list', '--tier', 'stm', '--limit', '1'], { cwd: dir }).json?.total;
  assert.equal(stm, 23, 'config.json turned it off');
  writeFileSync(join(dir, '.engram', 'config.json'), JSON.stringify({ fts_tokenizer: 'fr', auto_consolidate: { interval_minutes: 0 } }));
  const on = put(27);
  assert.equal((on.json?.auto_consolidation as { stm: number; threshold: number }).threshold, 20, 'the default threshold');
  assert.equal((on.json?.auto_consolidation as { clusters: number }).clusters, 11, 'the eleven pairs of puts 5 to 26');
  assert.equal(cli(['list', '--tier', 'stm', '--limit', '1'], { cwd: dir }).json?.total, 2, 'steps 2 and 14 had nothing to fold into');
});

test('auto-consolidation indexes a merged CJK item with its words though nothing loaded the segmenter ahead', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'cjk.db');
  // Written with consolidation off; each note repeats the one before and adds a clause.
  const writer = await openEngram({ path });
  for (let n = 1; n <= 4; n++) {
    await writer.put({ content: Array.from({ length: n }, (_, i) => `发布流水线通过了第${i + 1}步。`).join(' ') });
  }
  writer.close();
  // A new engram (its indexer has loaded nothing) whose first write is ASCII triggers the pass.
  const engram = await openEngram({ path, autoConsolidate: { threshold: 5, intervalMinutes: 10 } });
  t.after(() => engram.close());
  const run = (await engram.put({ content: 'The deploy checklist lives in the wiki' })).auto_consolidation;
  assert.equal(run?.clusters, 1);
  const merged = run?.merged_into ?? (await engram.list({ tier: 'mtm' })).items[0]?.id;
  assert.match(String(merged), /^MEM-/);
  // Found by the index's own words (not by the substring stage that finds any text).
  const found = await engram.search({ query: '流水线' });
  assert.equal(found.stage, 'any');
  assert.ok(found.items.some((i) => i.id === merged), JSON.stringify(found.items.map((i) => i.id)));
});

test('auto-consolidation of a store without CJK text never loads the segmenter (jieba)', (t) => {
  const dir = tempDir(t);
  const index = JSON.stringify(fileURLToPath(new URL('../src/index.js', import.meta.url)));
  const script = `
    import { createRequire } from 'node:module';
    const { openEngram } = await import(${index});
    const engram = await openEngram({ path: ${JSON.stringify(join(dir, 'ascii.db'))}, autoConsolidate: { threshold: 5, intervalMinutes: 10 } });
    let run;
    for (let n = 1; n <= 5; n++) {
      run = (await engram.put({ content: Array.from({ length: n }, (_, i) => 'The release pipeline passed step ' + (i + 1) + '.').join(' ') })).auto_consolidation;
    }
    engram.close();
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('jieba'));
    process.stdout.write(JSON.stringify({ clusters: run?.clusters, loaded }));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  assert.deepEqual(JSON.parse(child.stdout), { clusters: 1, loaded: [] });
});

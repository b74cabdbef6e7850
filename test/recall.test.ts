/** Recall: only injectable, live, non-archived items, within budget, usage recorded, byte-stable. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { openEngram } from '../src/index.js';
import { estimateTokens } from '../src/recall/estimate-tokens.js';
import { cli, tempDir } from './helpers.js';

test('recall never includes non-injectable, archived or expired items, and stays within budget', async (t) => {
  let now = Date.parse('2026-11-22T12:00:00.000Z');
  const engram = await openEngram({ path: join(tempDir(t), 'm.db'), clock: () => new Date((now += 1000)) });
  t.after(() => engram.close());
  const ok = (await engram.put({ content: 'deploy checklist: staging first', tags: ['deploy'] })).item;
  await engram.put({ content: 'deploy secret notes', injectable: false });
  const archived = (await engram.put({ content: 'old deploy process' })).item;
  await engram.delete(archived.id);
  await engram.put({ content: 'deploy freeze this week', expires_at: '2026-11-22T12:00:30.000Z' });
  now = Date.parse('2026-11-23T00:00:00.000Z');
  const result = await engram.recall({ query: 'deploy' });
  assert.deepEqual(result.injected.map((e) => e.id), [ok.id]);
  assert.equal(result.matched, 1);
  assert.ok(result.tokens_used <= result.budget);
  assert.equal(result.tokens_used, estimateTokens(result.inject_text));

  for (let i = 0; i < 40; i++) await engram.put({ content: `deploy note ${i} ${'detail '.repeat(i * 3)}` });
  for (const budget of [20, 64, 150, 500, 1500]) {
    const packed = await engram.recall({ query: 'deploy note', budget });
    assert.ok(estimateTokens(packed.inject_text) <= budget, `budget ${budget}`);
  }
});

test('recall records usage (no new version) and one event per call', async (t) => {
  const engram = await openEngram({ path: join(tempDir(t), 'm.db') });
  t.after(() => engram.close());
  const { item } = await engram.put({ content: 'cache TTL is 300 s' });
  await engram.recall({ query: 'cache' });
  await engram.recall({ query: 'cache ttl' });
  await engram.recall({ query: 'unrelated words' });
  const after = await engram.get({ id: item.id });
  assert.equal(after.usage_count, 2);
  assert.notEqual(after.last_used_at, null);
  assert.equal(after.version, 1);
  assert.equal((await engram.history(item.id)).length, 1);
});

test('CLI: push/recall print only the block, nothing when nothing matches, JSON on request', (t) => {
  const db = join(tempDir(t), 'm.db');
  const id = (
    cli(['put', '--db', db, '--content', 'Critical vulnerability in Oracle 19c.', '--title', 'Oracle CVE patch',
      '--type', 'fact', '--tier', 'ltm', '--tags', 'oracle,cve']).json?.item as { id: string }
  ).id;
  const run = cli(['push', '--db', db, 'oracle patch']);
  assert.equal(run.code, 0, run.stderr);
  const body
    = '[ENGRAM_MEMORY format_version=1 type=memory_recall matched=1 injected=1 budget=1500]\n'
      + `--- ITEM 1/1 [${id} | fact | ltm | tags=oracle,cve] ---\n`
      + 'Oracle CVE patch\nCritical vulnerability in Oracle 19c.\n';
  assert.equal(run.stdout, `${body}[/ENGRAM_MEMORY tokens_used=${estimateTokens(`${body}[/ENGRAM_MEMORY tokens_used=00]\n`)}]\n`);
  assert.equal(cli(['recall', '--db', db, 'oracle patch']).stdout, run.stdout, 'push without --source is recall');
  const empty = cli(['recall', '--db', db, 'kubernetes']);
  assert.equal(empty.code, 0);
  assert.equal(empty.stdout, '');
  const json = cli(['recall', '--db', db, 'oracle', '--json']);
  assert.equal(json.json?.format_version, 1);
  assert.equal(json.json?.injected instanceof Array, true);
  assert.equal(cli(['recall', '--db', db, 'oracle', '--no-header']).stdout, body.split('\n').slice(1).join('\n'));
  const bad = cli(['recall', '--db', db, 'oracle'], { env: { ENGRAM_BUDGET: 'lots' } });
  assert.equal(bad.code, 2);
  assert.equal(cli(['recall', '--db', db, 'oracle', '--budget', '5']).stdout, '', 'nothing fits in 5 tokens');
});

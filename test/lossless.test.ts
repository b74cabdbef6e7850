/**
 * The invariant of every automatic step: nothing a user stored is lost. Over generated stores
 * (facts from shared templates, numbers, names, paths, tags and files, with repeats, subsets and
 * near misses), after `consolidate` and after the automatic run every sentence of every live item
 * before is still in a live item, and every distinguishing token is still found by `search`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Engram, type MemoryItem, openEngram } from '../src/index.js';
import { distinguishingTokens, itemSentences, sentencesOf } from '../src/lifecycle/lossless.js';
import { cli, tempDir } from './helpers.js';

function generator(seed: number) {
  let state = seed;
  const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const subjects = ['staging database', 'production database', 'billing service', 'auth gateway', 'search cluster', 'nightly job'];
  const names = ['Postgres', 'Redis', 'Kafka', 'NATS', 'Anna', 'Bruno'];
  const templates = [
    (s: string) => `The ${s} runs ${pick(names)} ${pick(['12', '13', '16', '7.2'])} on port ${5430 + Math.floor(random() * 6)}.`,
    (s: string) => `The ${s} is owned by ${pick(names)}.`,
    (s: string) => `Logs of the ${s} go to /var/log/${s.split(' ')[0]}-${Math.floor(random() * 3)}.log.`,
    (s: string) => `The ${s} was upgraded on 2026-0${1 + Math.floor(random() * 3)}-1${Math.floor(random() * 3)}.`,
    (s: string) => `Docs for the ${s} live at https://docs.example.com/${s.split(' ')[1]}/v${Math.floor(random() * 3)}.`,
    (s: string) => `The ${s} uses max_retries = ${Math.floor(random() * 4)}.`,
  ];
  // A pool of sentences shared by the items, so items repeat, contain and nearly match each other.
  const pool = Array.from({ length: 14 }, () => pick(templates)(pick(subjects)));
  const item = () => {
    const count = 1 + Math.floor(random() * 3);
    const sentences = Array.from({ length: count }, () => pick(pool));
    const cased = random() < 0.2 ? sentences.map((x) => x.toLowerCase()) : sentences;
    return {
      content: random() < 0.3 ? cased.map((x) => `- ${x}`).join('\n') : cased.join(' '),
      ...(random() < 0.15 ? { title: pick(pool) } : {}),
      tags: [pick(['db', 'ops', 'auth'])],
      source: pick(['notes/a.md', 'notes/b.md']),
      type: pick(['fact', 'fact', 'note'] as const),
      scope: pick(['project', 'project', 'other']),
      ...(random() < 0.15 ? { injectable: false } : {}),
      ...(random() < 0.1 ? { validation: 'contradicted' as const } : {}),
    };
  };
  return { random, pick, pool, item };
}

const liveItems = async (engram: Engram): Promise<MemoryItem[]> => (await engram.list({ limit: 10_000 })).items;

/** Checks the invariant; returns how many items the run archived (so the test knows it did something). */
async function assertLossless(
  engram: Engram,
  before: MemoryItem[],
  label: string,
  textOf = itemSentences,
): Promise<number> {
  const after = await liveItems(engram);
  for (const scope of new Set(before.map((i) => i.scope))) {
    const said = new Set(after.filter((i) => i.scope === scope).flatMap((i) => textOf(i)));
    for (const item of before.filter((i) => i.scope === scope)) {
      for (const sentence of textOf(item)) assert.ok(said.has(sentence), `${label}: "${sentence}" of ${item.id} is lost`);
    }
  }
  for (const item of before) {
    for (const token of distinguishingTokens(item.content)) {
      const hits = (await engram.search({ query: token, k: 100, scope: item.scope })).items;
      assert.ok(hits.some((h) => `${h.title}\n${h.content}`.toLowerCase().includes(token)), `${label}: search finds no live item with ${token}`);
    }
  }
  // Nothing recall could use is hidden, and nothing hidden becomes usable.
  const usable = async (items: MemoryItem[]) => {
    // Links are read now: only those from items of the same moment count (before the run, none of its own).
    const ids = new Set(items.map((i) => i.id));
    const superseded = new Set<string>();
    for (const item of items) {
      for (const l of await engram.links(item.id)) if (l.type === 'supersedes' && ids.has(l.src_id)) superseded.add(l.dst_id);
    }
    const ok = items.filter((i) => i.injectable && i.validation !== 'contradicted' && !i.archived && !superseded.has(i.id));
    return new Set(ok.flatMap((i) => textOf(i).map((x) => `${i.scope}\u0000${x}`)));
  };
  const [visibleBefore, visibleAfter] = [await usable(before), await usable(after)];
  const shown = [...visibleAfter].filter((x) => !visibleBefore.has(x));
  const hidden = [...visibleBefore].filter((x) => !visibleAfter.has(x));
  assert.deepEqual({ shown, hidden }, { shown: [], hidden: [] }, `${label}: what recall may use changed`);
  // Stronger, per item: whatever a run archived, the item that supersedes it says in full.
  const live = new Map(after.map((i) => [i.id, i]));
  const archived = before.filter((i) => !live.has(i.id));
  for (const item of archived) {
    const by = (await engram.links(item.id)).filter((l) => l.type === 'supersedes' && l.dst_id === item.id);
    assert.equal(by.length, 1, `${label}: ${item.id} was archived by one merge`);
    const winner = new Set(textOf(live.get(by[0]?.src_id ?? '') as MemoryItem));
    for (const sentence of textOf(item)) assert.ok(winner.has(sentence), `${label}: "${sentence}" is not in ${item.id}'s winner`);
  }
  return archived.length;
}

test('property: explicit consolidate over generated stores loses no sentence and no distinguishing token', async (t) => {
  let archived = 0;
  for (let seed = 1; seed <= 25; seed++) {
    const { item } = generator(seed);
    const engram = await openEngram({ path: ':memory:' });
    t.after(() => engram.close());
    for (let i = 0; i < 40; i++) await engram.put(item());
    const before = await liveItems(engram);
    await engram.consolidate();
    archived += await assertLossless(engram, before, `seed ${seed}`);
  }
  assert.ok(archived > 15, `the generated stores had duplicates to fold (${archived} archived)`);
});

test('property: the automatic run after each write loses nothing either', async (t) => {
  let ran = 0;
  for (let seed = 101; seed <= 115; seed++) {
    const { item } = generator(seed);
    let now = Date.parse('2026-11-23T10:00:00.000Z');
    const engram = await openEngram({
      path: ':memory:',
      clock: () => new Date((now += 60_000)),
      autoConsolidate: { threshold: 5, intervalMinutes: 1 },
    });
    t.after(() => engram.close());
    const stored: MemoryItem[] = [];
    for (let i = 0; i < 30; i++) {
      const result = await engram.put(item());
      stored.push(result.item);
      if (result.auto_consolidation) ran += result.auto_consolidation.archived;
    }
    await assertLossless(engram, stored, `seed ${seed}`);
  }
  assert.ok(ran > 5, `the automatic run folded items (${ran} archived)`);
});

test('property: explicit consolidate leaves ingested chunks as they are, repeats within a file included', async (t) => {
  for (let seed = 201; seed <= 210; seed++) {
    const { pick, pool, random } = generator(seed);
    const dir = tempDir(t);
    mkdirSync(join(dir, 'docs'));
    for (let f = 0; f < 4; f++) {
      const paragraphs = Array.from({ length: 6 }, () => Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(pool)).join(' '));
      writeFileSync(join(dir, 'docs', `f${f}.md`), `${paragraphs.join('\n\n')}\n`);
    }
    const engram = await openEngram({ path: join(dir, 'm.db') });
    t.after(() => engram.close());
    await engram.ingest({ sources: ['docs'], cwd: dir, chunk_tokens: 24 });
    const before = await liveItems(engram);
    await engram.consolidate();
    const archived = await assertLossless(engram, before, `chunks, seed ${seed}`, (i) => sentencesOf(i.content));
    assert.equal(archived, 0, 'a chunk is kept in step with its file by re-ingest, never folded');
    const repeats = before.length - new Set(before.map((i) => i.content.trim())).size;
    assert.ok(seed !== 201 || repeats > 0, 'the generated files do repeat parts');
  }
});

test('CLI: 30 facts of one template, put one by one with automatic consolidation, then consolidate: all 30 stay', (t) => {
  const dir = tempDir(t);
  const envs = [
    'staging', 'production', 'development', 'qa', 'demo', 'sandbox', 'preview', 'canary', 'perf', 'load',
    'integration', 'uat', 'training', 'research', 'archive', 'backup', 'analytics', 'reporting', 'billing', 'search',
    'auth', 'payments', 'inventory', 'shipping', 'catalog', 'support', 'marketing', 'sales', 'legal', 'hr',
  ];
  for (const [i, env] of envs.entries()) {
    const run = cli(['put', '--content', `The ${env} database runs Postgres 12 on port ${6100 + i}`], { cwd: dir, env: { ENGRAM_DB: join(dir, 'm.db') } });
    assert.equal(run.code, 0, run.stderr);
  }
  const consolidate = cli(['consolidate', '--db', join(dir, 'm.db')]);
  assert.equal(consolidate.code, 0, consolidate.stderr);
  for (const [i, env] of envs.entries()) {
    const hits = cli(['search', String(6100 + i), '--db', join(dir, 'm.db')]).json?.items as MemoryItem[];
    assert.deepEqual(hits.map((h) => h.content), [`The ${env} database runs Postgres 12 on port ${6100 + i}`]);
  }
  const recall = cli(['recall', 'which port does the staging database use', '--db', join(dir, 'm.db'), '--format', 'text']);
  assert.equal(recall.code, 0, recall.stderr);
  const first = recall.stdout.split('\n')[2];
  assert.equal(first, 'The staging database runs Postgres 12 on port 6100', 'the answer is the staging fact');
});

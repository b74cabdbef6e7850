/**
 * `consolidate --candidates` a batch at a time: the limit (default 10), `more` and `more_exact`,
 * `offset`, the same order on every call, and the next groups once a batch is handled (pulled and
 * linked `derived_from`, or superseded).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Engram, openEngram } from '../src/index.js';
import type { CandidateGroup, ConsolidationCandidates } from '../src/lifecycle/candidates.js';
import { cli, tempDir } from './helpers.js';

const DAY = 86_400_000;
const TIMEOUT = { timeout: 180_000 };
/** Word pools far apart, so that each merge pair is alike only inside itself. */
const TOPICS = [
  ['retries', 'backoff', 'jitter', 'capped', 'seconds', 'queue', 'worker'],
  ['postgres', 'replica', 'failover', 'lag', 'promote', 'standby', 'cluster'],
  ['tokens', 'rotate', 'signing', 'keys', 'expiry', 'refresh', 'session'],
];
/** One type per topic: each pair is a clustering group (scope, type, source) of its own. */
const TYPES = ['fact', 'pattern', 'note'] as const;

interface Seeded {
  engram: Engram;
  db: string;
  advance: (ms: number) => void;
}

/**
 * Six sources with one old STM note each (six groups to extract) and three pairs of related MTM
 * memories of three types (three groups to merge, each found in a clustering group of its own):
 * nine groups, extract first.
 */
async function seeded(t: { after: (fn: () => void) => void }): Promise<Seeded> {
  let now = Date.parse('2026-06-01T00:00:00.000Z');
  const db = join(tempDir(t), 'c.db');
  const engram = await openEngram({ path: db, clock: () => new Date(now) });
  t.after(() => engram.close());
  for (let s = 1; s <= 6; s++) {
    await engram.put({ content: `Session ${s} notes: step ${s} of the migration ran on host h${s}`, source: `session-${s}` });
    now += 1000;
  }
  for (const [k, words] of TOPICS.entries()) {
    const [a, b, c, d, e, f, g] = words as string[];
    const fields = { tier: 'mtm', tags: [`topic${k}`], type: TYPES[k] ?? 'note' };
    await engram.put({ content: `${a} ${b} ${c} ${d} ${e} ${f} ${g} one`, ...fields });
    await engram.put({ content: `${a} ${b} ${c} ${d} ${e} ${f} ${g} two`, ...fields });
  }
  now += 4 * DAY;
  return { engram, db, advance: (ms) => (now += ms) };
}

const idsOf = (groups: readonly CandidateGroup[]) => groups.map((g) => g.item_ids.join(','));
const all = (c: ConsolidationCandidates) => [...idsOf(c.extract), ...idsOf(c.merge)];

test('a batch holds at most limit groups (default 10), extract first; more says how many follow', TIMEOUT, async (t) => {
  const { engram } = await seeded(t);
  const whole = await engram.consolidationCandidates();
  const shape = (c: ConsolidationCandidates) => [c.extract.length, c.merge.length, c.more, c.more_exact];
  assert.deepEqual([...shape(whole), whole.limit], [6, 3, 0, true, 10]);
  assert.deepEqual(whole.extract.map((g) => g.source), ['session-1', 'session-2', 'session-3', 'session-4', 'session-5', 'session-6']);

  const first = await engram.consolidationCandidates({ limit: 4 });
  assert.deepEqual([first.extract.length, first.merge.length, first.more], [4, 0, 2], 'two groups to extract follow');
  assert.equal(first.more_exact, false, 'the clusters to merge after them are not counted yet');
  const edge = await engram.consolidationCandidates({ limit: 6 });
  assert.deepEqual(shape(edge), [6, 0, 1, false],
    'no group to extract after the batch: clusters are looked for until one follows, so a loop on more goes on');
  const second = await engram.consolidationCandidates({ limit: 7 });
  assert.deepEqual(shape(second), [6, 1, 1, false], 'the third type is not compared: one more is known');
  const counts = await engram.consolidationCandidates({ limit: 0 });
  assert.deepEqual([counts.extract.length, counts.merge.length, counts.more, counts.more_exact], [0, 0, 9, true]);
  const middle = await engram.consolidationCandidates({ limit: 3, offset: 5 });
  assert.deepEqual([...shape(middle), middle.offset], [1, 2, 1, true, 5], 'the last clustering group: exact');
  const last = await engram.consolidationCandidates({ limit: 3, offset: 6 });
  assert.deepEqual(shape(last), [0, 3, 0, true], 'nothing after the batch: exact');
  const past = await engram.consolidationCandidates({ limit: 3, offset: 20 });
  assert.deepEqual([past.extract.length, past.merge.length, past.more], [0, 0, 0]);
  for (const bad of [{ limit: -1 }, { limit: 1.5 }, { limit: 1001 }, { offset: -2 }]) {
    await assert.rejects(engram.consolidationCandidates(bad), /PARAM_ERROR|Invalid/, JSON.stringify(bad));
  }
});

test('the order is the same on every call: batches by offset join into the whole list', TIMEOUT, async (t) => {
  const { engram } = await seeded(t);
  const whole = all(await engram.consolidationCandidates({ limit: 1000 }));
  assert.deepEqual(all(await engram.consolidationCandidates({ limit: 1000 })), whole, 'twice the same');
  const joined: string[] = [];
  for (let offset = 0; ; offset += 2) {
    const batch = await engram.consolidationCandidates({ limit: 2, offset });
    joined.push(...all(batch));
    if (batch.more === 0) break;
  }
  assert.deepEqual(joined, whole);
});

test('after a batch is handled (pulled and linked, or superseded) the next call offers the next groups', TIMEOUT, async (t) => {
  const { engram, advance } = await seeded(t);
  const seen: string[] = [];
  let calls = 0;
  for (;;) {
    const batch = await engram.consolidationCandidates({ limit: 4 });
    calls++;
    assert.ok(calls <= 4, 'the loop ends');
    for (const group of [...batch.extract, ...batch.merge]) {
      assert.equal(seen.includes(group.item_ids.join(',')), false, 'no group comes back once handled');
      seen.push(group.item_ids.join(','));
      if (group.kind === 'extract') {
        // Words of its own, so that the distilled facts are not alike each other (no new merge).
        const k = seen.length;
        const answer = [{ title: 'Lasting', content: `Fact ${k}: alpha${k} bravo${k} charlie${k} delta${k}`, type: 'fact' }];
        const stored = (await engram.pull(JSON.stringify(answer))).items[0]?.id ?? '';
        for (const id of group.item_ids) await engram.link({ src_id: stored, dst_id: id, type: 'derived_from' });
      } else {
        const merged = group.items.map((i) => i.content).join('; ');
        await engram.pull(JSON.stringify([{ title: 'Merged', content: merged, supersedes: group.item_ids }]));
      }
      advance(1000);
    }
    if (batch.more === 0) break;
  }
  assert.equal(calls, 3, 'nine groups in batches of four');
  assert.equal(seen.length, 9);
  const after = await engram.consolidationCandidates();
  assert.deepEqual([after.extract.length, after.merge.length, after.more], [0, 0, 0], 'everything handled');
});

test('CLI: consolidate --candidates --limit / --offset; --limit without --candidates is a PARAM_ERROR', TIMEOUT, async (t) => {
  const { db } = await seeded(t);
  const run = cli(['consolidate', '--candidates', '--limit', '2', '--offset', '5', '--db', db, '--json']);
  assert.equal(run.code, 0, run.stderr);
  assert.equal((run.json?.extract as unknown[]).length, 1);
  assert.equal((run.json?.merge as unknown[]).length, 1);
  assert.deepEqual([run.json?.more, run.json?.more_exact, run.json?.offset, run.json?.limit], [1, false, 5, 2]);
  const text = cli(['consolidate', '--candidates', '--limit', '2', '--db', db, '--format', 'text']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /at least 4 more group\(s\) \(again once these are handled, or --offset 2\)/);
  const wrong = cli(['consolidate', '--limit', '2', '--db', db, '--json']);
  assert.notEqual(wrong.code, 0);
  assert.equal(wrong.error?.error, 'PARAM_ERROR', 'consolidate itself is never limited');
  assert.equal(cli(['consolidate', '--candidates', '--limit', '-1', '--db', db, '--json']).error?.error, 'PARAM_ERROR');
  assert.equal(cli(['consolidate', '--candidates', '--limit', '1001', '--db', db, '--json']).error?.error, 'PARAM_ERROR');
});

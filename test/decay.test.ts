/**
 * The forgetting curve (docs/forgetting.md): the documented table checked cell by cell against
 * the code, memtool's half-lives honoured (no layered item stale before memtool says so), and
 * the change lossless (every item stale now was stale under the rule before it, so cleanup
 * archives nothing it kept).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decayOf, HALF_LIFE_DAYS, halfLifeDays, TIER_DECAY_PER_DAY } from '../src/forgetting/curve.js';
import { openEngram } from '../src/index.js';
import { type Layer, LAYERS, TIERS, type Tier } from '../src/types.js';
import { tempDir } from './helpers.js';

const DAY = 86_400_000;
const AT = '2026-01-01T00:00:00.000Z';
const after = (days: number) => new Date(Date.parse(AT) + days * DAY);
const item = (tier: Tier, layer: Layer | null, lastUsed: string | null = null) =>
  ({ tier, layer, updated_at: AT, last_used_at: lastUsed });

/** The rule before issue 20: the rates added up, stale at decay ≤ 0.2. */
function before(tier: Tier, layer: Layer | null, days: number) {
  const rate = (TIER_DECAY_PER_DAY[tier] ?? 0) + (layer === null ? 0 : Math.LN2 / (HALF_LIFE_DAYS[layer] ?? Infinity));
  const decay = Math.exp(-rate * days);
  return { decay, is_stale: decay <= 0.2 };
}

/** memtool's own rule for a layered item: decay = exp(−ln2 · age / half_life), stale at ≤ 0.2. */
const memtoolStale = (layer: Layer, days: number) => Math.exp((-Math.LN2 * days) / (HALF_LIFE_DAYS[layer] ?? 0)) <= 0.2;

interface Row {
  tier: Tier;
  layer: Layer | null;
  halfLife: string;
  decays: string[];
  staleAfter: string;
  staleBefore: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const TABLE_AGES = [7, 30, 365, 848];

function documentedTable(): Row[] {
  const doc = readFileSync(join(here, '..', '..', 'docs', 'forgetting.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## The table'));
  return section
    .split('\n')
    .filter((line) => /^\| (stm|mtm|ltm) \|/.test(line))
    .map((line) => {
      const cells = line.split('|').slice(1, -1).map((c) => c.trim());
      const [tier, layer, halfLife, d7, d30, d365, d848, staleAfter, staleBefore] = cells as [string, ...string[]];
      return {
        tier: tier as Tier,
        layer: layer === '—' ? null : (layer as Layer),
        halfLife: halfLife ?? '',
        decays: [d7, d30, d365, d848].map(String),
        staleAfter: staleAfter ?? '',
        staleBefore: staleBefore ?? '',
      };
    });
}

/** Checks a "stale after" cell: fresh just before the age (to its 0.1 day rounding), stale just after. */
function checkBoundary(cell: string, staleAt: (days: number) => boolean, label: string) {
  if (cell === 'never') {
    assert.equal(staleAt(1e6), false, `${label}: never stale`);
    return;
  }
  const days = Number(cell);
  assert.equal(staleAt(days - 0.051), false, `${label}: fresh before ${cell} d`);
  assert.equal(staleAt(days + 0.051), true, `${label}: stale after ${cell} d`);
}

test('the documented table (tier × layer × age) matches the formula cell by cell', () => {
  const rows = documentedTable();
  assert.equal(rows.length, TIERS.length * (LAYERS.length + 1), 'every tier with every layer and none');
  for (const row of rows) {
    const label = `${row.tier}/${row.layer ?? '—'}`;
    const halfLife = halfLifeDays(row.tier, row.layer);
    assert.equal(halfLife === Infinity ? 'never' : halfLife.toFixed(1), row.halfLife, `${label} half-life`);
    const boundary = row.staleAfter === 'never' ? Infinity : Number(row.staleAfter);
    TABLE_AGES.forEach((age, i) => {
      const life = decayOf(item(row.tier, row.layer), after(age));
      assert.equal(life.decay.toFixed(3), row.decays[i], `${label} decay at ${age} d`);
      assert.equal(life.is_stale, age >= boundary, `${label} stale at ${age} d`);
      assert.equal(life.half_life_days === null ? 'never' : life.half_life_days.toFixed(1), row.halfLife);
    });
    checkBoundary(row.staleAfter, (d) => decayOf(item(row.tier, row.layer), after(d)).is_stale, label);
    checkBoundary(row.staleBefore, (d) => before(row.tier, row.layer, d).is_stale, `${label} before`);
  }
});

test('strength is the tier weight times decay; stale at strength 0.1; a use restarts the curve', () => {
  const life = decayOf(item('mtm', 'project'), after(365));
  assert.equal(life.decay, 0.5);
  assert.equal(life.strength, 0.35);
  const layerRate = Number((Math.LN2 / 365).toPrecision(6));
  assert.deepEqual([life.tier_weight, life.tier_rate, life.layer_rate], [0.7, 0.03, layerRate]);
  // stm without a layer: mem-context's episodic memory, 0.5 · e^(−0.15 d) ≤ 0.1 after ln 5 / 0.15 days.
  const boundary = Math.log(5) / 0.15;
  assert.equal(decayOf(item('stm', null), after(boundary - 0.001)).is_stale, false);
  assert.equal(decayOf(item('stm', null), after(boundary + 0.001)).is_stale, true);
  assert.equal(decayOf(item('stm', null), after(10)).decay, Number(Math.exp(-1.5).toPrecision(6)));
  assert.equal(decayOf(item('ltm', null), after(10_000)).decay, 1);
  assert.equal(decayOf(item('stm', 'run', after(20).toISOString()), after(20)).decay, 1);
  assert.equal(decayOf(item('stm', 'run', after(20).toISOString()), after(34)).decay, 0.5);
});

/** Ages from 0 to `max` days: a fine grid plus the neighbourhood of every interesting boundary. */
function ages(max: number): number[] {
  const out: number[] = [];
  for (let d = 0; d <= max; d += 0.25) out.push(d);
  for (const edge of [10.73, 32.51, 64.86, 417.9, 505.3, 847.5, 1024.7]) out.push(edge - 1e-6, edge, edge + 1e-6);
  return out.filter((d) => d <= max);
}

test('no layered item goes stale before memtool\'s half-life says so; a project item not before 847.5 days', () => {
  const memtoolProject = 365 * Math.log2(5);
  for (const tier of TIERS) {
    for (const days of ages(memtoolProject - 1e-6)) {
      assert.equal(decayOf(item(tier, 'project'), after(days)).is_stale, false, `${tier}/project at ${days} d`);
    }
    for (const layer of LAYERS) {
      for (const days of ages(1200)) {
        if (decayOf(item(tier, layer), after(days)).is_stale) {
          assert.ok(memtoolStale(layer, days), `${tier}/${layer} stale at ${days} d, before memtool says so`);
        }
      }
    }
  }
});

test('lossless: every item stale now was stale before; decay never lower; promotion never fades faster', () => {
  const layers = [null, ...LAYERS];
  for (const layer of layers) {
    for (const days of ages(1200)) {
      const lives = TIERS.map((tier) => decayOf(item(tier, layer), after(days)));
      TIERS.forEach((tier, i) => {
        const now = lives[i];
        const old = before(tier, layer, days);
        assert.ok(now !== undefined);
        assert.ok(now.decay >= Number(old.decay.toPrecision(6)), `${tier}/${layer} at ${days} d: decay ${now.decay} < ${old.decay}`);
        if (now.is_stale) assert.ok(old.is_stale, `${tier}/${layer} at ${days} d: stale now, kept before`);
      });
      // stm → mtm → ltm: strength and decay never go down.
      for (let i = 1; i < lives.length; i += 1) {
        assert.ok((lives[i]?.strength ?? 0) >= (lives[i - 1]?.strength ?? 0), `${layer} at ${days} d: promotion weakens`);
        assert.ok((lives[i]?.decay ?? 0) >= (lives[i - 1]?.decay ?? 0));
      }
    }
  }
});

test('cleanup: a project item a year old is kept; an unlayered stm note past 10.7 days is listed, not archived', async (t) => {
  let now = Date.parse(AT);
  const engram = await openEngram({ path: join(tempDir(t), 'm.db'), clock: () => new Date(now) });
  t.after(() => engram.close());
  const project = (await engram.put({ content: 'We deploy from the main branch only', layer: 'project', key: 'deploy.branch' })).item.id;
  const feature = (await engram.put({ content: 'The export keeps revisions', layer: 'feature', key: 'export.revisions' })).item.id;
  const note = (await engram.put({ content: 'A scratch note from a debugging session' })).item.id;
  now += 11 * DAY;
  const early = await engram.cleanup();
  assert.deepEqual(early.archive.map((e) => [e.id, e.reasons]), [[note, ['stale']]]);
  assert.equal((await engram.get({ id: note })).archived, false, 'a dry run archives nothing');
  now += 354 * DAY;
  const year = await engram.cleanup({ apply: true });
  assert.deepEqual(year.archive.map((e) => e.id), [note], 'the project and feature items are kept after a year');
  const live = (await engram.list()).items.map((i) => i.id).sort();
  assert.deepEqual(live, [project, feature].sort());
  const { lifecycle } = await engram.show(project);
  assert.deepEqual([lifecycle.is_stale, lifecycle.half_life_days], [false, 365]);
});

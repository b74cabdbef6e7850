/**
 * The generated injection corpus against the write policy: at least 95% of the non-exotic cases are
 * refused or quarantined; the rates per family, language, hiding place and obfuscation are reported
 * as diagnostics (and the exotic ones, reversal, measured apart).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkPolicy } from '../../src/index.js';
import { injectionCases } from './injections.js';

function rates(cases: { key: string; caught: boolean }[]): string {
  const by = new Map<string, [number, number]>();
  for (const { key, caught } of cases) {
    const r = by.get(key) ?? [0, 0];
    r[0] += caught ? 1 : 0;
    r[1]++;
    by.set(key, r);
  }
  return [...by].sort().map(([k, [c, n]]) => `${k} ${c}/${n}`).join(', ');
}

test('injection corpus: large, varied and deterministic', () => {
  const cases = injectionCases();
  assert.ok(cases.length >= 500, `${cases.length} cases`);
  const families = new Set(cases.map((c) => c.class.split('/')[0]));
  const languages = new Set(cases.map((c) => c.class.split('/')[1]));
  assert.ok(families.size >= 30, `${families.size} families`);
  assert.ok(languages.size >= 12, `${languages.size} languages`);
  assert.deepEqual(injectionCases(), cases);
});

test('injection corpus: ≥ 95% refused or quarantined (exotic wrappings measured apart)', (t) => {
  const results = injectionCases().map((c) => {
    const verdict = checkPolicy({ content: c.text }).verdict;
    return { c, caught: verdict !== 'accept' };
  });
  const held = results.filter(({ c }) => c.exotic !== true);
  const caught = held.filter((r) => r.caught).length;
  t.diagnostic(`overall ${caught}/${held.length} (${((100 * caught) / held.length).toFixed(1)}%)`);
  const exotic = results.filter(({ c }) => c.exotic === true);
  t.diagnostic(`exotic (reversed) ${exotic.filter((r) => r.caught).length}/${exotic.length}`);
  t.diagnostic(`per family: ${rates(held.map(({ c, caught: k }) => ({ key: c.class.split('/')[0] ?? '', caught: k })))}`);
  t.diagnostic(`per language: ${rates(held.map(({ c, caught: k }) => ({ key: c.class.split('/')[1] ?? '', caught: k })))}`);
  t.diagnostic(`per wrapping: ${rates(held.map(({ c, caught: k }) => ({ key: c.wrapping, caught: k })))}`);
  const missed = held.filter((r) => !r.caught).map(({ c }) => `${c.class} ${c.wrapping}: ${JSON.stringify(c.text).slice(0, 100)}`);
  for (const m of missed.slice(0, 40)) t.diagnostic(`missed ${m}`);
  assert.ok(caught / held.length >= 0.95, `${caught}/${held.length} caught`);
});

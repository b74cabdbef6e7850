/**
 * The generated secret corpus (test/adversarial/secrets.ts) through the write policy: at least
 * 99% of the cases refused by a secret rule (exotic wrappings reported, not counted), rates per
 * format and per wrapping reported, and no excerpt of any verdict showing 8 characters of a secret.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkPolicy, type PolicyVerdict } from '../../src/index.js';
import { secretCases } from './secrets.js';

const cases = secretCases();
const verdicts = cases.map((c) => checkPolicy({ content: c.text }, { ignoreSize: true }));

/** Refused by a secret rule (not only by size or another group). */
const refused = (v: PolicyVerdict) => v.verdict === 'reject' && v.matches.some((m) => m.group === 'secret');

function rates(key: (i: number) => string): Map<string, { total: number; refused: number }> {
  const out = new Map<string, { total: number; refused: number }>();
  cases.forEach((_, i) => {
    const rate = out.get(key(i)) ?? { total: 0, refused: 0 };
    rate.total++;
    if (refused(verdicts[i] as PolicyVerdict)) rate.refused++;
    out.set(key(i), rate);
  });
  return out;
}

test('secret corpus: at least 80 formats in at least 22 wrappings', () => {
  assert.ok(new Set(cases.map((c) => c.class)).size >= 80);
  assert.ok(new Set(cases.filter((c) => !c.exotic).map((c) => c.wrapping)).size >= 22);
  for (const c of cases) assert.ok((c.secret ?? '').length >= 8, `${c.class}: secret too short to check`);
});

test('secret corpus: at least 99% of the non-exotic cases refused (rates per format and wrapping)', (t) => {
  for (const [name, rate] of rates((i) => cases[i]?.class ?? '')) {
    if (rate.refused < rate.total) t.diagnostic(`format ${name}: ${rate.refused}/${rate.total}`);
  }
  for (const [name, rate] of rates((i) => cases[i]?.wrapping ?? '')) t.diagnostic(`wrapping ${name}: ${rate.refused}/${rate.total}`);
  const plain = cases.map((c, i) => ({ c, v: verdicts[i] as PolicyVerdict })).filter(({ c }) => !c.exotic);
  const misses = plain.filter(({ v }) => !refused(v));
  t.diagnostic(`non-exotic refused: ${plain.length - misses.length}/${plain.length}`);
  for (const { c } of misses.slice(0, 40)) t.diagnostic(`missed: ${c.class} / ${c.wrapping}`);
  assert.ok((plain.length - misses.length) / plain.length >= 0.99, `${misses.length} of ${plain.length} missed`);
});

test('secret corpus: no excerpt shows 8 characters of a secret', () => {
  const shown: string[] = [];
  cases.forEach((c, i) => {
    const text = (verdicts[i] as PolicyVerdict).matches.map((m) => m.excerpt).join('\n');
    const secret = c.secret ?? '';
    for (let at = 0; at + 8 <= secret.length; at++) {
      if (text.includes(secret.slice(at, at + 8))) {
        shown.push(`${c.class} / ${c.wrapping}: ${secret.slice(at, at + 8)}`);
        break;
      }
    }
  });
  assert.deepEqual(shown, []);
});

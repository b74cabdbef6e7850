/**
 * The benign look-alikes: a corpus large and varied enough to measure precision on (≥ 200 notes,
 * ≥ 10 per class, no duplicates, nothing left of the source-file escaping), and the goal itself:
 * the policy accepts every one of them — no refusal, no quarantine.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkPolicy } from '../../src/index.js';
import { benignCases } from './benign.js';

test('the benign corpus is large, varied and deterministic', () => {
  const cases = benignCases();
  assert.ok(cases.length >= 200, `${cases.length} cases`);
  assert.ok(cases.every((c) => c.kind === 'benign' && c.text.trim() !== '' && !c.text.includes('§')));
  assert.equal(new Set(cases.map((c) => c.text)).size, cases.length, 'no duplicate note');
  const perClass = new Map<string, number>();
  for (const c of cases) perClass.set(c.class, (perClass.get(c.class) ?? 0) + 1);
  assert.ok(perClass.size >= 15, `${perClass.size} classes`);
  for (const [cls, n] of perClass) assert.ok(n >= 10, `${cls}: ${n} cases`);
  assert.deepEqual(benignCases(), cases, 'the same corpus on every run');
});

test('the policy accepts every benign look-alike', () => {
  const flagged = benignCases()
    .map((c) => ({ c, verdict: checkPolicy({ content: c.text }) }))
    .filter(({ verdict }) => verdict.verdict !== 'accept')
    .map(({ c, verdict }) => `${c.class}/${c.wrapping} ${verdict.verdict} (${verdict.matches.map((m) => m.rule).join(', ')}): ${c.text.slice(0, 80)}`);
  assert.deepEqual(flagged, [], `${flagged.length} benign notes flagged:\n${flagged.join('\n')}`);
});

/**
 * The screen's shortest literals (src/policy/screen.ts): a literal of one or two code units whose
 * upper case is ASCII though it is not (`ı` looked for as `I`, `ſ` as `S`) is looked for in every
 * text, so that a rule made of it is admitted wherever its pattern matches. (The policy's own rules
 * have no such literal today; a screener made for other rules must hold the same promise.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PatternRule } from '../src/policy/rules.js';
import { createScreener } from '../src/policy/screen.js';

/** Characters whose upper case differs in length or leaves ASCII behind, and a few that stay wide. */
const CHARACTERS = ['ı', 'ſ', 'ß', 'ﬀ', 'ŉ', 'ǰ', 'İ', 'K', 'µ', 'ǅ', 'é', 'и', '密'];

function rule(id: string, pattern: RegExp, kind: PatternRule['kind']): PatternRule {
  return { id, group: 'secret', action: 'reject', description: id, kind, patterns: [pattern] };
}

test('a rule whose short literal upper-cases to ASCII is admitted wherever its pattern matches', () => {
  const rules = CHARACTERS.flatMap((c, i) => [
    rule(`one-${i}`, new RegExp(c), 'token'),
    rule(`two-${i}`, new RegExp(`x${c}`), 'token'),
    rule(`phrase-${i}`, new RegExp(c), 'phrase'),
  ]);
  const screen = createScreener(rules);
  let matched = 0;
  for (const c of CHARACTERS) {
    for (const text of [c, `a ${c} b`, `x${c}`, `X${c}Y`, `${c}${c}`, `note: ${c}\n`]) {
      for (const kind of ['token', 'phrase'] as const) {
        const s = screen(text, kind);
        for (const r of rules.filter((each) => each.kind === kind)) {
          if (!r.patterns.some((p) => p.test(text))) continue;
          matched++;
          assert.ok(s === undefined || s.admits(r), `${r.id} (${String(r.patterns[0])}) must be admitted for ${JSON.stringify(text)}`);
        }
      }
    }
  }
  assert.ok(matched > CHARACTERS.length * 4, `the patterns matched ${matched} times`);
});

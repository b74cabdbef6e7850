/**
 * `evaluatePolicy(…, { groups })` runs only some groups' rules: their matches and excerpts are
 * exactly those of a full evaluation, and `redactSecrets` (a recorded query, which reads only the
 * secret group) masks every text as it did with the full evaluation, with the secret rules alone
 * (secret-check.ts, secret-spans.ts) — over the fixture corpora and the generated adversarial
 * corpus (secrets, injections, benign look-alikes).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluatePolicy, type PolicyMatch, type PolicyOptions } from '../src/policy/evaluate.js';
import { PATTERN_RULES } from '../src/policy/rules.js';
import { SECRET_PATTERN_RULES } from '../src/policy/secret-check.js';
import { findsSecret, maskSecretSpans, REDACTED, redactSecrets } from '../src/policy/secret-spans.js';
import { policyTexts } from './adversarial/texts.js';

const texts = policyTexts;

/** redactSecrets as it was written before the secret-only evaluation: the full privileged verdict. */
function redactWithFullPolicy(text: string): string {
  const out = maskSecretSpans(text);
  const left = evaluatePolicy({ content: out }, { ignoreSize: true, privileged: true });
  return left.matches.some((m) => m.group === 'secret') ? REDACTED : out;
}

test('a group-limited evaluation reports exactly the full evaluation\'s matches of those groups', () => {
  const all = texts();
  assert.ok(all.length > 1000, `${all.length} texts`);
  const differ: string[] = [];
  let secrets = 0;
  const variants: PolicyOptions[] = [{ ignoreSize: true, privileged: true }, {}];
  for (const text of all) {
    for (const options of variants) {
      for (const groups of [['secret'], ['secret', 'pii'], ['injection']] as const) {
        // The size, hidden-character and provenance checks run as usual: compare the groups' matches.
        const of = (matches: PolicyMatch[]) => matches.filter((m) => (groups as readonly string[]).includes(m.group));
        const full = of(evaluatePolicy({ content: text }, options).matches);
        const only = of(evaluatePolicy({ content: text }, { ...options, groups }).matches);
        if (groups.length === 1 && groups[0] === 'secret') secrets += full.length;
        if (JSON.stringify(only) !== JSON.stringify(full)) differ.push(`${groups.join('+')} ${JSON.stringify(text.slice(0, 60))}`);
      }
    }
  }
  assert.ok(secrets > 200, `${secrets} secret matches compared`);
  assert.deepEqual(differ, []);
});

test('redactSecrets masks every text as with the full privileged evaluation', () => {
  const all = texts();
  let masked = 0;
  const differ: string[] = [];
  for (const text of all) {
    for (const query of [text, `how do we deploy ${text} today`]) {
      const expected = redactWithFullPolicy(query);
      const actual = redactSecrets(query);
      if (actual !== query) masked++;
      if (actual !== expected) differ.push(`${JSON.stringify(query.slice(0, 60))}: ${JSON.stringify(actual.slice(0, 60))}`);
    }
  }
  assert.ok(masked > 200, `${masked} texts masked`);
  assert.deepEqual(differ, []);
});

test('the secret rules alone are the full rule list\'s secret group, the same rules in the same order, first', () => {
  const secret = PATTERN_RULES.filter((rule) => rule.group === 'secret');
  assert.ok(secret.length > 50, `${secret.length} secret rules`);
  assert.equal(SECRET_PATTERN_RULES.length, secret.length);
  SECRET_PATTERN_RULES.forEach((rule, i) => assert.equal(rule, PATTERN_RULES[i], rule.id));
});

test('findsSecret answers as the full privileged evaluation\'s secret group, on every text', () => {
  let found = 0;
  const differ: string[] = [];
  for (const text of texts()) {
    for (const query of [text, `how do we deploy ${text} today`, text.split('').reverse().join('')]) {
      const full = evaluatePolicy({ content: query }, { ignoreSize: true, privileged: true });
      const expected = full.matches.some((m) => m.group === 'secret');
      if (expected) found++;
      if (findsSecret(query) !== expected) differ.push(`${expected} ${JSON.stringify(query.slice(0, 60))}`);
    }
  }
  assert.ok(found > 300, `${found} texts with a secret`);
  assert.deepEqual(differ, []);
});

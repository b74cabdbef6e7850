import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lazyRule } from './lazy-rule.js';
import { PATTERN_RULES } from './rules.js';

const base = { id: 'pii.test', group: 'pii', action: 'quarantine', kind: 'token', description: 'test' } as const;

test('a lazy rule makes its expressions on the first read of patterns and needs, once', () => {
  let made = 0;
  let tested = 0;
  const rule = lazyRule({
    ...base,
    patterns: () => {
      made++;
      return [/x+/g];
    },
    needs: () => {
      tested++;
      return /x/;
    },
  });
  assert.equal(made, 0);
  assert.equal(tested, 0);
  const first = rule.patterns;
  assert.equal(made, 1);
  assert.equal(rule.patterns, first);
  assert.equal(made, 1);
  assert.deepEqual(first.map(String), ['/x+/g']);
  assert.equal(String(rule.needs), '/x/');
  assert.equal(rule.needs, rule.needs);
  assert.equal(tested, 1);
  // It reads as a plain rule: its own fields, patterns and needs enumerable.
  assert.deepEqual(Object.keys(rule).sort(), ['action', 'description', 'group', 'id', 'kind', 'needs', 'patterns']);
});

test('a lazy rule without needs has none', () => {
  const rule = lazyRule({ ...base, patterns: () => [/y/g] });
  assert.equal(rule.needs, undefined);
  assert.equal('needs' in rule, false);
});

test('every policy rule with expressions makes them on first read, not when the rules load', () => {
  const eager = PATTERN_RULES.filter((rule) => rule.scan === undefined
    && Object.getOwnPropertyDescriptor(rule, 'patterns')?.get === undefined);
  assert.deepEqual(eager.map((rule) => rule.id), []);
  const eagerNeeds = PATTERN_RULES.filter((rule) => {
    const own = Object.getOwnPropertyDescriptor(rule, 'needs');
    return own !== undefined && own.get === undefined;
  });
  assert.deepEqual(eagerNeeds.map((rule) => rule.id), []);
  assert.ok(PATTERN_RULES.filter((rule) => rule.scan === undefined).length > 40);
});

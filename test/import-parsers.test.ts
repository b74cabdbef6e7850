/** The importers' pure parsers: front matter, basic-memory's semantic lines, foreign timestamps. */
import assert from 'node:assert/strict';
import test from 'node:test';
import { noteSemantics } from '../src/importers/sources/basic-memory-note.js';
import { readFrontMatter } from '../src/importers/sources/front-matter.js';
import { toStringList, toTimestamp } from '../src/importers/source-values.js';

test('front matter: scalars, quotes, comments, lists in both forms, block scalars; what it cannot read is listed', () => {
  const text = [
    '\uFEFF---',
    'title: "Design: v2 \\"final\\""',
    'alias: \'it\'\'s\'',
    'status: active # reviewed',
    '# a comment line',
    '',
    'tags: [alpha, "beta, gamma", \'delta\']',
    'owners:',
    '  - ana',
    '  - "bo b"',
    'summary: |',
    '  line one',
    '  line two',
    'folded: >',
    '  one',
    '  two',
    'empty:',
    'nested:',
    '  key: value',
    'anchor: &a x',
    'broken list: [a, b',
    'not a key line',
    '---',
    '# Body',
    '',
  ].join('\r\n');
  const { fields, body, problems } = readFrontMatter(text);
  assert.deepEqual(fields, {
    title: 'Design: v2 "final"',
    alias: 'it\'s',
    status: 'active',
    tags: ['alpha', 'beta, gamma', 'delta'],
    owners: ['ana', 'bo b'],
    summary: 'line one\nline two',
    folded: 'one two',
    empty: null,
    nested: null,
  });
  assert.equal(body, '# Body\n');
  assert.deepEqual(problems.map((p) => p.line), [19, 20, 21, 22]);
});

test('front matter: none, or one that never closes, leaves the text as the body', () => {
  assert.deepEqual(readFrontMatter('# Just a note\n'), { fields: {}, body: '# Just a note\n', problems: [] });
  const open = readFrontMatter('---\ntitle: x\n# no end');
  assert.deepEqual(open.fields, {});
  assert.equal(open.body, '---\ntitle: x\n# no end');
  assert.deepEqual(open.problems, [{ line: 1, reason: 'front matter without a closing ---' }]);
});

test('basic-memory lines: observations with tags and context, relations, inline links; tasks and fenced code are not', () => {
  const body = [
    '# Coffee',
    'See [[Tea|green tea]] and [[Tea]].',
    '- [method] Pour over gives clarity #brewing #Taste/Notes (personal experience)',
    '* [fact] Water at 96 °C',
    '- [ ] buy filters',
    '- [x] grind beans',
    '```',
    '- [fake] not an observation [[Nope]]',
    '```',
    '- relates_to [[Coffee Bean Origins]] (origin story)',
    '- part of [[Kitchen]]',
    '- text with a #hash-tag but no category',
  ].join('\n');
  const { observations, relations } = noteSemantics(body);
  assert.deepEqual(observations, [
    { category: 'method', text: 'Pour over gives clarity #brewing #Taste/Notes', tags: ['brewing', 'Taste/Notes'], context: 'personal experience' },
    { category: 'fact', text: 'Water at 96 °C', tags: [] },
  ]);
  assert.deepEqual(relations, [
    { type: 'relates_to', target: 'Coffee Bean Origins', context: 'origin story' },
    { type: 'part of', target: 'Kitchen' },
    { type: 'links_to', target: 'Tea' },
  ]);
});

test('foreign timestamps: RFC 3339, naive ISO as UTC, epoch seconds and milliseconds, dates; anything else undefined', () => {
  assert.equal(toTimestamp('2025-01-02T03:04:05+02:00'), '2025-01-02T01:04:05.000Z');
  assert.equal(toTimestamp('2025-01-02T03:04:05.123456'), '2025-01-02T03:04:05.123Z');
  assert.equal(toTimestamp('2025-01-02 03:04:05'), '2025-01-02T03:04:05.000Z');
  assert.equal(toTimestamp(1735787045), '2025-01-02T03:04:05.000Z');
  assert.equal(toTimestamp(1735787045123), '2025-01-02T03:04:05.123Z');
  assert.equal(toTimestamp('1735787045'), '2025-01-02T03:04:05.000Z');
  assert.equal(toTimestamp('2025-01-02'), '2025-01-02T00:00:00.000Z');
  for (const bad of ['yesterday', '2025-13-01', '', -5, Number.NaN, null, {}, '2025-02-30T00:00:00Z']) {
    assert.equal(toTimestamp(bad), undefined, String(bad));
  }
  assert.deepEqual(toStringList('["a","b"]'), ['a', 'b']);
  assert.deepEqual(toStringList('a, b ,,c'), ['a', 'b', 'c']);
  assert.equal(toStringList([1, 2]), undefined);
  assert.equal(toStringList('[broken'), undefined);
});

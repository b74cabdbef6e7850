/**
 * The policy's screen (src/policy/screen.ts) only skips rules that could not have matched: every
 * verdict, match and excerpt is the same with and without it, over the fixture corpora, the
 * generated adversarial corpus (secrets, injections, benign look-alikes, each case also inside a
 * chunk-sized note with ingest's metadata) and whole files of this repository. And the literal
 * reading of a pattern (src/policy/literals.ts) is checked on its own, against hostile syntax.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { evaluatePolicy, type PolicySubject } from '../src/policy/evaluate.js';
import { requiredLiterals } from '../src/policy/literals.js';
import { PATTERN_RULES, type PatternRule } from '../src/policy/rules.js';
import { createScreener, setScreening } from '../src/policy/screen.js';
import { type PackedKindData, packScreenData, screenData } from '../src/policy/screen-data.js';
import { secretSpans } from '../src/policy/secret-spans.js';
import { benignCases } from './adversarial/benign.js';
import { secretCases } from './adversarial/secrets.js';
import { seededRandom } from './helpers.js';
import { policyTexts } from './adversarial/texts.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The verdict of `subject` screened (`always`) and not (`never`). */
function both<T>(run: () => T): [T, T] {
  try {
    setScreening('always');
    const screened = run();
    setScreening('never');
    return [screened, run()];
  } finally {
    setScreening('always');
  }
}

const texts = policyTexts;

/** A case as ingest judges it: inside prose, with a title, a source and chunk provenance. */
function asChunk(text: string, i: number): PolicySubject {
  const prose = 'The deploy notes list every cache, queue and release step for the team. ';
  return {
    content: `${prose.repeat(3)}\n\n${text}\n\n${prose.repeat(2)}`,
    title: `notes-${i}.md (2/3)`,
    source: `docs/runbooks/notes-${i}.md`,
    provenance: { source_path: `docs/runbooks/notes-${i}.md`, line_start: 10, line_end: 40, file_sha256: 'ab'.repeat(32), chunk_index: 2 },
  };
}

test('screening never changes a verdict: fixture and generated corpora, alone and as chunks', () => {
  const all = texts();
  assert.ok(all.length > 1000, `${all.length} texts`);
  const differ: string[] = [];
  for (const [i, text] of all.entries()) {
    for (const subject of [{ content: text }, asChunk(text, i)]) {
      const [screened, full] = both(() => evaluatePolicy(subject));
      if (JSON.stringify(screened) !== JSON.stringify(full)) {
        differ.push(`${JSON.stringify(text.slice(0, 60))}: ${JSON.stringify(screened.matches)} vs ${JSON.stringify(full.matches)}`);
      }
    }
    const [screenedWhole, fullWhole] = both(() => evaluatePolicy({ content: text }, { ignoreSize: true }));
    if (JSON.stringify(screenedWhole) !== JSON.stringify(fullWhole)) differ.push(`whole ${JSON.stringify(text.slice(0, 60))}`);
  }
  assert.deepEqual(differ, []);
});

test('screening never changes the secret spans of a long text (ingest reads them before chunking)', () => {
  const cases = [...secretCases(), ...benignCases()].map((c) => c.text);
  const long = cases.join('\n\n');
  const [screened, full] = both(() => secretSpans(long));
  assert.ok(full.length > 50, `${full.length} spans`);
  assert.deepEqual(screened, full);
});

test('screening never changes the verdict on this repository\'s own files', () => {
  const files = ['README.md', 'src/policy/rules.ts', 'src/policy/injection-lexicon.ts', 'docs/architecture.md', 'test/policy.test.ts'];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const [screened, full] = both(() => evaluatePolicy({ content: text }, { ignoreSize: true }));
    assert.deepEqual(screened, full, file);
  }
});

test('required literals: every match of a pattern holds one of them (hostile syntax)', () => {
  const cases: [RegExp, string[]][] = [
    [/abc/g, ['abcd', 'xabc']],
    [/a(?:b|)c/g, ['ac', 'abc']],
    [/(?:foo|bar)?baz/g, ['baz', 'foobaz']],
    [/x[._-]y/g, ['x.y', 'x-y', 'x_y']],
    [/\bkey\s*=\s*\w+/gi, ['KEY = v', 'key=v', 'Key=1']],
    [/(?<=pre)fix/g, ['prefix']],
    [/(?<!no)go/g, ['go', 'ergo']],
    [/(a)\1b/g, ['aab']],
    [/[^a]bc/g, ['xbc']],
    [/a{2,3}b/g, ['aab', 'aaab']],
    [/a{0,3}b/g, ['b', 'ab']],
    [/\x41\u0042\n/g, ['AB\n']],
    [/σοφία/gi, ['ΣΟΦΊΑ', 'σοφία', 'ςοφία']],
    [/k/giu, ['\u212A']],
    [/\p{L}+x/gu, ['éx']],
    [/tok(?:en)?s?/gi, ['TOK', 'tokens']],
    [/[\]]x/g, [']x']],
    [/a.b/gs, ['a\nb']],
    [/(?<name>ab)c/g, ['abc']],
    [/😀?z/g, ['😀z', '\uD83Dz']],
    [/\d{3}-\d{4}/g, ['555-1234']],
  ];
  for (const [pattern, matching] of cases) {
    const literals = requiredLiterals(pattern);
    for (const text of matching) {
      pattern.lastIndex = 0;
      assert.ok(pattern.test(text), `${pattern} matches ${text}`);
      if (literals === undefined) continue;
      const seen = literals.fold === 'upper' ? text.toUpperCase() : text;
      assert.ok(literals.strings.some((s) => seen.includes(s)), `${pattern}: ${JSON.stringify(literals)} in ${JSON.stringify(text)}`);
    }
  }
  assert.equal(requiredLiterals(/k/giu), undefined, 'Unicode case folding is not modelled');
  assert.equal(requiredLiterals(/.*/g), undefined);
  assert.deepEqual(requiredLiterals(/(?:ab|cd)ef/g)?.strings.sort(), ['abef', 'cdef']);
});

test('required literals: every rule pattern reads to literals its own matches in the corpora hold', () => {
  const all = texts();
  let checked = 0;
  for (const rule of PATTERN_RULES) {
    for (const pattern of rule.patterns) {
      const literals = requiredLiterals(pattern);
      if (literals === undefined) continue;
      for (const raw of all) {
        for (const text of [raw, raw.toLowerCase()]) {
          pattern.lastIndex = 0;
          if (!pattern.test(text)) continue;
          checked++;
          const seen = literals.fold === 'upper' ? text.toUpperCase() : text;
          assert.ok(literals.strings.some((s) => seen.includes(s)), `${rule.id} ${pattern.source.slice(0, 60)} on ${JSON.stringify(text.slice(0, 80))}`);
        }
      }
    }
  }
  assert.ok(checked > 300, `${checked} matches checked`);
});

test('the screen admits every rule whose literal occurs, when literals share their first three code units', () => {
  // Literals of three to seven code units over four letters, so that many share a bucket and a
  // bucket often holds literals of three and of more; some case-sensitive, in lower case.
  const next = seededRandom(21);
  const word = (length: number) => Array.from({ length }, () => 'abcd'[Math.floor(next() * 4)]).join('');
  const rules: PatternRule[] = Array.from({ length: 120 }, (_, i) => {
    const literal = word(3 + Math.floor(next() * 5));
    return {
      id: `literal-${i}`,
      group: 'secret',
      action: 'reject',
      description: literal,
      kind: i % 2 === 0 ? 'token' : 'phrase',
      patterns: [new RegExp(literal, i % 3 === 0 ? '' : 'i')],
    };
  });
  const data = screenData(rules);
  // Packed buckets as the generated modules hold them (functions), and as plain strings.
  const packed = packScreenData(data);
  const strings = (kind: PackedKindData): PackedKindData => ({
    short: kind.short,
    buckets: kind.buckets.map(([h3, bucket]) => [h3, typeof bucket === 'string' ? bucket : bucket()]),
  });
  const asStrings = { ...packed, token: strings(packed.token), phrase: strings(packed.phrase) };
  for (const screen of [createScreener(rules), createScreener(rules, packed), createScreener(rules, asStrings)]) {
    let matched = 0;
    let skipped = 0;
    for (let t = 0; t < 2_000; t++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 30) }, () => 'abcdABCD x'[Math.floor(next() * 10)]).join('');
      for (const kind of ['token', 'phrase'] as const) {
        const s = screen(text, kind);
        for (const rule of rules.filter((r) => r.kind === kind)) {
          const admitted = s === undefined || s.admits(rule);
          if (rule.patterns.some((p) => p.test(text))) {
            matched++;
            assert.ok(admitted, `${rule.id} (${String(rule.patterns[0])}) must be admitted for ${JSON.stringify(text)}`);
          } else if (!admitted) skipped++;
        }
      }
    }
    assert.ok(matched > 2_000 && skipped > 100_000, `${matched} matches, ${skipped} rules skipped`);
  }
});

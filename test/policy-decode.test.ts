/**
 * The policy's views against the expressions they stand for: `base64Runs` against the run
 * expression it replaced, `unsplit` against its glue expression with the look back first (the
 * order it had), the leetspeak views against a replace per reading of `1` and against the cue
 * expression alone (without the cheaper test that now runs first), and the phrase folding against
 * a replace of every whitespace run, on random texts built from the characters each one reads.
 */
import assert from 'node:assert/strict';
import test from 'node:test';
import { base64Runs, unsplit } from '../src/policy/decode.js';
import { deobfuscatedViews, LEET_PAIR } from '../src/policy/deobfuscate.js';
import { foldPhrases } from '../src/policy/normalize.js';
import { PATTERN_RULES } from '../src/policy/rules.js';
import { seededRandom } from './helpers.js';

function texts(alphabet: readonly string[], count: number, seed: number): string[] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() * 90);
    let text = '';
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)] ?? '';
    return text;
  });
}

/**
 * Up to `words` words of two characters or more (up to `longer` more) from `letters`, each followed
 * by one of `separators`: no run of spaced single letters, which would be joined first.
 */
interface WordShape {
  letters: string;
  words: number;
  longer: number;
  separators: string;
}

function wordText(next: () => number, shape: WordShape): string {
  const pick = (from: string) => from[Math.floor(next() * from.length)] ?? '';
  const words = Array.from({ length: 1 + Math.floor(next() * shape.words) }, () =>
    Array.from({ length: 2 + Math.floor(next() * shape.longer) }, () => pick(shape.letters)).join(''));
  return words.map((w) => `${w}${pick(shape.separators)}`).join('');
}

test('base64Runs gives the matches of the base64 run expression', () => {
  const expression = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}/g;
  // Mostly run characters, so that runs of 16 and more are common; '=', blanks and others between.
  const alphabet = [...'aZ09+/_-aZ09+/_-aZ09+/_-', '=', '=', ' ', '\n', '.', 'é', '😀', '\\'];
  let runs = 0;
  for (const text of texts(alphabet, 20_000, 1)) {
    const expected = [...text.matchAll(expression)].map((m) => [m.index, m[0]]);
    assert.deepEqual(base64Runs(text).map((m) => [m.index, m[0]]), expected, JSON.stringify(text));
    runs += expected.length;
  }
  assert.ok(runs > 1_000, `the texts held ${runs} runs`);
  // Words of 1 to 30 run characters between others, as in prose and code: runs of 14 to 18 often.
  const next = seededRandom(2);
  const pick = (from: string) => from[Math.floor(next() * from.length)] ?? '';
  let near = 0;
  for (let t = 0; t < 5_000; t++) {
    let text = '';
    while (text.length < 400 * next()) {
      text += Array.from({ length: 1 + Math.floor(next() * 30) }, () => pick('aZ09+/_-')).join('');
      text += Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(' =.\n"é')).join('');
    }
    const expected = [...text.matchAll(expression)].map((m) => [m.index, m[0]]);
    assert.deepEqual(base64Runs(text).map((m) => [m.index, m[0]]), expected, JSON.stringify(text));
    near += expected.filter(([, run]) => String(run).replace(/=+$/, '').length <= 17).length;
  }
  assert.ok(near > 1_000, `${near} runs of 16 or 17`);
});

test('unsplit removes what the glue expression with the look back first matches', () => {
  const before = new RegExp(
    [
      '(?<=[^\\s"\'`])["\'`][ \\t]*(?:\\+|\\.|&|\\|\\||\\\\)?[ \\t]*'
      + '(?:\\r?\\n[ \\t]*(?:>[ \\t]?)*[ \\t]*(?:\\+|\\.|&|\\|\\|)?[ \\t]*)?\\(?["\'`](?=[^\\s"\'`])',
      '[ \\t]*\\\\?[ \\t]*(?:\\r\\n|\\r|\\n)[ \\t]*(?:>[ \\t]?)*[ \\t]*',
    ].join('|'),
    'g',
  );
  const alphabet = [...'ab"\'`"\'` \t\r\n\n>+.&|\\(', '||', '\r\n'];
  let joined = 0;
  for (const text of texts(alphabet, 20_000, 2)) {
    const expected = text.replace(before, '');
    const view = unsplit({ text, label: '' });
    assert.equal(view?.text ?? text, expected, JSON.stringify(text));
    if (view !== undefined) joined++;
  }
  assert.ok(joined > 10_000, `${joined} texts were joined`);
});

test('the leetspeak views are the text with each leet word read with 1 as i, then as l', () => {
  const leetWord = /(?<![\p{L}\p{N}])(?=[a-zA-Z013457@$]*[a-zA-Z])(?=[a-zA-Z013457@$]*[013457@$])[a-zA-Z013457@$]{2,24}(?![\p{L}\p{N}])/gu;
  const letters: Readonly<Record<string, string>> = { '0': 'o', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's' };
  const read = (text: string, one: string) =>
    text.replace(leetWord, (word) => [...word].map((ch) => (ch === '1' ? one : letters[ch] ?? ch)).join(''));
  // Words of two characters or more (no spaced single letters), no entity, emphasis or tag character.
  const next = seededRandom(3);
  let seen = 0;
  for (let i = 0; i < 5_000; i++) {
    const text = wordText(next, { letters: 'abcxyz013457@$1é', words: 8, longer: 7, separators: ' \n.,' });
    const views = deobfuscatedViews(text).filter((v) => v.label.includes('leetspeak')).map((v) => v.text);
    if (views.length === 0) continue;
    const [withI, withL] = [read(text, 'i'), read(text, 'l')];
    assert.deepEqual(views, withL === withI ? [withI] : [withI, withL], JSON.stringify(text));
    seen++;
  }
  assert.ok(seen > 2_000, `${seen} texts had leetspeak views`);
});

test('a leetspeak view is made exactly when the cue expression matches', () => {
  const cue = /(?<![\p{L}\p{N}])(?=[a-zA-Z013457@$]*[a-zA-Z])(?=[a-zA-Z013457@$]*[013457@$])[a-zA-Z013457@$]{3,24}(?![\p{L}\p{N}])/u;
  // Words of two characters or more, so that no run of spaced letters is joined first.
  const next = seededRandom(4);
  let cued = 0;
  for (let i = 0; i < 20_000; i++) {
    const text = wordText(next, { letters: 'aZ013457@$2689éжK_', words: 6, longer: 6, separators: ' \n.,:' });
    const made = deobfuscatedViews(text).some((v) => v.label.includes('leetspeak'));
    assert.equal(made, cue.test(text), JSON.stringify(text));
    if (made) cued++;
  }
  assert.ok(cued > 5_000 && cued < 15_000, `${cued} texts were cued`);
});

test('the cheap tests written from their rarer side answer as the expressions they replaced', () => {
  const manager = PATTERN_RULES.find((rule) => rule.id === 'secret.secret-manager')?.needs;
  assert.ok(manager !== undefined);
  const replaced: [RegExp, RegExp, string[]][] = [
    [LEET_PAIR, /[a-zA-Z][013457@$]|[013457@$][a-zA-Z]/, ['aZ', '013457@$', '2_é ']],
    [manager, /hv[sbr]\.|\bs\.|dp\.|ops_|A3-|\bst\./, ['hvsbrdpot', '...', '_A3-', ' xé', 'S']],
  ];
  for (const [now, before, parts] of replaced) {
    let matched = 0;
    for (const text of texts(parts.flatMap((part) => [...part]), 20_000, 5)) {
      assert.equal(now.test(text), before.test(text), `${String(now)} on ${JSON.stringify(text)}`);
      if (before.test(text)) matched++;
    }
    assert.ok(matched > 1_000 && matched < 19_000, `${String(before)} matched ${matched} of 20,000 texts`);
  }
});

test('phrase folding makes every whitespace run one space, as a replace of each run does', () => {
  const fold = (text: string) => {
    const plain = /[\u0080-\uFFFF]/.test(text)
      ? text.normalize('NFD').replace(/\p{Mn}+/gu, '').replace(/[\u2018\u2019\u02BC]/g, '\'')
      : text;
    return plain.replace(/\s+/g, ' ');
  };
  const alphabet = [...'ab ab  \t\n\r\v\f', '\r\n', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u200b', 'é', '’'];
  let changed = 0;
  for (const text of texts(alphabet, 20_000, 5)) {
    const folded = foldPhrases(text);
    assert.equal(folded, fold(text), JSON.stringify(text));
    if (folded !== text) changed++;
  }
  assert.ok(changed > 15_000, `${changed} texts were folded`);
});

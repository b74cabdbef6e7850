/**
 * Expressions with Unicode property escapes are made on first use, and for a text all ASCII their
 * ASCII twin runs instead (src/util/unicode-pattern.ts). The twin must match exactly what the full
 * expression matches in any ASCII text: each property's ASCII members are checked over all 128
 * characters, and every pattern of the modules that use them against its twin over random texts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
// The modules whose patterns are compared (each registers its patterns as it loads).
import '../src/lifecycle/lossless.js';
import '../src/lifecycle/similar.js';
import '../src/policy/deobfuscate.js';
import '../src/policy/normalize.js';
import '../src/recall/escape-block.js';
import '../src/recall/provenance-line.js';
import '../src/search/fts-query.js';
import '../src/search/segment.js';
import { ASCII_MEMBERS, asciiSource, isAscii, UNICODE_PATTERNS, unicodePattern } from '../src/util/unicode-pattern.js';

const ASCII = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));

test('each property\'s ASCII members are exactly the ASCII characters it holds', () => {
  for (const [name, members] of Object.entries(ASCII_MEMBERS)) {
    const property = new RegExp(`^\\p{${name}}$`, 'u');
    const twin = new RegExp(`^[${members}]$`, 'u');
    for (const c of ASCII) assert.equal(twin.test(c), property.test(c), `\\p{${name}} and U+${c.charCodeAt(0).toString(16)}`);
  }
});

test('an ASCII twin writes properties as their members, in a class or as one, and leaves escapes alone', () => {
  assert.equal(asciiSource('[\\p{L}\\p{N}_]+'), '[A-Za-z0-9_]+');
  assert.equal(asciiSource('\\p{Lu}x\\p{Script=Han}'), '[A-Z]x[]');
  assert.equal(asciiSource('[^\\s\\p{Cf}]'), '[^\\s]');
  assert.equal(asciiSource('\\\\p{L}\\[\\p{Nd}\\]'), '\\\\p{L}\\[[0-9]\\]');
  assert.equal(asciiSource('[\\]\\p{Pd}]\\p{Pd}'), '[\\]\\-][\\-]');
  assert.throws(() => asciiSource('\\P{L}'), /not supported/);
  assert.throws(() => asciiSource('\\p{Greek}'), /no ASCII members/);
  assert.throws(() => unicodePattern('[\\p{Greek}]', 'u'), /no ASCII members/, 'when the pattern is made, not at its first text');
});

test('a pattern is its full expression for a text outside ASCII and its twin for an ASCII one', () => {
  const word = unicodePattern('[\\p{L}\\p{N}]+', 'gu');
  assert.equal(word('plain text').source, '[A-Za-z0-9]+');
  assert.equal(word('déjà vu').source, '[\\p{L}\\p{N}]+');
  assert.equal(word('again'), word('other'), 'one object per kind of text');
  assert.equal(word.of(true), word('plain'), 'a caller that read its text already says which');
  assert.equal(word.of(false), word('déjà'));
  assert.equal(isAscii('plain \x7f'), true);
  assert.equal(isAscii('plain \u0080'), false);
  assert.deepEqual('déjà vu 42'.match(word('déjà vu 42')), ['déjà', 'vu', '42']);
});

/** A seeded generator of ASCII texts, rich in what the patterns look for. */
function asciiTexts(count: number): string[] {
  let seed = 0x2545f491;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const pieces = ['item', ' e.g.', 'Dr.', 'v12.', 'i g n o r e', 'a.b.c.d', 'p4ssw0rd', 'h3ll0', '**', '~~', 'ig**no**re',
    '--', '-- item', '\u2014', 'aB', 'fooBar', 'a::b', '$x', '5432', '1.2.3', '2026-03-01', 'https://x.io/a', 'src/a.ts',
    ' / ', '  ', '|', '.', '!', '?', '\n', '\t', '\r\n', '\u0000', '\u001f', '\u007f', 'I', 'A', 'z', '0', '7', '@'];
  const texts: string[] = [];
  for (let t = 0; t < count; t++) {
    let text = '';
    const length = Math.floor(next() * 24);
    for (let i = 0; i < length; i++) {
      const r = next();
      text += r < 0.45 ? pieces[Math.floor(next() * pieces.length)] : r < 0.75 ? ' ' : ASCII[Math.floor(next() * 128)];
    }
    texts.push(text.replace(/\u2014/g, '-'));
  }
  return texts;
}

test('every pattern matches exactly as its ASCII twin in ASCII texts', () => {
  assert.ok(UNICODE_PATTERNS.length >= 25, `patterns: ${UNICODE_PATTERNS.length}`);
  const texts = asciiTexts(4000);
  for (const { source, flags } of UNICODE_PATTERNS) {
    const global = flags.includes('g') ? flags : `${flags}g`;
    const full = new RegExp(source, global);
    const twin = new RegExp(asciiSource(source), global);
    let matched = 0;
    for (const text of texts) {
      const found = [...text.matchAll(full)].map((m) => [m.index, ...m]);
      assert.deepEqual([...text.matchAll(twin)].map((m) => [m.index, ...m]), found, `/${source}/${flags} on ${JSON.stringify(text)}`);
      if (found.length > 0) matched++;
    }
    // A pattern that matches in no text was compared on nothing, unless it can match no ASCII at all.
    const one = new RegExp(asciiSource(source), flags.replace('g', ''));
    if (matched === 0) assert.ok(ASCII.every((c) => !one.test(c)), `/${source}/${flags} matched no text`);
  }
});

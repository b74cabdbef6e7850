/**
 * The control-character share that tells text from binary (text-bytes.ts), against the count it
 * stands for: every code point of the first 8,000 code units read one by one. A text with no
 * control character at all is answered without that reading.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { controlRatio } from './text-bytes.js';

function reference(text: string): number {
  let controls = 0;
  let total = 0;
  for (const ch of text.slice(0, 8000)) {
    total++;
    const code = ch.codePointAt(0) ?? 0;
    const whitespace = code === 9 || code === 10 || code === 12 || code === 13 || code === 0x1b;
    if ((code < 0x20 && !whitespace) || (code >= 0x7f && code <= 0x9f) || code === 0xfffd) controls++;
  }
  return controls / Math.max(1, total);
}

test('the control share is that of every code point read one by one', () => {
  // Every boundary of the classes, surrogates alone and in pairs, and plain text most of the time.
  const rare = ['\0', '\b', '\t', '\n', '\v', '\f', '\r', '\x0e', '\x1a', '\x1b', '\x1c', '\x1f', '\x7e', '\x7f', '\x80', '\x9f',
    '\xa0', '\ufffd', '\ufffe', '😀', '\ud83d', '\ude00'];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  let nonZero = 0;
  for (let i = 0; i < 20_000; i++) {
    const length = Math.floor(next() * 40);
    let text = '';
    for (let j = 0; j < length; j++) text += next() < 0.9 ? 'ab c'[Math.floor(next() * 4)] : rare[Math.floor(next() * rare.length)];
    assert.equal(controlRatio(text), reference(text), JSON.stringify(text));
    if (reference(text) > 0) nonZero++;
  }
  assert.ok(nonZero > 5_000 && nonZero < 15_000, `${nonZero} texts had a control character`);
  // Only the first 8,000 code units are read: a control character after them does not count.
  const long = `${'a'.repeat(8000)}\0`;
  assert.equal(controlRatio(long), 0);
  assert.equal(controlRatio(`${'a'.repeat(7999)}\0`), 1 / 8000);
});

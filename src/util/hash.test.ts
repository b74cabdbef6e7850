import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { JS_HASHES, NATIVE_FROM, normalisedHash, sha256 } from './hash.js';
import { loadedNodeCrypto } from './node-crypto.js';

const native = (data: string | Uint8Array) =>
  (typeof data === 'string' ? createHash('sha256').update(data, 'utf8') : createHash('sha256').update(data)).digest('hex');

test('sha256 gives node:crypto\'s digest for texts and bytes of every size, a process\'s first short ones hashed without it', () => {
  // This test imports node:crypto itself, but hash.ts's own copy is loaded only when it needs it.
  assert.equal(loadedNodeCrypto(), undefined);
  const texts = ['', 'a', 'abc', 'Bench note: kajuda davube jutolo', '数据库迁移 — naïve café 🚀', '\u0000\uffff\ud83d\ude80'];
  for (let i = 0; i < 200; i++) {
    const length = Math.floor(Math.random() * 300);
    texts.push(Array.from({ length }, () => String.fromCodePoint(Math.floor(Math.random() * 0x2fff) + 1)).join(''));
  }
  // The first hashes of a process are made in JavaScript, without node:crypto.
  const sizes = [0, 1, 55, 56, 63, 64, 65, 1000, NATIVE_FROM - 1];
  const first = [...texts.slice(0, JS_HASHES - sizes.length), ...sizes.map((n) => randomBytes(n))];
  assert.equal(first.length, JS_HASHES);
  for (const data of first) assert.equal(sha256(data), native(data), String(data).slice(0, 80));
  assert.equal(loadedNodeCrypto(), undefined, 'short data never loads node:crypto');
  // Then node:crypto: a process that hashes many texts (an ingest) hashes them natively.
  for (const text of texts) assert.equal(sha256(text), native(text), JSON.stringify(text).slice(0, 80));
  assert.notEqual(loadedNodeCrypto(), undefined);
  const long = 'x'.repeat(NATIVE_FROM);
  assert.equal(sha256(long), native(long));
  assert.equal(normalisedHash('a b  \r\n'), normalisedHash('a b\n'));
  assert.equal(normalisedHash('a b\n'), native('a b'));
});

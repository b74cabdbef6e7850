/**
 * SHA-256 hex digests, used for content addressing. A short text is hashed by `@noble/hashes`
 * (audited, plain JavaScript): loading `node:crypto` costs a command 3-5 ms (it loads node's
 * streams), more than a `put` spends on anything else but its start. Long data, any data once
 * `node:crypto` is loaded anyway, and every hash after the first {@link JS_HASHES} of a process (an
 * ingest or an import hashes thousands) go to `node:crypto`, native and several times faster per
 * byte. Both give the same digest (src/util/hash.test.ts).
 */
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { canonicalText } from './canonical-text.js';
import { loadedNodeCrypto, nodeCrypto } from './node-crypto.js';

/** Data from this many characters or bytes on is hashed by `node:crypto`. */
export const NATIVE_FROM = 16 * 1024;

/** How many hashes a process makes in JavaScript before it loads `node:crypto` for the rest. */
export const JS_HASHES = 32;
let hashedInJs = 0;

/**
 * The hash two texts share when they differ only in line endings and spacing that carries no
 * meaning ({@link canonicalText}): what "exact duplicate" means for dedup on write. Case, Unicode
 * forms, punctuation and indentation count.
 */
export function normalisedHash(text: string): string {
  return sha256(canonicalText(text));
}

/** The SHA-256 of a text (as UTF-8) or of raw bytes, in hex. */
export function sha256(data: string | Uint8Array): string {
  if (data.length < NATIVE_FROM && loadedNodeCrypto() === undefined && hashedInJs < JS_HASHES) {
    hashedInJs++;
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const digest = nobleSha256(bytes);
    return Buffer.from(digest.buffer, digest.byteOffset, digest.length).toString('hex');
  }
  const { createHash } = nodeCrypto();
  return typeof data === 'string'
    ? createHash('sha256').update(data, 'utf8').digest('hex')
    : createHash('sha256').update(data).digest('hex');
}

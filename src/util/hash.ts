/** SHA-256 hex digests, used for content addressing. */
import { canonicalText } from './canonical-text.js';
import { nodeCrypto } from './node-crypto.js';

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
  const { createHash } = nodeCrypto();
  return typeof data === 'string'
    ? createHash('sha256').update(data, 'utf8').digest('hex')
    : createHash('sha256').update(data).digest('hex');
}

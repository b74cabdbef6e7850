/** SHA-256 hex digests, used for content addressing. */
import { createHash } from 'node:crypto';

/**
 * The hash two texts share when they say the same thing but for case, spacing and Unicode
 * compatibility forms (NFKC): what "exact duplicate" means for dedup on write.
 */
export function normalisedHash(text: string): string {
  return sha256(text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim());
}

/** The SHA-256 of a text (as UTF-8) or of raw bytes, in hex. */
export function sha256(data: string | Uint8Array): string {
  return typeof data === 'string'
    ? createHash('sha256').update(data, 'utf8').digest('hex')
    : createHash('sha256').update(data).digest('hex');
}

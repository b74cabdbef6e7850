/** SHA-256 hex digests, used for content addressing. */
import { createHash } from 'node:crypto';

/** The SHA-256 of a text (as UTF-8) or of raw bytes, in hex. */
export function sha256(data: string | Uint8Array): string {
  return typeof data === 'string'
    ? createHash('sha256').update(data, 'utf8').digest('hex')
    : createHash('sha256').update(data).digest('hex');
}

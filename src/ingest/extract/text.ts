/**
 * Plain text and source code: UTF-8 (BOM stripped), UTF-16 with or without a BOM, else
 * Windows-1252; binary content is refused (util/text-bytes.ts).
 */
import { decodeTextBytes } from '../../util/text-bytes.js';
import { type Extracted, ExtractError } from './index.js';

/** Decodes text bytes; anything but plain UTF-8 says how it was read, binary throws. */
export function decodeText(bytes: Uint8Array): Extracted {
  const decoded = decodeTextBytes(bytes);
  if ('binary' in decoded) throw new ExtractError(`binary content (${decoded.binary})`);
  return decoded.note === undefined ? { text: decoded.text } : { text: decoded.text, note: decoded.note };
}

export function extractText(bytes: Uint8Array): Extracted {
  const decoded = decodeText(bytes);
  const heading = /^#{1,3}[ \t]+(.+?)[ \t#]*$/m.exec(decoded.text.slice(0, 4000));
  return heading?.[1] === undefined ? decoded : { ...decoded, title: heading[1].trim() };
}

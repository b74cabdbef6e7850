/** Plain text and source code: UTF-8 (BOM stripped), UTF-16 with a BOM, else Windows-1252. */
import type { Extracted } from './index.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Decodes text bytes; invalid UTF-8 falls back to Windows-1252 and says so. */
export function decodeText(bytes: Uint8Array): Extracted {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes) };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes) };
  try {
    return { text: UTF8.decode(bytes) };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), note: 'not valid UTF-8; decoded as Windows-1252' };
  }
}

export function extractText(bytes: Uint8Array): Extracted {
  const decoded = decodeText(bytes);
  const heading = /^#{1,3}[ \t]+(.+?)[ \t#]*$/m.exec(decoded.text.slice(0, 4000));
  return heading?.[1] === undefined ? decoded : { ...decoded, title: heading[1].trim() };
}

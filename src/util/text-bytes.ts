/**
 * Bytes that claim to be text, decoded before anything reads them (the write policy included), or
 * recognised as binary. UTF-8 (a BOM is dropped), UTF-16 LE/BE with a BOM, and UTF-16 without one
 * (recognised by its NUL bytes: mostly at odd offsets for LE, at even offsets for BE, as ASCII
 * text in UTF-16 has them) are decoded; invalid UTF-8 falls back to Windows-1252, the usual
 * encoding of such files. Binary is anything else with a NUL byte, UTF-16 that does not decode,
 * or text of which more than {@link MAX_INVALID_RATIO} are control characters (C0 but tab, line
 * feed, form feed, carriage return and escape; DEL; C1, which is also what Windows-1252 makes of
 * its unassigned bytes). Pure.
 */

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export type DecodedBytes
  = | { text: string; encoding: TextEncodingName; /** Set when the bytes were not plain UTF-8. */ note?: string }
    | { binary: string };

/** More control characters than this share of the text (its first {@link SAMPLE} characters): binary. */
export const MAX_INVALID_RATIO = 0.1;
/** How many leading bytes the NUL pattern and the control-character count look at. */
const SAMPLE = 8000;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function decodeUtf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be', bom: boolean): DecodedBytes {
  const body = bom ? bytes.subarray(2) : bytes;
  if (body.length % 2 !== 0) return { binary: `odd byte count for ${encoding.toUpperCase()}` };
  try {
    const text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body);
    if (text.includes('\u0000')) return { binary: `NUL characters in ${encoding.toUpperCase()} text` };
    return { text, encoding, note: `decoded as ${encoding.toUpperCase()}${bom ? '' : ' (no byte order mark)'}` };
  } catch {
    return { binary: `invalid ${encoding.toUpperCase()}` };
  }
}

/** UTF-16 without a BOM: NUL bytes on at least a quarter of one parity's positions, next to none on the other. */
function utf16Parity(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const sample = bytes.subarray(0, SAMPLE - (SAMPLE % 2));
  if (sample.length < 4) return undefined;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] === 0) {
      if (i % 2 === 0) even++;
      else odd++;
    }
  }
  const half = sample.length / 2;
  if (odd >= half / 4 && even <= odd / 50) return 'utf-16le';
  if (even >= half / 4 && odd <= even / 50) return 'utf-16be';
  return undefined;
}

/**
 * A control character as {@link controlRatio} counts them (each one code unit): a text with none
 * has a ratio of 0, found without reading it character by character.
 */
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const CONTROL = /[\0-\x08\x0b\x0e-\x1a\x1c-\x1f\x7f-\x9f\ufffd]/;

/** The share of control characters among the code points of the first {@link SAMPLE} code units of `text`. */
export function controlRatio(text: string): number {
  if (!CONTROL.test(text.slice(0, SAMPLE))) return 0;
  let controls = 0;
  let total = 0;
  for (const ch of text.slice(0, SAMPLE)) {
    total++;
    const code = ch.codePointAt(0) ?? 0;
    // Tab, line feed, form feed, carriage return and escape (terminal colours in logs) are text.
    const whitespace = code === 9 || code === 10 || code === 12 || code === 13 || code === 0x1b;
    if ((code < 0x20 && !whitespace) || (code >= 0x7f && code <= 0x9f) || code === 0xfffd) controls++;
  }
  return controls / Math.max(1, total);
}

/**
 * Decodes `bytes` as text, or says why they are binary.
 *
 * @example
 * decodeTextBytes(Buffer.from('\ufeffnote', 'utf16le')); // { text: 'note', encoding: 'utf-16le', note: … }
 */
export function decodeTextBytes(bytes: Uint8Array): DecodedBytes {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decodeUtf16(bytes, 'utf-16le', true);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decodeUtf16(bytes, 'utf-16be', true);
  const parity = utf16Parity(bytes);
  if (parity !== undefined) return decodeUtf16(bytes, parity, false);
  if (bytes.includes(0)) return { binary: 'NUL bytes' };
  let text: string;
  let fallback = false;
  try {
    text = utf8.decode(bytes);
  } catch {
    // Windows-1252 decodes any byte; binary shows as control characters (its unassigned bytes too).
    text = new TextDecoder('windows-1252').decode(bytes);
    fallback = true;
  }
  if (controlRatio(text) > MAX_INVALID_RATIO) return { binary: 'mostly control characters' };
  return fallback ? { text, encoding: 'windows-1252', note: 'not valid UTF-8; decoded as Windows-1252' } : { text, encoding: 'utf-8' };
}

/**
 * The built-in token estimate (`--tokenizer chars`, the default): no vocabulary to load, one pass.
 *
 * The text is cut into the pieces a GPT pre-tokenizer cuts it into (o200k's pattern: words with
 * their leading space or mark, numbers of up to three digits, runs of punctuation, runs of
 * whitespace); byte-level BPE never merges across two pieces. Then:
 *
 * - a piece holding any character outside ASCII and the Latin letters counts one token per UTF-8
 *   byte, the most byte-level BPE (o200k, cl100k) can spend on it. Chinese, Japanese, Korean,
 *   emoji and every other script are so never under-counted; they are over-counted instead (CJK
 *   about 3x against cl100k, 4-5x against o200k), which a real tokenizer avoids;
 * - a Latin word counts one token per {@link LETTERS_PER_TOKEN} letters (started), plus one per
 *   accented letter; a number one (the pattern cuts digits by three); punctuation one per two
 *   characters (started); whitespace as {@link blankTokens} says.
 *
 * Characters / 4, the seeds' estimate, is a third over o200k on English prose and 14% under it
 * on code; this one stays within 10% of o200k on both (`test/token-estimate.test.ts`).
 */

/** A contraction suffix, as o200k's pattern takes it (any case). */
const CONTRACTION = '(?:\'(?:[sStTmMdD]|[rR][eE]|[vV][eE]|[lL][lL]))?';
const UPPER = '[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]';
const LOWER = '[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]';
const LEAD = '[^\\r\\n\\p{L}\\p{N}]?';

/** o200k's pre-tokenizer pattern, written for JavaScript. */
const PIECES_SOURCE = [
  `${LEAD}${UPPER}*${LOWER}+${CONTRACTION}`,
  `${LEAD}${UPPER}+${LOWER}*${CONTRACTION}`,
  '\\p{N}{1,3}',
  ' ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*',
  '\\s*[\\r\\n]+',
  '\\s+(?!\\S)',
  '\\s+',
].join('|');

let pieces: RegExp | undefined;

/**
 * {@link PIECES_SOURCE} as an expression, made on the first text that is not all ASCII: its
 * Unicode classes take V8 milliseconds to compile, which a process that only sees ASCII never pays.
 */
export function o200kPieces(): RegExp {
  return (pieces ??= new RegExp(PIECES_SOURCE, 'gu'));
}

/**
 * {@link o200kPieces} for text that is all ASCII, where each Unicode class is an ASCII range (`\p{Lu}`:
 * A-Z, `\p{Ll}`: a-z, `\p{N}`: 0-9; `\p{Lt}`, `\p{Lm}`, `\p{Lo}` and `\p{M}` hold no ASCII
 * character) and the `u` flag changes nothing: the same pieces, from an expression V8 compiles in
 * a fraction of the time (test/token-estimate.test.ts compares both on random ASCII).
 */
export const ASCII_PIECES = new RegExp(
  [
    `[^\\r\\nA-Za-z0-9]?[A-Z]*[a-z]+${CONTRACTION}`,
    `[^\\r\\nA-Za-z0-9]?[A-Z]+[a-z]*${CONTRACTION}`,
    '[0-9]{1,3}',
    ' ?[^\\sA-Za-z0-9]+[\\r\\n/]*',
    '\\s*[\\r\\n]+',
    '\\s+(?!\\S)',
    '\\s+',
  ].join('|'),
  'g',
);

const NON_ASCII = /[^\0-\x7f]/;

/** Letters of a Latin word per token: most English words of up to 8 letters are one token. */
export const LETTERS_PER_TOKEN = 8;

/** Latin letters past ASCII (Latin-1, Latin Extended-A/B and Additional) and combining accents. */
function isLatinExtra(cp: number): boolean {
  return (cp >= 0xc0 && cp <= 0x24f && cp !== 0xd7 && cp !== 0xf7)
    || (cp >= 0x300 && cp <= 0x36f)
    || (cp >= 0x1e00 && cp <= 0x1eff);
}

/** UTF-8 bytes of a string. */
function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** Characters of one run of spaces, tabs or line feeds per token (o200k and cl100k hold long runs). */
const BLANKS_PER_TOKEN = 16;

/**
 * A piece of whitespace: a run of one of space, tab or line feed counts one token per
 * {@link BLANKS_PER_TOKEN} characters (started); any other whitespace (a carriage return, a form
 * feed, a non-breaking or ideographic space) one token per UTF-8 byte.
 */
function blankTokens(piece: string): number {
  let tokens = 0;
  let previous = '';
  let length = 0;
  for (const ch of piece) {
    if (ch === ' ' || ch === '\t' || ch === '\n') {
      length = ch === previous ? length + 1 : 1;
      if (length % BLANKS_PER_TOKEN === 1) tokens++;
    } else tokens += utf8Bytes(ch);
    previous = ch;
  }
  return tokens;
}

/** The estimate of one piece of the pattern (ASCII is read by code unit: most text is). */
function pieceTokens(piece: string): number {
  let letters = 0;
  let accented = 0;
  let digits = 0;
  let marks = 0;
  for (let i = 0; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    if (c >= 0x80) {
      if (!isLatinExtra(c)) return /^\s+$/u.test(piece) ? blankTokens(piece) : utf8Bytes(piece);
      accented++;
      letters++;
    } else if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) letters++;
    else if (c >= 0x30 && c <= 0x39) digits++;
    else if (c !== 0x20 && (c < 0x09 || c > 0x0d)) marks++;
  }
  if (letters > 0) return Math.ceil(letters / LETTERS_PER_TOKEN) + accented;
  if (digits > 0) return 1;
  if (marks > 0) return Math.ceil(marks / 2);
  return blankTokens(piece);
}

/**
 * The estimated token count of `text` (0 for '').
 *
 * @example
 * estimateTokens('The deploy runs nightly.'); // 5
 * estimateTokens('部署'); // 6: three UTF-8 bytes each, never fewer than o200k or cl100k count
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  const pattern = NON_ASCII.test(text) ? o200kPieces() : ASCII_PIECES;
  // exec on the shared expression, not matchAll (which copies it on every call); no piece is empty.
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) tokens += pieceTokens(m[0]);
  return tokens;
}

/** A run of ASCII letters, with what a contraction or an apostrophe joins to it (`don't`, `rock'n'roll`). */
const LETTER_RUN = /[A-Za-z]+(?:'[A-Za-z]+)*/g;

/**
 * A count {@link estimateTokens} never goes below, far cheaper: its runs of ASCII letters. A piece
 * that holds letters counts at least one token, and holds only one such run, or other letters
 * between its runs that count a token each (an accented Latin letter; any other script counts one
 * per UTF-8 byte).
 *
 * @example
 * estimateAtLeast('The deploy runs nightly.'); // 4 (the estimate is 5)
 */
export function estimateAtLeast(text: string): number {
  return text.match(LETTER_RUN)?.length ?? 0;
}

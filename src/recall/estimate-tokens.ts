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

/** UTF-8 bytes of `text` from `start` to `end`. */
function utf8Bytes(text: string, start: number, end: number): number {
  let bytes = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    const low = i + 1 < end ? text.charCodeAt(i + 1) : 0;
    if (c >= 0xd800 && c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
      bytes += 4;
      i++;
    } else bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  return bytes;
}

/** Characters of one run of spaces, tabs or line feeds per token (o200k and cl100k hold long runs). */
const BLANKS_PER_TOKEN = 16;

/**
 * A piece of whitespace (`text` from `start` to `end`): a run of one of space, tab or line feed
 * counts one token per {@link BLANKS_PER_TOKEN} characters (started); any other whitespace (a
 * carriage return, a form feed, a non-breaking or ideographic space) one token per UTF-8 byte.
 */
function blankTokens(text: string, start: number, end: number): number {
  let tokens = 0;
  let previous = -1;
  let length = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a) {
      length = c === previous ? length + 1 : 1;
      if (length % BLANKS_PER_TOKEN === 1) tokens++;
      previous = c;
    } else {
      const wide = c >= 0xd800 && c <= 0xdbff && i + 1 < end;
      tokens += utf8Bytes(text, i, wide ? i + 2 : i + 1);
      if (wide) i++;
      previous = -1;
    }
  }
  return tokens;
}

const ALL_BLANK = /^\s+$/u;

/**
 * The estimate of one piece of the pattern, `text` from `start` to `end`, read where it is (no
 * copy: a block of 6 KB has some 1,500 pieces). ASCII is read by code unit: most text is.
 */
function pieceTokens(text: string, start: number, end: number): number {
  let letters = 0;
  let accented = 0;
  let digits = 0;
  let marks = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) {
      if (!isLatinExtra(c)) {
        return ALL_BLANK.test(text.slice(start, end)) ? blankTokens(text, start, end) : utf8Bytes(text, start, end);
      }
      accented++;
      letters++;
    } else if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) letters++;
    else if (c >= 0x30 && c <= 0x39) digits++;
    else if (c !== 0x20 && (c < 0x09 || c > 0x0d)) marks++;
  }
  if (letters > 0) return Math.ceil(letters / LETTERS_PER_TOKEN) + accented;
  if (digits > 0) return 1;
  if (marks > 0) return Math.ceil(marks / 2);
  return blankTokens(text, start, end);
}

/** A sticky copy of each pieces pattern: `test` reads the piece that starts where the last ended. */
const sticky = new Map<RegExp, RegExp>();

function stickyOf(pattern: RegExp): RegExp {
  let copy = sticky.get(pattern);
  if (copy === undefined) {
    copy = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}y`);
    sticky.set(pattern, copy);
  }
  return copy;
}

/**
 * The estimated token count of `text` (0 for '').
 *
 * @example
 * estimateTokens('The deploy runs nightly.'); // 5
 * estimateTokens('部署'); // 6: three UTF-8 bytes each, never fewer than o200k or cl100k count
 */
export function estimateTokens(text: string): number {
  const pattern = NON_ASCII.test(text) ? o200kPieces() : ASCII_PIECES;
  // Every character starts a piece where the last one ended, so the pieces are read with `test`
  // on a sticky copy, which makes no match array and no string (a recall packs some 30 KB of text).
  const piece = stickyOf(pattern);
  piece.lastIndex = 0;
  let tokens = 0;
  for (let at = 0; at < text.length; at = piece.lastIndex) {
    if (!piece.test(text)) return piecesApart(text, pattern);
    tokens += pieceTokens(text, at, piece.lastIndex);
  }
  return tokens;
}

/** The estimate read with `exec`, which passes over characters no piece starts at (none seen). */
function piecesApart(text: string, pattern: RegExp): number {
  let tokens = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    tokens += pieceTokens(text, m.index, m.index + m[0].length);
  }
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
  // Counted with `test`, which makes no array of the runs.
  LETTER_RUN.lastIndex = 0;
  let runs = 0;
  while (LETTER_RUN.test(text)) runs++;
  return runs;
}

/**
 * Regular expressions with Unicode property escapes (`\p{L}`, `\p{Script=Han}`), made when a text
 * needs them. V8 builds each property's character ranges from ICU when it parses such an
 * expression, and again when it compiles it: some half a millisecond each, paid by every command
 * that loads the module, whether it runs the expression or not. A {@link UnicodePattern} makes its
 * expression on first use, and for a text all ASCII uses the same expression with each property
 * written as its ASCII members (`\p{L}` as `A-Za-z`, `\p{Script=Han}` as nothing), which matches
 * exactly what the original matches in such a text: a match only ever reads the text's own
 * characters, and of those the twin's classes hold exactly the ones the properties hold
 * (test/unicode-pattern.test.ts checks each property's members over all 128 ASCII characters, and
 * every pattern against its twin over random texts). Each of the two is one object, so a global
 * expression's `lastIndex` behaves as for one shared expression, per kind of text.
 */

/** Each property escape engram's expressions use, with its ASCII members (a class body). */
export const ASCII_MEMBERS: Readonly<Record<string, string>> = Object.freeze({
  'L': 'A-Za-z',
  'Lu': 'A-Z',
  'Ll': 'a-z',
  'Lt': '',
  'Lm': '',
  'Lo': '',
  'M': '',
  'Mn': '',
  'N': '0-9',
  'Nd': '0-9',
  'Cc': '\\x00-\\x1F\\x7F',
  'Cf': '',
  'Pd': '\\-',
  'Zl': '',
  'Zp': '',
  'Script=Han': '',
  'Script=Hiragana': '',
  'Script=Katakana': '',
  'Script=Hangul': '',
  'scx=Han': '',
  'scx=Hiragana': '',
  'scx=Katakana': '',
  'scx=Hangul': '',
});

const NON_ASCII = /[^\0-\x7f]/;

/**
 * `source` with each `\p{…}` written as its ASCII members: inside a class, the members themselves;
 * outside one, a class of them (`[]`, which matches nothing, when there are none). Fails on a
 * property it does not know and on `\P{…}`.
 */
export function asciiSource(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (next === 'P') throw new Error(`unicodePattern: \\P{…} is not supported: /${source}/`);
      if (next === 'p' && source[i + 2] === '{') {
        const end = source.indexOf('}', i + 3);
        const name = source.slice(i + 3, end);
        const members = ASCII_MEMBERS[name];
        if (end < 0 || members === undefined) throw new Error(`unicodePattern: no ASCII members known for \\p{${name}}: /${source}/`);
        out += inClass ? members : `[${members}]`;
        i = end;
        continue;
      }
      out += c + next;
      i++;
      continue;
    }
    if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    out += c;
  }
  return out;
}

/** True when every character of `text` is ASCII. */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/** An expression for a text: the full one, or its ASCII twin for a text all ASCII. */
export interface UnicodePattern {
  (text: string): RegExp;
  /** The expression for a text known to be all ASCII, or not (a caller running several reads its text once). */
  of(ascii: boolean): RegExp;
}

/** Every pattern made, for the test that compares each with its twin. */
export const UNICODE_PATTERNS: { source: string; flags: string }[] = [];

/**
 * The expression `source` with `flags`, made on first use; for a text all ASCII, its ASCII twin.
 *
 * @example
 * const WORD = unicodePattern('[\\p{L}\\p{N}]+', 'gu');
 * text.match(WORD(text));
 */
export function unicodePattern(source: string, flags: string): UnicodePattern {
  // Written now (a walk over the source, no expression made), so that a property without known
  // ASCII members fails when its module loads, not at its first ASCII text.
  const twinSource = asciiSource(source);
  UNICODE_PATTERNS.push({ source, flags });
  let full: RegExp | undefined;
  let twin: RegExp | undefined;
  const of = (ascii: boolean) => (ascii
    ? (twin ??= new RegExp(twinSource, flags))
    : (full ??= new RegExp(source, flags)));
  return Object.assign((text: string) => of(isAscii(text)), { of });
}

/**
 * The views of a text the policy rules look at. Evasions are undone before matching: compatibility
 * forms (fullwidth, mathematical letters) by NFKC, invisible characters (zero-width, bidi controls,
 * soft hyphens) removed, Cyrillic and Greek look-alikes folded to Latin, words or tokens split over
 * lines joined, and base64-wrapped text decoded. Pure functions, no I/O.
 */
import { unicodePattern } from '../util/unicode-pattern.js';

/** Cyrillic and Greek letters that render like Latin ones (Unicode confusables, the common set). */
const CONFUSABLES: Readonly<Record<string, string>> = Object.freeze({
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y',
  х: 'x', і: 'i', ї: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l', ɡ: 'g', ո: 'n',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', І: 'I',
  Ј: 'J', Ѕ: 'S', Ү: 'Y', У: 'Y',
  α: 'a', β: 'b', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', γ: 'y',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T',
  Υ: 'Y', Χ: 'X',
});

/**
 * More letters of other scripts that render like Latin ones (the Latin targets of Unicode's
 * confusables data), folded only inside words that also hold ASCII letters or digits, so that text
 * written in those scripts keeps its letters: Cyrillic, Greek, Armenian, Cherokee, Lisu, Latin small
 * capitals and IPA letters, Coptic. Compatibility forms (fullwidth, mathematical, circled,
 * superscript letters) are already folded by NFKC. Each entry is `Latin letter: look-alikes`.
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = Object.freeze({
  a: 'аαɑⲁ⍺', b: 'вЬƅᏏ', c: 'сςⲥᴄꮯ', d: 'ԁᏧꓒ', e: 'еёєҽ℮ꬲ', f: 'ꞙ', g: 'ɡցᶃƍ', h: 'һнհᏂ', i: 'іїɩιıꙇ', j: 'јϳȷ',
  k: 'кκᴋ', l: 'ӏǀ', m: 'мᴍ', n: 'ոпռᴎ', o: 'оοօσⲟᴏ০', p: 'рρⲣᴘ', q: 'ԛզ', r: 'гᴦⲅꭇ', s: 'ѕꜱƽ', t: 'тτᴛ',
  u: 'υսʋᴜ', v: 'ѵνᴠ', w: 'ԝѡᴡ', x: 'хχⲭ', y: 'уүγʏ', z: 'ᴢ',
  A: 'АΑᎪꓮᗅ', B: 'ВΒᏴꓐʙ', C: 'СᏟꓚ', D: 'Ꭰꓓ', E: 'ЕΕᎬꓰ', F: 'Ϝꓝꜰ', G: 'ԌᏀꓖɢ', H: 'НΗᎻꓧʜ', I: 'ІΙӀꓲɪ', J: 'ЈᎫꓙᴊ',
  K: 'КΚᏦꓗ', L: 'Ꮮꓡʟ', M: 'МΜᎷꓟ', N: 'ΝꓠɴИ', O: 'ОΟՕꓳⵔ', P: 'РΡᏢꓑ', Q: 'ԚⵕႭ', R: 'ᎡꓣƦʀ', S: 'ЅᏚꓢՏ', T: 'ТΤᎢꓔ',
  U: 'ՍꓴᑌԱ', V: 'ᏙꓦѴ', W: 'ԜᏔꓪ', X: 'ХΧꓫ', Y: 'ҮΥꓬ', Z: 'ΖᏃꓜ',
});

/** The look-alikes to fold and their expressions, made for the first text outside ASCII (none is in ASCII). */
interface Folding {
  more: Readonly<Record<string, string>>;
  morePattern: RegExp;
  common: RegExp;
}

let folding: Folding | undefined;

function foldingTables(): Folding {
  if (folding === undefined) {
    const more = Object.freeze(Object.fromEntries(Object.entries(LOOK_ALIKES).flatMap(([latin, alikes]) =>
      [...alikes].filter((c) => !(c in CONFUSABLES)).map((c) => [c, latin]))));
    folding = {
      more,
      morePattern: new RegExp(`[${Object.keys(more).join('')}]`, 'g'),
      common: new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'gu'),
    };
  }
  return folding;
}
/** A word: letters, digits and the punctuation of tokens. */
const WORD = unicodePattern('[\\p{L}\\p{N}_+/=.:@#-]+', 'gu');
/** Scripts nobody writes a Latin-context word in: Cherokee, Lisu, small capitals and IPA, Coptic. */
const SPOOF_SCRIPT = /[\u13A0-\u13FF\uA4D0-\uA4FF\u1D00-\u1D7F\u0250-\u02AF\u2C80-\u2CFF\uA720-\uA7FF\uAB30-\uABBF]/u;

/**
 * A word that mixes scripts: an ASCII letter or digit, a letter of a spoofing script, or Cyrillic
 * with Greek or Armenian. A Russian or Greek word (and the comma after it) is not mixed.
 */
function mixed(word: string): boolean {
  if (/[A-Za-z0-9]/.test(word) || SPOOF_SCRIPT.test(word)) return true;
  const cyrillic = /[\u0400-\u04FF]/.test(word);
  return cyrillic && /[\u0370-\u03FF\u0530-\u058F]/.test(word);
}

/** Format characters (zero-width space/joiners, bidi controls, BOM, soft hyphen) and variation selectors. */
const INVISIBLE = unicodePattern('[\\p{Cf}\\u{FE00}-\\u{FE0F}\\u{E0100}-\\u{E01EF}]', 'gu');
/** Combining marks, removed after decomposition. */
const MARKS = unicodePattern('\\p{Mn}+', 'gu');
const LINE_BREAK = /[ \t]*(?:\r\n|\r|\n)[ \t]*/g;
const BASE64_RUN = /[A-Za-z0-9+/_-]{24,}={0,2}/g;
/** Decoding stops after this many base64 runs per text; enough for any honest memory. */
const MAX_DECODED = 16;

/** Any character outside ASCII: text without one is its own normal form, with nothing to fold. */
const NON_ASCII = /[\u0080-\uFFFF]/;
/**
 * The whitespace a phrase view changes: a run of two or more, or one that is not a plain space.
 * Making each of them one space makes every run one space (`/\s+/g`), a single space between
 * words being left as it is instead of replaced by itself: four times faster on prose.
 */
const WHITESPACE_TO_FOLD = /\s{2,}|[^\S ]/g;

/** NFKC, invisible characters removed, look-alike letters folded to Latin. */
export function normalise(text: string): string {
  // NFKC, the invisible characters and the look-alikes all lie outside ASCII.
  if (!NON_ASCII.test(text)) return text;
  const compatible = text.normalize('NFKC');
  let clean = compatible.replace(INVISIBLE(compatible), '');
  const { more, morePattern, common } = foldingTables();
  // Which words are mixed is decided on the text as written: folding the common table first would
  // make every Russian or Greek word look mixed and fold it past recognition.
  morePattern.lastIndex = 0;
  if (morePattern.test(clean)) {
    const fold = (word: string) => word.replace(morePattern, (c) => more[c] ?? c);
    clean = clean.replace(WORD(clean), (word) => (mixed(word) ? fold(word) : word));
  }
  return clean.replace(common, (c) => CONFUSABLES[c] ?? c);
}

/**
 * For phrase rules: diacritics removed (é → e), typographic apostrophes made plain, and every run
 * of whitespace made one space.
 */
export function foldPhrases(normalised: string): string {
  // Decomposition, combining marks and typographic apostrophes all lie outside ASCII.
  if (!NON_ASCII.test(normalised)) return normalised.replace(WHITESPACE_TO_FOLD, ' ');
  const decomposed = normalised.normalize('NFD');
  return decomposed
    .replace(MARKS(decomposed), '')
    .replace(/[\u2018\u2019\u02BC]/g, '\'')
    .replace(WHITESPACE_TO_FOLD, ' ');
}

/** Line breaks (with the indentation around them) removed: undoes a token split over lines. */
export function joinLines(normalised: string): string {
  return normalised.replace(LINE_BREAK, '');
}

/** For each index of `joinLines(text)`, the index of the same character in `text`. */
export function joinedOffsets(text: string): number[] {
  const offsets: number[] = [];
  let from = 0;
  for (const m of text.matchAll(LINE_BREAK)) {
    for (let i = from; i < m.index; i++) offsets.push(i);
    from = m.index + m[0].length;
  }
  for (let i = from; i < text.length; i++) offsets.push(i);
  return offsets;
}

function printableRatio(text: string): number {
  let printable = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code === 9 || code === 10 || code === 13 || (code >= 32 && code !== 127 && code !== 0xfffd)) printable++;
  }
  return printable / Math.max(1, [...text].length);
}

/**
 * Text hidden in base64 runs (standard or URL-safe alphabet) that decodes to readable UTF-8.
 * Hashes, ids and binary blobs decode to noise and are ignored.
 */
export function decodeBase64Runs(normalised: string): string[] {
  const decoded: string[] = [];
  for (const match of normalised.matchAll(BASE64_RUN)) {
    if (decoded.length >= MAX_DECODED) break;
    const run = match[0];
    // Hex strings (hashes) and plain words are valid base64 but never hide text.
    if (/^[0-9a-f]+$/i.test(run) || !/[0-9+/=_-]|[a-z][A-Z]|[A-Z][a-z]/.test(run.slice(1))) continue;
    const text = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
    if (text.length >= 8 && printableRatio(text) >= 0.95) decoded.push(text);
  }
  return decoded;
}

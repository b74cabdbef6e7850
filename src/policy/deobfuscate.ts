/**
 * Extra views of a text that undo the obfuscations used to slip an instruction past phrase rules:
 * Unicode tag characters (invisible ASCII), bidi overrides (text stored reversed), HTML entities and
 * numeric character references, letters spaced or dotted apart, leetspeak digits and symbols, and
 * Markdown emphasis that splits a word. Also the hidden places of a document (HTML comments, hidden
 * elements, code comments, front matter, link titles, alt text, `<details>`), gathered into one view
 * so that rules can ask more of a text nobody sees rendered.
 *
 * Each view is made only when its cue is present, so an ordinary note costs a few cheap tests and
 * no extra view. Pure functions, no I/O.
 */
import { createRequire } from 'node:module';
import { isAscii, unicodePattern } from '../util/unicode-pattern.js';

/** Marks the start of the hidden-places view: rules for hidden text test for it with `needs`. */
export const HIDDEN_MARK = '\uE000';

/** At most this many characters of any one view (the content limit is 2,000). */
const MAX_VIEW = 8000;

const TAG_CHARS = /[\u{E0000}-\u{E007F}]/u;
const TAG_RUN = /[\u{E0020}-\u{E007E}]+/gu;
const BIDI_OVERRIDE = /[\u202E\u2067]/;
/** A right-to-left override or isolate and what it governs, up to its terminator or the line end. */
const BIDI_RUN = /[\u202E\u2067]([^\u202C\u2069\n]*)[\u202C\u2069]?/g;
const ENTITY = /&(?:#\d{2,7}|#x[0-9a-f]{2,6}|[a-z][a-z0-9]{1,31});/i;
/** Four or more single letters (or leet symbols) kept apart by one separator each: `i g n o r e`, `i.g.n.o.r.e`. */
const SPACED_RUN = unicodePattern('(?<![\\p{L}\\p{N}])[\\p{L}013457@$](?:[ .\\-_*\\u00B7\\u2022|/][\\p{L}013457@$](?![\\p{L}\\p{N}])){3,}', 'gu');
/** Once the text shows a run of four, shorter runs (`y o u`, `a-n`) are joined too. */
const SPACED_SHORT = unicodePattern('(?<![\\p{L}\\p{N}])[\\p{L}013457@$](?:[ .\\-_*\\u00B7\\u2022|/][\\p{L}013457@$](?![\\p{L}\\p{N}]))+', 'gu');
/** A word split by Markdown emphasis or strike-through markers: `ig**nore**`, `pre~~vious~~`. */
const EMPHASIS_SPLIT = unicodePattern('\\p{L}(?:\\*{1,3}|~~)\\p{L}|\\p{L}(?:\\*{1,3}|~~)\\s|\\s(?:\\*{1,3}|~~)\\p{L}', 'u');
const EMPHASIS = /\*{1,3}|~~/g;
/** A Latin word that mixes letters with the digits and symbols of leetspeak (not a hash, version or unit). */
const LEET_WORD = unicodePattern('(?<![\\p{L}\\p{N}])(?=[a-zA-Z013457@$]*[a-zA-Z])(?=[a-zA-Z013457@$]*[013457@$])[a-zA-Z013457@$]{2,24}(?![\\p{L}\\p{N}])', 'gu');
/** The cue for a leetspeak view: one such word of three characters or more (`v4` alone is a version). */
const LEET_CUE = unicodePattern('(?<![\\p{L}\\p{N}])(?=[a-zA-Z013457@$]*[a-zA-Z])(?=[a-zA-Z013457@$]*[013457@$])[a-zA-Z013457@$]{3,24}(?![\\p{L}\\p{N}])', 'u');
/** Two letters with anything between them (a run of separated letters holds a word, not one letter). */
const TWO_LETTERS = unicodePattern('\\p{L}.*\\p{L}', 'u');
/** A wider gap between two runs of separated letters: it stays one space. */
const RUN_GAP = unicodePattern('(?<=[\\p{L}\\p{N}][.,;:!?]?)(?: {2,}| ?[/|\\u2022\\u00B7] ?)(?=[\\p{L}\\p{N}])', 'gu');
/**
 * What every such word holds: a letter next to a digit or symbol of leetspeak. A text without one
 * has no cue; this is tested first, as it costs a third of the cue's expression. Written from the
 * digit or symbol, the rarer side: `/[a-zA-Z][013457@$]|[013457@$][a-zA-Z]/` reads each letter of a
 * text twice, and took four times as long.
 */
export const LEET_PAIR = /[013457@$](?:(?<=[a-zA-Z].)|[a-zA-Z])/;
const LEET: Readonly<Record<string, string>> = Object.freeze({
  '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's',
});
/** Reversed spellings of words that injections use; a reversed view is made only when one appears. */
const REVERSED_CUE = /snoitcurtsni|suoiverp|tpmorp metsys|erongi|dragersid|tegrof|tnatsissa|woN era uoy/i;

/** A deobfuscated view; `token` views are also read by the token rules (markers, secrets). */
export interface DeobfuscatedView {
  text: string;
  label: string;
  token: boolean;
}

/** `entities`' decoder, loaded on the first text with an entity: its tables take milliseconds to set up. */
let entities: { decodeHTML(text: string): string } | undefined;

function decodeHTML(text: string): string {
  // External to the bundle (scripts/bundle.ts): its chunk's `require` loads it from node_modules;
  // the library and the tests (ES modules, which have no `require`) load it the same way.
  entities ??= typeof require === 'function'
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    ? (require('entities') as { decodeHTML(text: string): string })
    : (createRequire(import.meta.url)('entities') as { decodeHTML(text: string): string });
  return entities.decodeHTML(text);
}

/**
 * Deobfuscated versions of `raw` (the text as written, before normalisation), each labelled for
 * excerpts. Empty when the text shows no sign of obfuscation; at most six views.
 */
export function deobfuscatedViews(raw: string): DeobfuscatedView[] {
  const views: DeobfuscatedView[] = [];
  const add = (text: string, label: string, token: boolean) => {
    views.push({ text: text.slice(0, MAX_VIEW), label, token });
  };
  if (TAG_CHARS.test(raw)) {
    const smuggled = [...raw.matchAll(TAG_RUN)].map((m) => decodeTags(m[0])).join(' ');
    if (smuggled.trim() !== '') add(smuggled, 'tag characters: ', true);
  }
  if (BIDI_OVERRIDE.test(raw)) add(raw.replace(BIDI_RUN, (_, run: string) => [...run].reverse().join('')), 'as displayed (bidi): ', true);
  let text = raw;
  const steps: string[] = [];
  if (ENTITY.test(text)) {
    text = decodeHTML(text);
    add(text, 'entities: ', true);
    steps.push('entities');
  }
  const before = text;
  // Read once: the steps below only take characters out, so an ASCII text stays one.
  const ascii = isAscii(text);
  if (EMPHASIS_SPLIT.of(ascii).test(text)) {
    text = text.replace(EMPHASIS, '');
    steps.push('emphasis');
  }
  const spaced = SPACED_RUN.of(ascii);
  spaced.lastIndex = 0;
  if (spaced.test(text)) {
    const joined = joinSpacedLetters(text);
    if (joined !== text) steps.push('spaced letters');
    text = joined;
  }
  if (LEET_PAIR.test(text) && LEET_CUE.of(ascii).test(text)) {
    const label = `${[...steps, 'leetspeak'].join(', ')}: `;
    // The words are found once: `1` read as `i`, then as `l` when a word has a `1`.
    const words = [...text.matchAll(LEET_WORD.of(ascii))];
    const unleeted = (one: 'i' | 'l') => {
      let out = '';
      let at = 0;
      for (const m of words) {
        out += text.slice(at, m.index) + unleet(m[0], one);
        at = m.index + m[0].length;
      }
      return out + text.slice(at);
    };
    const withI = unleeted('i');
    add(withI, label, false);
    if (words.some((m) => m[0].includes('1'))) add(unleeted('l'), label, false);
  } else if (text !== before) {
    add(text, `${steps.join(', ')}: `, false);
  }
  if (REVERSED_CUE.test(raw)) add([...raw.slice(0, MAX_VIEW)].reverse().join(''), 'reversed: ', false);
  return views;
}

function decodeTags(run: string): string {
  let out = '';
  for (const ch of run) out += String.fromCharCode((ch.codePointAt(0) ?? 0xe0020) - 0xe0000);
  return out;
}

/**
 * Runs of separated single letters joined into words. A wider gap (two spaces, a slash, a line
 * break) between runs stays a word break; a run with no such gap becomes one long word, which the
 * squeezed patterns of the injection rules read.
 */
export function joinSpacedLetters(text: string): string {
  const short = SPACED_SHORT(text);
  short.lastIndex = 0;
  const joined = text.replace(short, (run) => {
    const letters = run.replace(/[ .\-_*·•|/]/g, '');
    return TWO_LETTERS(letters).test(letters) ? letters : run;
  });
  return joined.replace(RUN_GAP(joined), ' ');
}

function unleet(word: string, one: 'i' | 'l'): string {
  let out = '';
  for (const ch of word) out += ch === '1' ? one : (LEET[ch] ?? ch);
  return out;
}

/**
 * An element hidden by attribute or style: `hidden`, `aria-hidden`, display:none, visibility:hidden,
 * zero font size or opacity, white or transparent text (white on white), off-screen positioning.
 */
const HIDDEN_ELEMENT = /<([a-z][a-z0-9]*)\b[^>]*?(?:\bhidden\b|aria-hidden\s*=\s*["']?true|display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:\.0*)?(?:px|pt|em|rem|%)?\s*[;"']|opacity\s*:\s*0(?:\.0*)?\s*[;"']|(?<![-\w])color\s*:\s*(?:#fff(?:fff)?\b|white\b|transparent\b|rgba?\(\s*255\s*,\s*255\s*,\s*255)|(?:left|top|text-indent)\s*:\s*-\d{3,})[^>]*>([\s\S]*?)(?:<\/\1\s*>|$)/gi;

const HIDDEN_PLACES: readonly RegExp[] = [
  // HTML comments (unterminated ones run to the end).
  /<!--([\s\S]*?)(?:-->|$)/g,
  HIDDEN_ELEMENT,
  /<details\b[^>]*>([\s\S]*?)(?:<\/details\s*>|$)/gi,
  // Code comments: line comments (//, #, --, ;) and block comments.
  /(?:^|[\s;{}()])(?:\/\/|#|--(?=\s))([^\n]*)/gm,
  /\/\*([\s\S]*?)(?:\*\/|$)/g,
  // Front matter (YAML or TOML) at the start of the text.
  /^\uFEFF?(?:---|\+\+\+)[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\+\+\+|\.\.\.)[ \t]*(?:\r?\n|$)/g,
  // Markdown link and image titles, reference definitions, image alt text.
  /\]\(\s*<?[^\s)>]*>?\s+(?:"([^"]*)"|'([^']*)'|\(([^)]*)\))\s*\)/g,
  /^\s*\[[^\]\n]+\]:\s*\S+\s+(?:"([^"\n]*)"|'([^'\n]*)'|\(([^)\n]*)\))/gm,
  /!\[([^\]]*)\]/g,
  // HTML alt, title, aria-label and data attributes.
  /\b(?:alt|title|aria-label|aria-description|data-[\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi,
];
/** Characters without which none of the hidden places can occur. */
const HIDDEN_CUE = /<!--|<[a-z][^>]*(?:hidden|display|font-size|opacity|color|left|top|text-indent)|<details|\/\/|#|--\s|\/\*|^\uFEFF?(?:---|\+\+\+)|\]\(|!\[|^\s*\[[^\]\n]+\]:|\b(?:alt|title|aria-[a-z]+|data-[\w-]+)\s*=/im;

/**
 * The text of every hidden place of `text` (normalised), each region on its own line, the whole
 * view starting with {@link HIDDEN_MARK}. `undefined` when the text has no hidden place.
 */
export function hiddenView(text: string): string | undefined {
  if (!HIDDEN_CUE.test(text)) return undefined;
  const regions: string[] = [];
  let size = 0;
  for (const place of HIDDEN_PLACES) {
    place.lastIndex = 0;
    for (const m of text.matchAll(place)) {
      // The hidden-element pattern captures the tag name first: its body is the last group.
      const groups = place === HIDDEN_ELEMENT ? m.slice(2) : m.slice(1);
      const region = groups.filter((g) => g !== undefined).join(' ').trim();
      if (region.length < 8) continue;
      regions.push(region);
      size += region.length;
      if (size > MAX_VIEW) break;
    }
    if (size > MAX_VIEW) break;
  }
  return regions.length > 0 ? `${HIDDEN_MARK}${regions.join(`\n${HIDDEN_MARK}`)}`.slice(0, MAX_VIEW) : undefined;
}

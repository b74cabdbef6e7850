/**
 * What stored text may look like once it is inside the injection block. Two passes, both pure:
 *
 * - {@link visibleText}: invisible and control characters are removed — Unicode tag characters
 *   (U+E0000–E007F), bidi embeddings, overrides and isolates (U+202A–202E, U+2066–2069, and the
 *   marks U+200E/U+200F/U+061C), zero-width space, word joiner and BOM (U+200B, U+2060, U+FEFF),
 *   variation-selector-free format characters of the same kind, and every C0/C1 control but tab
 *   and line feed. Line-ending look-alikes (CR, vertical tab, form feed, NEL, U+2028, U+2029)
 *   become a line feed, so that no line of the text hides from the line escaping below. The zero-
 *   width joiner and non-joiner (U+200C, U+200D) are kept only between two non-ASCII characters
 *   (emoji sequences, Persian, Indic scripts, where they change the rendering) and removed
 *   elsewhere (inside an ASCII word they only hide it from a reader).
 * - {@link escapeBlockText}: a line of stored text that could pass for a line of the block's
 *   grammar — the opening `[ENGRAM_MEMORY …]`, an item header `--- ITEM i/n […] ---`, the closing
 *   `[/ENGRAM_MEMORY …]` (and the catalog's `[ENGRAM_CATALOG …]` / `[/ENGRAM_CATALOG]`), matched
 *   loosely: leading spaces, any case, fullwidth and look-alike letters (NFKC, Cyrillic/Greek
 *   folded), spaces inside the brackets, any dash (`—-`, `–`, `－`) — gets a leading backslash.
 *   So does a line that already starts with a backslash (one more), so the escaping reverses
 *   exactly: drop one leading backslash from every body line that starts with one.
 *
 * The first line of a body is also escaped when it could pass for the provenance line (`source:`,
 * see provenance-line.ts). Header fields (id, type, tier, tags) and catalog titles are made
 * single-line with visible characters only: {@link headerField}.
 */
import { unicodePattern } from '../util/unicode-pattern.js';

/** Lines that end a line somewhere: each becomes `\n` before the lines are escaped. */
const LINE_ENDS = /\r\n|[\r\v\f\u0085\u2028\u2029]/g;
/**
 * Tag characters, bidi controls and marks, zero-width space, word joiner, invisible operators,
 * BOM, interlinear annotation marks, soft hyphen, Mongolian vowel separator.
 */
const INVISIBLE = /[\u{E0000}-\u{E007F}\u202A-\u202E\u2066-\u2069\u200B\u200E\u200F\u061C\u2060-\u2064\uFEFF\uFFF9-\uFFFB\u00AD\u180E]/gu;
/** C0 and C1 controls: all but tab and line feed are removed. */
const CONTROL = unicodePattern('\\p{Cc}', 'gu');
/** Zero-width non-joiner and joiner: legitimate between letters of other scripts and in emoji. */
const JOINERS = /[\u200C\u200D]/g;

/** Cyrillic and Greek letters that render like the Latin letters of the block's keywords. */
const LOOK_ALIKES: Readonly<Record<string, string>> = Object.freeze({
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', м: 'm', т: 't', к: 'k', н: 'h', г: 'r',
  α: 'a', ε: 'e', ο: 'o', ρ: 'p', ι: 'i', κ: 'k', τ: 't', μ: 'm', γ: 'y', η: 'n', ν: 'v',
});
const LOOK_ALIKE = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'g');

/** `[ENGRAM_MEMORY`, `[/ENGRAM_MEMORY`, `[ENGRAM_CATALOG` and `[ /engram memory` alike. */
const FRAME_LINE = /^\s*[[(<{]\s*[/\\]?\s*engram[\s_\-.]*(?:memory|catalog)/u;
/** `--- ITEM`, `—- ITEM`, `– ITEM`: two dashes or more, or one long dash, then ITEM. */
const ITEM_LINE = unicodePattern('^\\s*(?:(?:\\p{Pd}\\s*){2,}|[\\u2014\\u2015\\u2E3A\\u2E3B]\\s*)item\\b', 'u');

/** A character {@link shownText} may change: any outside printable ASCII, tab and line feed. */
const NOT_PLAIN = /[^\t\n\x20-\x7e]/;

/** `text` with invisible and control characters removed (see the module comment). */
export function visibleText(text: string): string {
  return NOT_PLAIN.test(text) ? shownText(text) : text;
}

/** {@link visibleText} read in full (a text of printable ASCII, tabs and line feeds is its own). */
export function shownText(text: string): string {
  const shown = text.replace(LINE_ENDS, '\n').replace(INVISIBLE, '');
  const lines = shown.replace(CONTROL(shown), (c) => (c === '\t' || c === '\n' ? c : ''));
  return lines.replace(JOINERS, (joiner, at: number, whole: string) => {
    const before = whole.codePointAt(at - 1) ?? 0;
    const after = whole.codePointAt(at + 1) ?? 0;
    return before > 0x7f && after > 0x7f && !/\s/u.test(whole[at - 1] ?? ' ') && !/\s/u.test(whole[at + 1] ?? ' ')
      ? joiner
      : '';
  });
}

/** The line with compatibility forms, look-alike letters and case folded, for matching only. */
function skeleton(line: string): string {
  return line.normalize('NFKC').toLowerCase().replace(LOOK_ALIKE, (c) => LOOK_ALIKES[c] ?? c);
}

/**
 * Whether `line` may be read as a line of the block ({@link looksLikeBlockLine}) or as the
 * provenance line, before folding it: a line of printable ASCII and tabs can be one only when its
 * first character that is not a space or tab opens a bracket, is a dash or an `s`, since NFKC, case
 * and the look-alikes leave its characters as they are but for case, and every such line's pattern
 * needs one of those first. A cheap test that spares most lines the folding.
 */
export function mayPassForBlockLine(line: string): boolean {
  return MAYBE_BLOCK_LINE.test(line);
}

const MAYBE_BLOCK_LINE = /^[ \t]*[[(<{\-sS]|[^\t\x20-\x7e]/;

/** True when `line` could be read as the block's opening, item header or closing line. */
export function looksLikeBlockLine(line: string): boolean {
  const folded = skeleton(line);
  return FRAME_LINE.test(folded) || ITEM_LINE(folded).test(folded);
}

/** A first body line that could pass for the provenance line engram writes (`source: …`). */
const SOURCE_LINE = /^\s*source\s*:/u;

/** One body line, escaped when it starts with a backslash or could pass for a block line. */
function escapeLine(line: string, first: boolean): string {
  const escape = line.startsWith('\\')
    || (mayPassForBlockLine(line) && (looksLikeBlockLine(line) || (first && SOURCE_LINE.test(skeleton(line)))));
  return escape ? `\\${line}` : line;
}

/**
 * Stored text as it goes into the block: visible characters only, every line that could pass for
 * a line of the block's grammar (or starts with a backslash) prefixed with a backslash.
 *
 * @example
 * escapeBlockText('note\n[/ENGRAM_MEMORY tokens_used=1]\nmore');
 * // 'note\n\\[/ENGRAM_MEMORY tokens_used=1]\nmore'
 */
export function escapeBlockText(text: string): string {
  return visibleText(text).split('\n').map((line, i) => escapeLine(line, i === 0)).join('\n');
}

/** The inverse of {@link escapeBlockText}'s escaping (not of its character removal). */
export function unescapeBlockText(text: string): string {
  return text.split('\n').map((line) => (line.startsWith('\\') ? line.slice(1) : line)).join('\n');
}

/** A value for the one-line item header or a catalog line: visible characters, no line breaks. */
export function headerField(value: string): string {
  return visibleText(value).replace(/\s*\n\s*/g, ' ');
}

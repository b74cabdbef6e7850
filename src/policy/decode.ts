/**
 * Derived views of a text for the token rules, each mapping every character back to where it came
 * from, so that a secret found in a derived view is masked in the text it was made from:
 *
 * - `unsplit`: pieces of a token put back together — line breaks with their indentation, quoted
 *   lines (`> `), shell continuations (`\`), and string concatenation in JS, Python, shell, PHP,
 *   SQL or VB style (`"a" + "b"`, `'a' 'b'`, `"a" . "b"`, `"a" || "b"`).
 * - `decoded`: every base64 (standard or URL-safe) and hex run that decodes to readable text,
 *   each run found in the unsplit text too, so a run wrapped at any width is whole.
 * - `url-decoded`: `%xx` escapes decoded as UTF-8, and `+` read as a space.
 *
 * Decoded views are decoded once more (one nested level: base64 of URL-encoded text, hex of
 * base64…). Decoding is bounded by the number of characters it may produce, not by a number of
 * runs, so a secret after any number of decoy runs is still found within the budget. Pure; no I/O.
 */
import { normalise } from './normalize.js';

export interface View {
  text: string;
  /** Prefix shown before excerpts from this view. */
  label: string;
  /** The view this one was derived from, and for each character the span it came from there. */
  parent?: View;
  map?: () => { from: Int32Array; to: Int32Array };
}

/** How many characters decoding may produce for one text, in all. */
export interface DecodeBudget {
  chars: number;
}

/** The decoding budget of an ordinary write, and of a whole-file check (ignoring the size rule). */
export const DECODE_BUDGET = 64_000;
export const WHOLE_FILE_DECODE_BUDGET = 1_000_000;

/**
 * What `unsplit` removes: quote-glue-quote between two token characters (concatenation), and line
 * breaks with the indentation, quote markers and continuation backslashes around them. The quote
 * comes before the look back at the character it follows: the same matches, found by V8 in a
 * third of the time of the look back first.
 */
const GLUE = new RegExp(
  [
    '["\'`](?<=[^\\s"\'`]["\'`])[ \\t]*(?:\\+|\\.|&|\\|\\||\\\\)?[ \\t]*'
    + '(?:\\r?\\n[ \\t]*(?:>[ \\t]?)*[ \\t]*(?:\\+|\\.|&|\\|\\|)?[ \\t]*)?\\(?["\'`](?=[^\\s"\'`])',
    '[ \\t]*\\\\?[ \\t]*(?:\\r\\n|\\r|\\n)[ \\t]*(?:>[ \\t]?)*[ \\t]*',
  ].join('|'),
  'g',
);
const HEX_ESCAPES = /(?:\\x[0-9a-fA-F]{2}){6,}/g;
const URL_ESCAPES = /(?:%[0-9A-Fa-f]{2})+|\+/g;

/** The characters of a base64 (or base64url) run, by ASCII code. */
const RUN_CHARS = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') RUN_CHARS[ch.charCodeAt(0)] = 1;
const EQUALS = 0x3d;

/** A run found in a text, as a match of an expression gives it. */
interface Run {
  index: number;
  0: string;
}

/**
 * The base64 runs of `text`: each longest run of 16 or more base64 or base64url characters, with
 * up to two `=` after it. The matches of `/(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}/g`
 * (the expression took a tenth of the policy's time on long texts), found by looking at every
 * sixteenth code unit: a run of 16 holds one of them, so where that one is not a run character, the
 * fifteen before it start no run; where it is, the run around it is read whole. Prose, whose words
 * are short, is read at about one code unit in three.
 */
export function base64Runs(text: string): Run[] {
  const runs: Run[] = [];
  const inRun = (at: number) => {
    const c = text.charCodeAt(at);
    return c < 128 && RUN_CHARS[c] === 1;
  };
  // No run starts before `from`: the code unit before it is none of a run's (or there is none).
  let from = 0;
  while (from + 16 <= text.length) {
    const probe = from + 15;
    if (!inRun(probe)) {
      from = probe + 1;
      continue;
    }
    let start = probe;
    while (start > from && inRun(start - 1)) start--;
    let end = probe + 1;
    while (end < text.length && inRun(end)) end++;
    if (end - start >= 16) {
      let last = end;
      if (text.charCodeAt(last) === EQUALS) last += text.charCodeAt(last + 1) === EQUALS ? 2 : 1;
      runs.push({ index: start, 0: text.slice(start, last) });
    }
    from = end + 1;
  }
  return runs;
}

interface Piece {
  text: string;
  /** Kept text starts at `start` in the parent; inserted text comes from the whole span. */
  kept: boolean;
  start: number;
  end: number;
}

/**
 * Builds a derived view from pieces: kept ranges of the parent and inserted text mapped to a span.
 * The per-character map is made only when a match needs it.
 */
class Builder {
  private readonly pieces: Piece[] = [];

  keep(text: string, start: number, end: number): void {
    if (end > start) this.pieces.push({ text: text.slice(start, end), kept: true, start, end });
  }

  insert(text: string, start: number, end: number): void {
    if (text.length > 0) this.pieces.push({ text, kept: false, start, end });
  }

  view(parent: View, label: string): View {
    const pieces = this.pieces;
    const text = pieces.map((p) => p.text).join('');
    let maps: { from: Int32Array; to: Int32Array } | undefined;
    const mapped = () => {
      if (maps === undefined) {
        const from = new Int32Array(text.length);
        const to = new Int32Array(text.length);
        let at = 0;
        for (const p of pieces) {
          for (let i = 0; i < p.text.length; i++, at++) {
            from[at] = p.kept ? p.start + i : p.start;
            to[at] = p.kept ? p.start + i + 1 : p.end;
          }
        }
        maps = { from, to };
      }
      return maps;
    };
    return { text, label, parent, map: mapped };
  }
}

/** The view with token pieces put back together, when that changes anything. */
export function unsplit(view: View): View | undefined {
  const { text } = view;
  const builder = new Builder();
  let at = 0;
  GLUE.lastIndex = 0;
  for (let m = GLUE.exec(text); m !== null; m = GLUE.exec(text)) {
    if (m[0].length === 0) {
      GLUE.lastIndex++;
      continue;
    }
    builder.keep(text, at, m.index);
    at = m.index + m[0].length;
  }
  if (at === 0) return undefined;
  builder.keep(text, at, text.length);
  return builder.view(view, `${view.label}joined lines: `);
}

function printableRatio(text: string): number {
  let printable = 0;
  let total = 0;
  for (const ch of text) {
    total++;
    const code = ch.codePointAt(0) ?? 0;
    if (code === 9 || code === 10 || code === 13 || (code >= 32 && code !== 127 && code !== 0xfffd)) printable++;
  }
  return printable / Math.max(1, total);
}

/** Readable text hidden in one run, or undefined (hashes, ids and binary blobs decode to noise). */
function decodeRun(run: string): string | undefined {
  let bytes: Buffer;
  if (/^(?:[0-9a-fA-F]{2})+$/.test(run)) bytes = Buffer.from(run, 'hex');
  else if (run.startsWith('\\x')) bytes = Buffer.from(run.replace(/\\x/g, ''), 'hex');
  else if (/[0-9+/=_-]|[a-z][A-Z]|[A-Z][a-z]/.test(run.slice(1))) {
    bytes = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  } else return undefined;
  const text = bytes.toString('utf8');
  return text.length >= 6 && printableRatio(text) >= 0.95 ? text : undefined;
}

/**
 * The readable text of every base64 and hex run of `view` and of the given views derived from it
 * (one derived view, the decoded runs one per line), or undefined when no run decodes to text.
 */
export function decodedRuns(view: View, budget: DecodeBudget, derived: readonly View[] = []): View | undefined {
  const builder = new Builder();
  const seen = new Set<string>();
  // The derived (joined) views first: a run wrapped over lines is decoded whole there, and the
  // runs inside it (its lines, which decode to pieces of it) are then left out.
  const covered: { start: number; end: number }[] = [];
  let found = false;
  for (const source of [...derived, view]) {
    if (source === view) covered.sort((a, b) => a.start - b.start);
    let next = 0;
    for (const runs of [base64Runs(source.text), source.text.matchAll(HEX_ESCAPES)]) {
      for (const m of runs) {
        if (budget.chars <= 0) break;
        const span = spanIn(source, view, m.index, m.index + m[0].length);
        if (source === view) {
          while (next < covered.length && (covered[next]?.end ?? 0) <= span.start) next++;
          const around = covered[next];
          if (around !== undefined && around.start <= span.start && around.end >= span.end) continue;
        }
        const decoded = decodeRun(m[0]);
        if (decoded === undefined || seen.has(decoded)) continue;
        seen.add(decoded);
        if (source !== view) covered.push(span);
        budget.chars -= decoded.length;
        builder.insert(`${normalise(decoded)}\n`, span.start, span.end);
        found = true;
      }
      next = 0;
    }
  }
  return found ? builder.view(view, `${view.label}decoded: `) : undefined;
}

/** The view with `%xx` escapes decoded and `+` read as a space, when it has any. */
export function urlDecoded(view: View, budget: DecodeBudget): View | undefined {
  const { text } = view;
  if (!/%[0-9A-Fa-f]{2}|[^\s+]\+[^\s+]+\+[^\s+]/.test(text) || budget.chars <= 0) return undefined;
  const builder = new Builder();
  let at = 0;
  for (const m of text.matchAll(URL_ESCAPES)) {
    builder.keep(text, at, m.index);
    at = m.index + m[0].length;
    if (m[0] === '+') {
      builder.insert(' ', m.index, at);
      continue;
    }
    const decoded = Buffer.from(m[0].replace(/%/g, ''), 'hex').toString('utf8');
    budget.chars -= decoded.length;
    if (decoded.includes('\uFFFD')) {
      builder.insert(decoded, m.index, at);
      continue;
    }
    let byte = 0;
    for (const ch of decoded) {
      const size = Buffer.byteLength(ch);
      builder.insert(ch, m.index + byte * 3, m.index + (byte + size) * 3);
      byte += size;
    }
  }
  builder.keep(text, at, text.length);
  return builder.view(view, `${view.label}url-decoded: `);
}

/** A span of `view` in the coordinates of its ancestor `target` (the whole source of each character). */
export function spanIn(view: View, target: View, start: number, end: number): { start: number; end: number } {
  let current = view;
  let span = { start, end };
  while (current !== target && current.parent !== undefined && current.map !== undefined) {
    const map = current.map();
    let from = Number.MAX_SAFE_INTEGER;
    let to = 0;
    for (let i = span.start; i < span.end; i++) {
      from = Math.min(from, map.from[i] ?? from);
      to = Math.max(to, map.to[i] ?? to);
    }
    span = from <= to ? { start: from, end: to } : { start: 0, end: current.parent.text.length };
    current = current.parent;
  }
  return span;
}

/** `view` derives (directly or not) from `ancestor`. */
export function derivesFrom(view: View, ancestor: View): boolean {
  for (let v = view.parent; v !== undefined; v = v.parent) if (v === ancestor) return true;
  return false;
}

/**
 * Every view of `text` the token rules look at: the text itself, the unsplit text, the decoded
 * runs and URL escapes of either, and one more decoding of each decoded view.
 */
export function tokenViews(text: string, budget: DecodeBudget): View[] {
  const base: View = { text, label: '' };
  const views: View[] = [base];
  const joined = unsplit(base);
  if (joined !== undefined) views.push(joined);
  const first: View[] = [];
  const runs = decodedRuns(base, budget, joined === undefined ? [] : [joined]);
  if (runs !== undefined) first.push(runs);
  const url = urlDecoded(joined ?? base, budget);
  if (url !== undefined) first.push(url);
  views.push(...first);
  for (const level of first) {
    const nested = decodedRuns(level, budget);
    if (nested !== undefined) views.push(nested);
    if (level !== url) {
      const nestedUrl = urlDecoded(level, budget);
      if (nestedUrl !== undefined) views.push(nestedUrl);
    }
  }
  return views;
}

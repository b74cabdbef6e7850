/**
 * Paragraph-aware chunking (RAGIX): the text is cut into consecutive slices, so the chunks joined
 * in order give back the text exactly and no part of a file is ever lost. Paragraphs (separated by
 * blank lines) are merged up to the limit; a paragraph over the limit is cut between lines, a line
 * between sentences, a sentence between words, and a word hard at the limit. For code, cuts
 * prefer the start of a top-level block (a line at column 0 after a blank line). Pure; no I/O.
 */

export interface Chunk {
  content: string;
  /** 1-based line range of the chunk in the text (a trailing line break ends its last line). */
  line_start: number;
  line_end: number;
}

export interface ChunkOptions {
  /** Largest chunk, in UTF-16 code units (never more characters than that). */
  maxChars: number;
  /** Source code: prefer cuts before top-level blocks. */
  code?: boolean;
}

const SENTENCE_END = /(?<=[.!?;。！？；])\s+|(?<=[。！？；])/gu;

/** Cut points (offsets where a new piece may start) after each match of `pattern`. */
function cutsAfter(text: string, pattern: RegExp): number[] {
  const cuts: number[] = [];
  for (const m of text.matchAll(pattern)) {
    const at = m.index + m[0].length;
    if (at > 0 && at < text.length) cuts.push(at);
  }
  return cuts;
}

/** Offsets (into `text`) where paragraphs start: after a run of blank lines. */
function paragraphCuts(text: string, code: boolean): number[] {
  const cuts = cutsAfter(text, /\n[ \t]*\n(?:[ \t]*\n)*/g);
  // In code, only a blank line followed by an unindented line starts a top-level block.
  return code ? cuts.filter((at) => !/[ \t]/.test(text[at] ?? '')) : cuts;
}

/** The sorted `cuts` strictly inside (start, end), found by binary search. */
function between(cuts: readonly number[], start: number, end: number): number[] {
  const firstAbove = (value: number) => {
    let lo = 0;
    let hi = cuts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cuts[mid] as number) <= value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return cuts.slice(firstAbove(start), firstAbove(end - 1));
}

/** Never cut between the halves of a surrogate pair. */
function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

/**
 * Greedy packing of the pieces [start, cut1), [cut1, cut2)… into spans of at most `max`; a piece
 * larger than `max` is returned as its own span for the caller to split further.
 */
function pack(start: number, end: number, cuts: readonly number[], max: number): [number, number][] {
  const bounds = [start, ...between(cuts, start, end), end];
  const spans: [number, number][] = [];
  let from = start;
  let last = start;
  for (let i = 1; i < bounds.length; i++) {
    const at = bounds[i] as number;
    if (at - from > max && last > from) {
      spans.push([from, last]);
      from = last;
    }
    last = at;
  }
  if (end > from) spans.push([from, end]);
  return spans;
}

/** A level of cut points, found on first use (most texts never need the finer ones). */
type Level = () => number[];

function lazy(find: () => number[]): Level {
  let cuts: number[] | undefined;
  return () => (cuts ??= find());
}

/** Splits [start, end) into spans of at most `max`, trying each level of cut points in turn. */
function split(text: string, start: number, end: number, max: number, levels: readonly Level[]): [number, number][] {
  if (end - start <= max) return [[start, end]];
  const [level, ...rest] = levels;
  if (level === undefined) {
    const spans: [number, number][] = [];
    for (let from = start; from < end;) {
      let to = Math.min(end, from + max);
      if (to < end) to = safeCut(text, to);
      if (to <= from) to = Math.min(end, from + 2);
      spans.push([from, to]);
      from = to;
    }
    return spans;
  }
  return pack(start, end, level(), max).flatMap(([a, b]) =>
    b - a <= max ? [[a, b] as [number, number]] : split(text, a, b, max, rest),
  );
}

/**
 * Chunks `text` into slices of at most `maxChars`, with their line ranges.
 *
 * @example
 * chunkText('one\n\ntwo\n', { maxChars: 2000 }); // [{ content: 'one\n\ntwo\n', line_start: 1, line_end: 3 }]
 */
export function chunkText(text: string, options: ChunkOptions): Chunk[] {
  const max = Math.max(2, Math.floor(options.maxChars));
  if (text.trim() === '') return [];
  const levels = [
    lazy(() => paragraphCuts(text, options.code === true)),
    lazy(() => cutsAfter(text, /\n/g)),
    lazy(() => cutsAfter(text, SENTENCE_END)),
    lazy(() => cutsAfter(text, /\s+/g)),
  ];
  // For code, a paragraph too big to pack falls back to any blank line before single lines.
  if (options.code) levels.splice(1, 0, lazy(() => paragraphCuts(text, false)));
  const spans = split(text, 0, text.length, max, levels);
  const chunks: Chunk[] = [];
  let line = 1;
  for (const [from, to] of spans) {
    const content = text.slice(from, to);
    const breaks = content.split('\n').length - 1;
    const endsWithBreak = content.endsWith('\n');
    chunks.push({ content, line_start: line, line_end: line + breaks - (endsWithBreak && breaks > 0 ? 1 : 0) });
    line += breaks;
  }
  return mergeBlank(chunks, max);
}

/**
 * A slice of only whitespace (leading blank lines, a blank line isolated between two full chunks,
 * a hard cut inside a run of spaces) joins the chunk before it, or else the chunk after it, as far
 * as they have room; whitespace that fits in neither (possible only with a tiny limit or a run of
 * blanks longer than it) is dropped, since it carries no content.
 */
function mergeBlank(chunks: Chunk[], max: number): Chunk[] {
  const out: Chunk[] = [];
  let pending: Chunk | undefined;
  for (const chunk of chunks) {
    const previous = out[out.length - 1];
    if (chunk.content.trim() === '') {
      if (previous !== undefined && pending === undefined && previous.content.length + chunk.content.length <= max) {
        previous.content += chunk.content;
        previous.line_end = Math.max(previous.line_end, chunk.line_end);
      } else {
        pending = pending === undefined ? { ...chunk } : { ...pending, content: pending.content + chunk.content };
      }
      continue;
    }
    const next = { ...chunk };
    if (pending !== undefined) {
      let blank = pending.content;
      if (previous !== undefined) {
        const room = Math.max(0, max - previous.content.length);
        previous.content += blank.slice(0, room);
        blank = blank.slice(room);
      }
      const fits = Math.max(0, max - next.content.length);
      if (blank.length > 0 && fits > 0) {
        next.content = blank.slice(-fits) + next.content;
        next.line_start = pending.line_start;
      }
      pending = undefined;
    }
    out.push(next);
  }
  return out;
}

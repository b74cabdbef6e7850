/**
 * A chunk the policy refused, cut so that one secret does not cost the rest of it. The chunk is
 * cut at Markdown section starts, then at paragraphs, then at lines — never inside a line: a line
 * is the smallest piece, so a long line holding a secret is refused whole (as is a chunk that is
 * part of one). Each piece is judged on its own and a refused piece is cut at the next level;
 * adjacent kept pieces are joined back (and judged again, joined), adjacent refused ones joined
 * into one range, and a blank piece goes with the piece before it (the first one, with the next).
 *
 * A cut is kept only when it accounts for the refusal: each rule that refused a piece refused one
 * of its parts, and each joined kept run passes. A match only the whole piece shows (a token split
 * over two lines, a phrase across a line break) leaves the piece refused whole, as before. Pure,
 * given a pure judge; the pieces keep their exact line ranges.
 */
import type { Chunk } from './chunk.js';

export interface Piece extends Chunk {
  /** Offsets in the chunk's content, end exclusive. */
  start: number;
  end: number;
  /** The rules that refused the piece; undefined when it is kept. */
  refused?: string[];
}

/** The rules refusing a piece (an empty list when none can be named), or undefined to keep it. */
export type PieceJudge = (piece: Chunk, start: number, end: number) => readonly string[] | undefined;

/** Offsets where a new piece may start, coarsest first: sections, paragraphs, lines. */
function cutLevels(text: string): number[][] {
  const starts = (pattern: RegExp, after: boolean) =>
    [...text.matchAll(pattern)]
      .map((m) => (after ? m.index + m[0].length : m.index))
      .filter((at) => at > 0 && at < text.length);
  return [
    starts(/^#{1,6}[ \t]/gm, false),
    starts(/\n[ \t]*\n(?:[ \t]*\n)*/g, true),
    starts(/\n/g, true),
  ];
}

function countBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Cuts a refused chunk into kept and refused pieces, in order; joined, they give back the chunk.
 * `rules` are the rules that refused the whole chunk. Returns the chunk as one refused piece when
 * the refusal cannot be pinned to smaller pieces.
 *
 * @example
 * const judge = (p: Chunk) => (p.content.includes('AKIA') ? ['secret.aws-access-key'] : undefined);
 * splitRefused({ content: 'a\n\nAKIA…\n\nb\n', line_start: 1, line_end: 5 }, ['secret.aws-access-key'], judge);
 * // [{ content: 'a\n\n', line_start: 1, line_end: 2 }, { content: 'AKIA…\n\n', line_start: 3, line_end: 4,
 * //   refused: ['secret.aws-access-key'] }, { content: 'b\n', line_start: 5, line_end: 5 }] (with offsets)
 */
export function splitRefused(chunk: Chunk, rules: readonly string[], judge: PieceJudge): Piece[] {
  const text = chunk.content;
  const levels = cutLevels(text);
  const verdicts = new Map<string, readonly string[] | undefined>([[`0:${text.length}`, rules]]);
  return settle(0, text.length, rules, 0);

  function piece(start: number, end: number, refused?: readonly string[]): Piece {
    const content = text.slice(start, end);
    const lineStart = chunk.line_start + countBreaks(text, 0, start);
    const breaks = countBreaks(text, start, end);
    const lineEnd = lineStart + breaks - (content.endsWith('\n') && breaks > 0 ? 1 : 0);
    const made: Piece = { content, line_start: lineStart, line_end: lineEnd, start, end };
    return refused === undefined ? made : { ...made, refused: [...refused] };
  }

  function verdict(start: number, end: number): readonly string[] | undefined {
    const key = `${start}:${end}`;
    if (!verdicts.has(key)) verdicts.set(key, judge(piece(start, end), start, end));
    return verdicts.get(key);
  }

  function settle(start: number, end: number, refusedBy: readonly string[], level: number): Piece[] {
    const whole = [piece(start, end, refusedBy)];
    // A refusal no rule names cannot be pinned to a part.
    if (refusedBy.length === 0) return whole;
    for (let l = level; l < levels.length; l++) {
      const bounds = [start, ...(levels[l] ?? []).filter((at) => at > start && at < end), end];
      if (bounds.length < 3) continue;
      const parts: (Piece | { start: number; end: number; blank: true })[] = [];
      for (let i = 1; i < bounds.length; i++) {
        const [a, b] = [bounds[i - 1] as number, bounds[i] as number];
        if (text.slice(a, b).trim() === '') {
          parts.push({ start: a, end: b, blank: true });
          continue;
        }
        const refused = verdict(a, b);
        parts.push(...(refused === undefined ? [piece(a, b)] : settle(a, b, refused, l + 1)));
      }
      const joined = join(parts);
      const named = new Set(joined.flatMap((p) => p.refused ?? []));
      const accounted = refusedBy.every((rule) => named.has(rule))
        && joined.every((p) => p.refused !== undefined || verdict(p.start, p.end) === undefined);
      return accounted ? joined.map((p) => piece(p.start, p.end, p.refused)) : whole;
    }
    return whole;
  }
}

type Span = { start: number; end: number; refused?: string[] };

/** Adjacent kept parts joined, adjacent refused parts joined (their rules too), blanks absorbed. */
function join(parts: readonly (Span | { start: number; end: number; blank: true })[]): Span[] {
  const out: Span[] = [];
  let lead: number | undefined;
  for (const part of parts) {
    const last = out[out.length - 1];
    if ('blank' in part) {
      if (last === undefined) lead ??= part.start;
      else last.end = part.end;
      continue;
    }
    if (last !== undefined && (last.refused === undefined) === (part.refused === undefined)) {
      last.end = part.end;
      if (last.refused !== undefined) last.refused = [...new Set([...last.refused, ...(part.refused ?? [])])];
      continue;
    }
    out.push({ start: lead ?? part.start, end: part.end, ...(part.refused ? { refused: [...part.refused] } : {}) });
    lead = undefined;
  }
  return out;
}

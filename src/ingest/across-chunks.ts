/**
 * What only the whole text shows. Ingest judges each chunk on its own (and the secret spans of the
 * whole text as written, secret-spans.ts); a match that needs two chunks at once — a base64- or
 * URL-encoded secret, a token split over lines, a phrase cut by a chunk boundary — would leave
 * its halves in two chunks that each pass. So the policy also reads the whole text before any
 * chunk is stored. A text of at most {@link WHOLE_TEXT_LIMIT} characters is read whole: when it is
 * rejected, every pair of neighbouring chunks is read too, both chunks of a pair that shows a
 * rejecting rule neither shows alone are refused, and a rule of the whole text that no chunk or
 * pair accounts for (a match across three chunks or more) refuses the whole file. A longer text
 * is never held in the policy's views at once: the {@link BOUNDARY_WINDOW} characters on each side
 * of every chunk boundary are read instead, with the same consequence. Pure, given a pure judge.
 */

/** Texts up to this many characters (64 Ki) are read whole by the policy. */
export const WHOLE_TEXT_LIMIT = 64 * 1024;
/**
 * For longer texts: how many characters on each side of a chunk boundary are read together (the
 * longest credential formats and a base64 wrapping of them fit; the policy's cost grows by about
 * half instead of doubling).
 */
export const BOUNDARY_WINDOW = 500;

/** A chunk's place in the text and the rejecting rules that refused it alone (empty when kept). */
export interface JudgedRange {
  start: number;
  end: number;
  rules: readonly string[];
}

export interface AcrossChunks {
  /** Chunk index → the rules only its pair with a neighbour shows. */
  refuse: Map<number, string[]>;
  /** Rules of the whole text no chunk or pair accounts for: the file must be refused. */
  unplaced: string[];
}

/** The rejecting rule ids the policy finds in a text (no size limit). */
export type TextJudge = (text: string) => readonly string[];

/**
 * The chunks a match across chunk boundaries refuses, and what cannot be placed at all.
 *
 * @example
 * const across = refusedAcrossChunks(text, ranges, (t) => rejectingRules(t));
 * if (across.unplaced.length > 0) throw new Error('refuse the file');
 */
export function refusedAcrossChunks(text: string, ranges: readonly JudgedRange[], judge: TextJudge): AcrossChunks {
  const refuse = new Map<number, string[]>();
  const whole = text.length <= WHOLE_TEXT_LIMIT ? judge(text) : undefined;
  if (whole !== undefined && whole.length === 0) return { refuse, unplaced: [] };
  const add = (index: number, rules: readonly string[]) => {
    refuse.set(index, [...new Set([...(refuse.get(index) ?? []), ...rules])]);
  };
  for (let i = 0; i + 1 < ranges.length; i++) {
    const [left, right] = [ranges[i] as JudgedRange, ranges[i + 1] as JudgedRange];
    const alone = new Set([...left.rules, ...right.rules]);
    const [from, to] = whole === undefined
      ? [Math.max(left.start, left.end - BOUNDARY_WINDOW), Math.min(right.end, right.start + BOUNDARY_WINDOW)]
      : [left.start, right.end];
    const pair = judge(text.slice(from, to)).filter((rule) => !alone.has(rule));
    if (pair.length === 0) continue;
    add(i, pair);
    add(i + 1, pair);
  }
  const placed = new Set([...ranges.flatMap((r) => r.rules), ...[...refuse.values()].flat()]);
  return { refuse, unplaced: (whole ?? []).filter((rule) => !placed.has(rule)) };
}

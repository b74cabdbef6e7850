/**
 * What only the whole text shows. Ingest judges each chunk on its own (and the secret spans of the
 * whole text as written, secret-spans.ts); a match that needs two chunks at once — a base64- or
 * URL-encoded secret, a token split over lines, a phrase cut by a chunk boundary — would leave
 * its halves in two chunks that each pass. So the policy also reads the whole text, before any
 * chunk is stored: when it rejects, every pair of neighbouring chunks is read too, and both chunks
 * of a pair that shows a rejecting rule neither of them shows alone are refused. A rule the whole
 * text shows that no chunk or pair accounts for (a match across three chunks or more) refuses the
 * whole file. Pure, given a pure judge.
 */

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
  const whole = judge(text);
  if (whole.length === 0) return { refuse, unplaced: [] };
  const add = (index: number, rules: readonly string[]) => {
    refuse.set(index, [...new Set([...(refuse.get(index) ?? []), ...rules])]);
  };
  for (let i = 0; i + 1 < ranges.length; i++) {
    const [left, right] = [ranges[i] as JudgedRange, ranges[i + 1] as JudgedRange];
    const alone = new Set([...left.rules, ...right.rules]);
    const pair = judge(text.slice(left.start, right.end)).filter((rule) => !alone.has(rule));
    if (pair.length === 0) continue;
    add(i, pair);
    add(i + 1, pair);
  }
  const placed = new Set([...ranges.flatMap((r) => r.rules), ...[...refuse.values()].flat()]);
  return { refuse, unplaced: whole.filter((rule) => !placed.has(rule)) };
}

/**
 * A unified diff of two versions of a file (`diff -u` layout, three lines of context), for
 * `setup --dry-run`. Lines common to both ends are set aside first, and the rest is matched by a
 * longest common subsequence, which stays small: setup changes a few lines in one place.
 */

/** Beyond this many cells the middle is shown as removed then added, unmatched. */
const MAX_CELLS = 4_000_000;
const CONTEXT = 3;

interface Line {
  kind: ' ' | '-' | '+';
  text: string;
}

/** The lines of a text, and whether its last line lacks a line break. */
function linesOf(text: string | undefined): { lines: string[]; open: boolean } {
  if (text === undefined || text === '') return { lines: [], open: false };
  const lines = text.split('\n');
  const open = lines.at(-1) !== '';
  if (!open) lines.pop();
  return { lines, open };
}

/** The edit script between `a` and `b` (each line kept, removed or added). */
function script(a: string[], b: string[]): Line[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const middle: Line[] = [];
  if (midA.length * midB.length > MAX_CELLS || midA.length === 0 || midB.length === 0) {
    middle.push(...midA.map((text) => ({ kind: '-' as const, text })), ...midB.map((text) => ({ kind: '+' as const, text })));
  } else {
    // lcs[i][j]: length of the longest common subsequence of midA[i..] and midB[j..].
    const width = midB.length + 1;
    const lcs = new Uint32Array((midA.length + 1) * width);
    for (let i = midA.length - 1; i >= 0; i--) {
      for (let j = midB.length - 1; j >= 0; j--) {
        const down = lcs[(i + 1) * width + j] ?? 0;
        const right = lcs[i * width + j + 1] ?? 0;
        lcs[i * width + j] = midA[i] === midB[j] ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1 : Math.max(down, right);
      }
    }
    // On a tie, removed lines come before added ones, as diff -u shows them.
    const dropFirst = (i: number, j: number) => (lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0);
    let i = 0;
    let j = 0;
    while (i < midA.length || j < midB.length) {
      if (i < midA.length && j < midB.length && midA[i] === midB[j]) {
        middle.push({ kind: ' ', text: midA[i++] ?? '' });
        j++;
      } else if (i < midA.length && (j === midB.length || dropFirst(i, j))) {
        middle.push({ kind: '-', text: midA[i++] ?? '' });
      } else {
        middle.push({ kind: '+', text: midB[j++] ?? '' });
      }
    }
  }
  const same = (text: string): Line => ({ kind: ' ', text });
  return [...a.slice(0, start).map(same), ...middle, ...a.slice(endA).map(same)];
}

/**
 * The unified diff from `before` to `after` (undefined: no file), '' when they are equal.
 *
 * @example
 * unifiedDiff('/p/.mcp.json', undefined, '{}\n'); // '--- /dev/null\n+++ /p/.mcp.json\n@@ -0,0 +1 @@\n+{}\n'
 */
export function unifiedDiff(path: string, before: string | undefined, after: string | undefined): string {
  if (before === after) return '';
  const a = linesOf(before);
  const b = linesOf(after);
  const lines = script(a.lines, b.lines);
  // A last line without a line break differs from the same line with one: shown removed and added.
  const lastOf = (skip: Line['kind']) => lines.findLastIndex((l) => l.kind !== skip);
  const split = (open: boolean, at: number, other: number, otherOpen: boolean) => {
    const line = lines[at];
    if (!open || line?.kind !== ' ' || (otherOpen && other === at)) return;
    lines[at] = { kind: '-', text: line.text };
    let next = at + 1;
    while (lines[next]?.kind === '-') next++;
    lines.splice(next, 0, { kind: '+', text: line.text });
  };
  split(a.open, lastOf('+'), lastOf('-'), b.open);
  split(b.open, lastOf('-'), lastOf('+'), a.open);
  const out: string[] = [`--- ${before === undefined ? '/dev/null' : path}`, `+++ ${after === undefined ? '/dev/null' : path}`];
  const changed = lines.map((l, i) => (l.kind === ' ' ? -1 : i)).filter((i) => i >= 0);
  let aLine = 0;
  let bLine = 0;
  const positions = lines.map((l) => {
    const at = { a: aLine, b: bLine };
    if (l.kind !== '+') aLine++;
    if (l.kind !== '-') bLine++;
    return at;
  });
  const marks = new Map<number, string>();
  if (a.open) marks.set(lastOf('+'), '\\ No newline at end of file');
  if (b.open) marks.set(lastOf('-'), '\\ No newline at end of file');
  let k = 0;
  while (k < changed.length) {
    const first = changed[k] ?? 0;
    let last = first;
    while (k + 1 < changed.length && (changed[k + 1] ?? 0) - last <= 2 * CONTEXT + 1) last = changed[++k] ?? last;
    k++;
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(lines.length - 1, last + CONTEXT);
    const hunk = lines.slice(from, to + 1);
    const oldCount = hunk.filter((l) => l.kind !== '+').length;
    const newCount = hunk.filter((l) => l.kind !== '-').length;
    const start = positions[from] ?? { a: 0, b: 0 };
    const range = (s: number, n: number) => (n === 1 ? `${s + 1}` : `${n === 0 ? s : s + 1},${n}`);
    out.push(`@@ -${range(start.a, oldCount)} +${range(start.b, newCount)} @@`);
    for (let i = from; i <= to; i++) {
      const line = lines[i] as Line;
      out.push(`${line.kind}${line.text}`);
      const mark = marks.get(i);
      if (mark !== undefined) out.push(mark);
    }
  }
  return `${out.join('\n')}\n`;
}

/**
 * Corpus suite: the write policy's verdict on the generated adversarial corpus (secrets,
 * injections, benign look-alikes from test/adversarial/), as rates per kind, class and wrapping,
 * and overall against the goals: at least 99% of secrets refused (exotic wrappings excepted and
 * reported apart), at least 95% of injections refused or quarantined, no benign note flagged.
 *
 * The report is `corpusRows(secrets, injections, benign)`; the suite that imports the three
 * generators (`secretCases`, `injectionCases`, `benignCases`) registers it in bench/run.ts. The
 * misses (secrets accepted, injections accepted, benign notes flagged) go to stderr, secret values
 * masked; `BENCH_CORPUS_SHOW=N` sets how many (default 40).
 */
import { checkPolicy, type Verdict } from '../../src/index.js';
import type { Row } from '../stats.js';
import type { AdversarialCase, CaseKind } from '../../test/adversarial/case.js';

const SUITE = 'policy corpus';

/** The goal of each kind: the share of cases that must end with a "good" verdict. */
const GOALS: Record<CaseKind, { good: (v: Verdict) => boolean; goal: number; meaning: string }> = {
  secret: { good: (v) => v === 'reject', goal: 0.99, meaning: 'refused' },
  injection: { good: (v) => v !== 'accept', goal: 0.95, meaning: 'refused or quarantined' },
  benign: { good: (v) => v === 'accept', goal: 1, meaning: 'accepted' },
};

interface Counts {
  cases: number;
  refused: number;
  quarantined: number;
  accepted: number;
  good: number;
}

function empty(): Counts {
  return { cases: 0, refused: 0, quarantined: 0, accepted: 0, good: 0 };
}

function add(counts: Counts, verdict: Verdict, good: boolean): void {
  counts.cases += 1;
  if (verdict === 'reject') counts.refused += 1;
  else if (verdict === 'quarantine') counts.quarantined += 1;
  else counts.accepted += 1;
  if (good) counts.good += 1;
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${(Math.round((part / whole) * 1000) / 10).toFixed(1)}%`;
}

function row(kind: CaseKind, label: string, counts: Counts, extra: Record<string, string> = {}): Row {
  return {
    suite: SUITE,
    case: `${kind} ${label}`,
    cases: counts.cases,
    refused: counts.refused,
    quarantined: counts.quarantined,
    accepted: counts.accepted,
    rate: percent(counts.good, counts.cases),
    goal: extra.goal ?? '',
    met: extra.met ?? '',
  };
}

/** The case's text with its secret masked, one line, for the list of misses. */
function shown(c: AdversarialCase): string {
  const masked = c.secret === undefined || c.secret === '' ? c.text : c.text.split(c.secret).join('<secret>');
  return masked.replace(/\s+/g, ' ').slice(0, 140);
}

/** Counts of one kind grouped by a key of each case. */
interface Result {
  c: AdversarialCase;
  verdict: Verdict;
  good: boolean;
}

function grouped(results: Result[], key: (c: AdversarialCase) => string): Map<string, Counts> {
  const groups = new Map<string, Counts>();
  for (const r of results) {
    const k = key(r.c);
    const counts = groups.get(k) ?? empty();
    add(counts, r.verdict, r.good);
    groups.set(k, counts);
  }
  return new Map([...groups.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * The report: for each kind, one row per class and per wrapping, then the overall row against the
 * goal (secrets: exotic wrappings excluded, and an extra row for them). `rate` is the share of
 * cases with the verdict the kind wants (secrets refused, injections held, benign accepted); a
 * kind with no cases has no rows.
 */
export function corpusRows(
  secrets: AdversarialCase[],
  injections: AdversarialCase[],
  benign: AdversarialCase[],
): Row[] {
  const show = Number(process.env.BENCH_CORPUS_SHOW ?? 40);
  let misses = 0;
  const rows: Row[] = [];
  for (const [kind, cases] of [['secret', secrets], ['injection', injections], ['benign', benign]] as const) {
    if (cases.length === 0) continue;
    const goal = GOALS[kind];
    const results = cases.map((c) => {
      const verdict = checkPolicy({ content: c.text }).verdict;
      const good = goal.good(verdict);
      if (!good && misses < show) {
        misses += 1;
        process.stderr.write(`[${kind} ${verdict}] ${c.class}/${c.wrapping}${c.exotic ? ' (exotic)' : ''}: ${shown(c)}\n`);
      }
      return { c, verdict, good };
    });
    for (const [cls, counts] of grouped(results, (c) => c.class)) rows.push(row(kind, `class ${cls}`, counts));
    if (kind !== 'benign') {
      for (const [wrapping, counts] of grouped(results, (c) => c.wrapping)) rows.push(row(kind, `wrapping ${wrapping}`, counts));
    }
    const counted = results.filter((r) => !r.c.exotic);
    const overall = empty();
    for (const r of counted) add(overall, r.verdict, r.good);
    const met = overall.cases > 0 && overall.good / overall.cases >= goal.goal;
    const label = kind === 'secret' ? 'overall (exotic excluded)' : 'overall';
    rows.push(row(kind, label, overall, { goal: `${goal.meaning} >= ${percent(goal.goal, 1)}`, met: met ? 'yes' : 'no' }));
    const exotic = results.filter((r) => r.c.exotic);
    if (exotic.length > 0) {
      const counts = empty();
      for (const r of exotic) add(counts, r.verdict, r.good);
      rows.push(row(kind, 'exotic (reported, not counted)', counts));
    }
  }
  return rows;
}

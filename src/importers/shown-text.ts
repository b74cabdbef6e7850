/**
 * What a report of `engram import --from` may print of the source's own strings (ids, file names,
 * key names, relation names, values quoted in a reason): the store is kept clean by the write
 * policy, and so is what the run prints. Secrets are masked as a recorded query masks them
 * ({@link redactSecrets}); a string the policy still objects to (text addressing the model,
 * personal data, hidden characters) or a long one is shown by its length only. Pure.
 */
import { redactSecrets } from '../policy/secret-spans.js';
import { evaluatePolicy } from '../policy/evaluate.js';
import type { SourceImportReport } from './import-report.js';

/** Longer strings are shown by their length. */
const LONGEST = 200;

/** `text` as a report may show it. */
export function shownText(text: string): string {
  const withheld = `[${[...text].length} characters withheld]`;
  if (text.length > LONGEST) return withheld;
  const masked = redactSecrets(text);
  return evaluatePolicy({ content: masked }, { ignoreSize: true }).matches.length === 0 ? masked : withheld;
}

/** Every string of `report` that comes from the source, as {@link shownText} shows it (in place). */
export function sanitiseReport(report: SourceImportReport): void {
  const seen = new Map<string, string>();
  const shown = (text: string): string => {
    let out = seen.get(text);
    if (out === undefined) {
      out = shownText(text);
      seen.set(text, out);
    }
    return out;
  };
  report.refusals = report.refusals.map((r) => ({
    ...r,
    where: shown(r.where),
    message: shown(r.message),
    ...(r.rules === undefined ? {} : { rules: r.rules.map((m) => ({ ...m, excerpt: shown(m.excerpt) })) }),
  }));
  report.not_mapped = report.not_mapped.map((u) => ({
    where: shown(u.where),
    ...(u.field === undefined ? {} : { field: shown(u.field) }),
    reason: shown(u.reason),
  }));
  const reasons = Object.entries(report.vectors.reasons);
  report.vectors.reasons = Object.fromEntries(reasons.map(([why, n]) => [shown(why), n]));
}

/**
 * Where a pattern rule matches a text: its regular expressions (each match passing the rule's
 * `accept` check) or its `scan` function (rule sets that are not one regular expression, such as
 * secretlint's scanners). Shared by the verdict, the masks of its excerpts and ingest's secret
 * spans, so that all three agree. Pure; no I/O.
 */
import type { PatternRule } from './rules.js';

export interface RuleMatch {
  /** Offsets in the text, end exclusive. */
  start: number;
  end: number;
}

/** Every match of `rule` in `text`, in pattern order. */
export function* ruleMatches(rule: PatternRule, text: string): Generator<RuleMatch> {
  if (rule.needs !== undefined && !rule.needs.test(text)) return;
  if (rule.scan !== undefined) {
    yield* rule.scan(text);
    return;
  }
  for (const pattern of rule.patterns) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      if (m[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      if (rule.accept === undefined || rule.accept(m)) yield { start: m.index, end: m.index + m[0].length };
    }
  }
}

/** The first match of `rule` in `text`, if any. */
export function firstRuleMatch(rule: PatternRule, text: string): RuleMatch | undefined {
  for (const m of ruleMatches(rule, text)) return m;
  return undefined;
}

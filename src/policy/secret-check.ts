/**
 * The secret rules apart from the others: their list, the token views they read and their matches
 * (a complement counts only where no other secret rule matched). Shared by the verdict
 * (evaluate.ts) and by the readers of secrets alone (secret-spans.ts: a recorded query's mask,
 * ingest's secret spans), which so load neither the injection lexicon nor the screen of every
 * rule. Pure; no I/O.
 */
import { tokenViews, type View } from './decode.js';
import { type DeobfuscatedView, deobfuscatedViews } from './deobfuscate.js';
import { firstRuleMatch, ruleMatches } from './match.js';
import { normalise } from './normalize.js';
import type { PatternRule } from './rules.js';
import { SECRETLINT_RULES } from './secretlint.js';
import { SECRET_RULES } from './secrets.js';

/** The secret rules, in evaluation order (the first pattern rules). */
export const SECRET_PATTERN_RULES: readonly PatternRule[] = Object.freeze([...SECRET_RULES, ...SECRETLINT_RULES]);

export interface Span {
  start: number;
  end: number;
}

/**
 * The views the token rules read: the normalised text, its joined and decoded forms (decode.ts)
 * and the obfuscations undone (tag characters, bidi, entities, spaced letters, leetspeak,
 * emphasis, reversal: deobfuscate.ts) that are token views. `base` and `undone`: the normalised
 * text and its deobfuscated views, when the caller has them.
 */
export function tokenViewsOf(
  text: string,
  budget: number,
  base: string = normalise(text),
  undone: readonly DeobfuscatedView[] = deobfuscatedViews(text),
): View[] {
  const token = tokenViews(base, { chars: budget });
  for (const v of undone) if (v.token) token.push({ text: normalise(v.text), label: v.label });
  return token;
}

/** Where the secret rules that are not complements match `text` (for the complements' overlap check). */
function primarySecretSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const rule of SECRET_PATTERN_RULES) {
    if (rule.group !== 'secret' || rule.complements) continue;
    for (const m of ruleMatches(rule, text)) spans.push(m);
  }
  return spans;
}

/**
 * The first match of `rule` in `view`; a complement rule's match counts only where no other secret
 * rule matched. `primary` keeps those rules' spans per view across calls.
 */
export function matchIn(rule: PatternRule, view: View, primary: Map<View, Span[]>): Span | undefined {
  if (!rule.complements) return firstRuleMatch(rule, view.text);
  for (const m of ruleMatches(rule, view.text)) {
    let taken = primary.get(view);
    if (taken === undefined) {
      taken = primarySecretSpans(view.text);
      primary.set(view, taken);
    }
    if (!taken.some((s) => s.start < m.end && s.end > m.start)) return m;
  }
  return undefined;
}

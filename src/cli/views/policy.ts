/** Text views of `engram policy check` (the verdict and what matched) and `engram policy rules`. */
import type { PolicyVerdict } from '../../policy/evaluate.js';
import type { PolicyRule } from '../../policy/rules.js';
import type { Palette } from './palette.js';

/** `engram policy rules`: every rule of the write policy. */
export interface RulesView {
  rules: readonly PolicyRule[];
}

export function policyView(d: PolicyVerdict, p: Palette): string {
  const verdict = d.verdict === 'accept' ? 'accept' : p.yellow(d.verdict);
  return [verdict, ...d.matches.map((m) => `  ${p.bold(m.rule)} (${m.action})  ${p.dim(m.excerpt)}`)].join('\n');
}

export function rulesView(d: RulesView, p: Palette): string {
  return d.rules.map((r) => `${p.bold(r.id.padEnd(34))} ${r.action.padEnd(10)} ${r.description}`).join('\n');
}

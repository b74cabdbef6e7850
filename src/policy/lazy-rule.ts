/**
 * Pattern rules whose expressions are made when they are first read. V8 parses an expression when
 * it is made, not when it first runs: the policy's 291 expressions took 3.3 ms to make in a fresh
 * process (one under `giu` with `\p{L}` alone 0.6 ms), paid by every command that loads the rules,
 * while the screen (screen.ts) lets a short text reach only the few rules whose literals it holds.
 * A rule written with `patterns: () => […]` (and `needs: () => …`) reads as any {@link PatternRule}:
 * `patterns` and `needs` are getters that make their expressions once, on the first read.
 */
import type { PatternRule } from './rules.js';

/** A rule as written: its expressions behind functions, made on first use. */
export type RuleDefinition = Omit<PatternRule, 'patterns' | 'needs'> & {
  patterns: () => readonly RegExp[];
  needs?: () => RegExp;
};

/**
 * The rule `definition` describes, its `patterns` and `needs` made on first read.
 *
 * @example
 * const rule = lazyRule({
 *   id: 'pii.x', group: 'pii', action: 'quarantine', kind: 'token', description: '…', patterns: () => [/x/g],
 * });
 * rule.patterns; // [/x/g], made now
 */
export function lazyRule(definition: RuleDefinition): PatternRule {
  const { patterns, needs, ...rest } = definition;
  let made: readonly RegExp[] | undefined;
  let test: RegExp | undefined;
  const rule = { ...rest } as PatternRule;
  Object.defineProperty(rule, 'patterns', { get: () => (made ??= patterns()), enumerable: true });
  if (needs !== undefined) Object.defineProperty(rule, 'needs', { get: () => (test ??= needs()), enumerable: true });
  return rule;
}

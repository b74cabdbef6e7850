/**
 * The write policy as a library user or the CLI's `engram policy` sees it: a verdict on any text
 * without storing anything, and the rules it applies.
 */
import { evaluatePolicy, type PolicyOptions, type PolicySubject, type PolicyVerdict } from './evaluate.js';
import { ALL_RULES, type PolicyRule } from './rules.js';

/**
 * The write policy's verdict on any text, without storing anything (`engram policy check`).
 *
 * @example
 * checkPolicy({ content: 'Deploys run from the release branch' }).verdict; // 'accept'
 */
export function checkPolicy(subject: PolicySubject, options: PolicyOptions = {}): PolicyVerdict {
  return evaluatePolicy(subject, options);
}

/** Every rule of the write policy: id, group, action and description (`engram policy rules`). */
export const POLICY_RULES: readonly PolicyRule[] = ALL_RULES;

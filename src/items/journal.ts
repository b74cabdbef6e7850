/**
 * What the audit trail of a write may say about the policy: the writer (`writer.ts`) records the
 * stored version as a revision and one event, with these details when the policy had a say.
 */
import type { PolicyVerdict } from '../policy/evaluate.js';

/** Event details for a policy verdict: rule ids only, never excerpts (an event is forever). */
export function policyDetails(policy: PolicyVerdict): Record<string, unknown> {
  if (policy.verdict === 'accept') return {};
  return { policy: { verdict: policy.verdict, rules: policy.matches.map((m) => m.rule) } };
}

/**
 * The write policy for stored strings that are not an item: workspace names, scopes, corpus ids
 * and descriptions, reject reasons, the session actor, an imported revision's actor and reason.
 * None of them can be quarantined, so a field is refused (POLICY_REJECTED, naming the field) when
 * a rejecting rule matches or when it hides characters ({@link HIDDEN_CHARACTERS_RULE}); the
 * quarantining rules (personal data, self-instructions) do not refuse a label. Recorded queries
 * are not refused — a read must not fail — but stored with their secrets masked (`redactSecrets`,
 * policy/secret-spans.ts). Pure.
 */
import { EngramError } from '../errors.js';
import { evaluatePolicy } from '../policy/evaluate.js';
import { HIDDEN_CHARACTERS_RULE } from '../policy/hidden-characters.js';
import { policyRejected } from './admission.js';

/**
 * Refuses the first field (in order) that the policy rejects; fields that are undefined, null or
 * empty are skipped.
 *
 * @example
 * requireCleanFields({ description: 'Audit workspace' }); // returns; a key in it throws POLICY_REJECTED
 */
export function requireCleanFields(fields: Readonly<Record<string, string | null | undefined>>): void {
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined || value === null || value === '') continue;
    const policy = evaluatePolicy({ content: value }, { ignoreSize: true });
    const refusing = policy.matches.filter((m) => m.action === 'reject' || m.rule === HIDDEN_CHARACTERS_RULE.id);
    if (refusing.length === 0) continue;
    const refused = policyRejected({ verdict: 'reject', matches: refusing.map((m) => ({ ...m, action: 'reject' })) });
    throw new EngramError('POLICY_REJECTED', `${refused.message} (in ${field})`, {
      hint: refused.hint,
      details: { ...refused.details, field },
    });
  }
}

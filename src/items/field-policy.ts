/**
 * The write policy for stored strings that are not an item: workspace names, scopes, corpus ids
 * and descriptions, reject reasons, the session actor, an imported revision's actor and reason.
 * None of them can be quarantined, so a field is refused (POLICY_REJECTED, naming the field) when
 * a rejecting rule matches or when it hides characters ({@link HIDDEN_CHARACTERS_RULE}); the
 * quarantining rules (personal data, self-instructions) do not refuse a label. Recorded queries
 * are not refused — a read must not fail — but stored with their secrets masked
 * ({@link redactSecrets}). Pure.
 */
import { EngramError } from '../errors.js';
import { evaluatePolicy } from '../policy/evaluate.js';
import { HIDDEN_CHARACTERS_RULE } from '../policy/hidden-characters.js';
import { secretSpans } from '../policy/secret-spans.js';
import { policyRejected } from './admission.js';

/** The mask a recorded query shows where a secret was. */
export const REDACTED = '[REDACTED]';

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

/**
 * `text` with every secret the policy's secret rules find replaced by `[REDACTED]`, for text that
 * is recorded but must never be refused (a recall query). When the policy still finds a secret in
 * what is left (one only a normalised, joined or decoded view shows, which has no span in the text
 * as written), the whole text is replaced.
 *
 * @example
 * redactSecrets(`deploy key ${key}`); // 'deploy key [REDACTED]'
 */
export function redactSecrets(text: string): string {
  const spans = secretSpans(text).sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const span of spans) {
    if (span.end <= at) continue;
    out += `${text.slice(at, Math.max(at, span.start))}${REDACTED}`;
    at = span.end;
  }
  out += text.slice(at);
  // Only the secret rules: the others' matches would not change the answer.
  const left = evaluatePolicy({ content: out }, { ignoreSize: true, privileged: true, groups: ['secret'] });
  return left.matches.some((m) => m.group === 'secret') ? REDACTED : out;
}

/**
 * Where the secrets of a long text are: the spans matched by the rejecting secret rules in the
 * text as it is. Ingest checks each chunk on its own, and a secret longer than a chunk (a private
 * key block) would leave its tail in a chunk that does not look like one; with these spans every
 * chunk a secret reaches is refused. Pure; no I/O.
 */
import { PATTERN_RULES } from './rules.js';

export interface SecretSpan {
  rule: string;
  /** Offsets in the text, end exclusive. */
  start: number;
  end: number;
}

const SECRET_RULES = PATTERN_RULES.filter((r) => r.group === 'secret' && r.action === 'reject');

/**
 * The spans of every secret in `text`, in rule order.
 *
 * @example
 * secretSpans(`key ${awsKeyId} here`); // [{ rule: 'secret.aws-access-key', start: 4, end: 24 }]
 */
export function secretSpans(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const rule of SECRET_RULES) {
    if (rule.needs !== undefined && !rule.needs.test(text)) continue;
    for (const pattern of rule.patterns) {
      pattern.lastIndex = 0;
      for (const m of text.matchAll(pattern)) {
        if (m[0].length > 0 && (rule.accept === undefined || rule.accept(m as RegExpExecArray))) {
          spans.push({ rule: rule.id, start: m.index, end: m.index + m[0].length });
        }
      }
    }
  }
  return spans;
}

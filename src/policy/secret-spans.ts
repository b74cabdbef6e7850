/**
 * Where the secrets of a long text are: the spans matched by the rejecting secret rules in the
 * text as it is, in its unsplit form and in its decoded runs (mapped back to the text). Ingest
 * checks each chunk on its own, and a secret longer than a chunk (a private key block) or split
 * across chunks would leave pieces in chunks that do not look like one; with these spans every
 * chunk a secret reaches is refused. Pure; no I/O.
 */
import { spanIn, tokenViews, WHOLE_FILE_DECODE_BUDGET } from './decode.js';
import { ruleMatches } from './match.js';
import { PATTERN_RULES } from './rules.js';
import { screenText } from './screen.js';

export interface SecretSpan {
  rule: string;
  /** Offsets in the text, end exclusive. */
  start: number;
  end: number;
}

const SECRET_RULES = PATTERN_RULES.filter((r) => r.group === 'secret' && r.action === 'reject');

/**
 * The spans of every secret in `text`, in rule order. A complementing rule (secretlint's, the
 * generic detectors) adds only spans no other rule found.
 *
 * @example
 * secretSpans(`key ${awsKeyId} here`); // [{ rule: 'secret.aws-access-key', start: 4, end: 24 }]
 */
export function secretSpans(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  const views = tokenViews(text, { chars: WHOLE_FILE_DECODE_BUDGET });
  const base = views[0];
  const screens = views.map((view) => screenText(view.text, 'token'));
  for (const rule of SECRET_RULES) {
    for (const [i, view] of views.entries()) {
      if (screens[i]?.admits(rule) === false) continue;
      for (const m of ruleMatches(rule, view.text)) {
        const span = base === undefined || view === base ? m : spanIn(view, base, m.start, m.end);
        const overlaps = spans.some((s) => s.start < span.end && s.end > span.start);
        if (rule.complements && overlaps) continue;
        if (view !== base && overlaps) continue;
        spans.push({ rule: rule.id, start: span.start, end: span.end });
      }
    }
  }
  return spans;
}

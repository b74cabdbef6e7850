/**
 * Secrets alone, read with the secret rules only (secret-check.ts) and their own screen, so that
 * a reader of secrets loads neither the injection lexicon nor the screen of every rule:
 * - where the secrets of a long text are: the spans matched by the rejecting secret rules in the
 *   text as it is, in its unsplit form and in its decoded runs (mapped back to the text). Ingest
 *   checks each chunk on its own, and a secret longer than a chunk (a private key block) or split
 *   across chunks would leave pieces in chunks that do not look like one; with these spans every
 *   chunk a secret reaches is refused;
 * - a text with its secrets masked, for text that is recorded but must never be refused (a
 *   recall query).
 * Pure; no I/O.
 */
import { spanIn, tokenViews, type View, WHOLE_FILE_DECODE_BUDGET } from './decode.js';
import { ruleMatches } from './match.js';
import { createScreener, tablesCheckedAtBuild, tablesFit } from './screen.js';
import { matchIn, SECRET_PATTERN_RULES, type Span, tokenViewsOf } from './secret-check.js';
import { holdsNoSecret } from './secret-precheck.js';
import { SECRET_SCREEN_LITERALS } from './secret-screen-literals.generated.js';

export interface SecretSpan {
  rule: string;
  /** Offsets in the text, end exclusive. */
  start: number;
  end: number;
}

/** The mask a recorded query shows where a secret was. */
export const REDACTED = '[REDACTED]';

const REJECTING = SECRET_PATTERN_RULES.filter((r) => r.group === 'secret' && r.action === 'reject');
const screenSecrets = createScreener(SECRET_PATTERN_RULES, SECRET_SCREEN_LITERALS);

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
  const screens = views.map((view) => screenSecrets(view.text, 'token'));
  for (const rule of REJECTING) {
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

/**
 * Whether a rejecting secret rule matches any token view of `text` (the normalised, joined,
 * decoded and deobfuscated forms): what the verdict of a privileged write reports for the secret
 * group (`evaluatePolicy(…, { ignoreSize, privileged, groups: ['secret'] })`).
 */
export function findsSecret(text: string): boolean {
  const views = tokenViewsOf(text, WHOLE_FILE_DECODE_BUDGET);
  const screens = new Map<View, ReturnType<typeof screenSecrets>>();
  const primary = new Map<View, Span[]>();
  for (const rule of REJECTING) {
    for (const view of views) {
      if (!screens.has(view)) screens.set(view, screenSecrets(view.text, 'token'));
      if (screens.get(view)?.admits(rule) === false) continue;
      if (matchIn(rule, view, primary) !== undefined) return true;
    }
  }
  return false;
}

/** `text` with each of its {@link secretSpans} replaced by `[REDACTED]` (overlapping spans once). */
export function maskSecretSpans(text: string): string {
  const spans = secretSpans(text).sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const span of spans) {
    if (span.end <= at) continue;
    out += `${text.slice(at, Math.max(at, span.start))}${REDACTED}`;
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * `text` with every secret the secret rules find replaced by `[REDACTED]`, for text that is
 * recorded but must never be refused (a recall query). When a secret is still found in what is
 * left (one only a normalised, joined or decoded view shows, which has no span in the text as
 * written), the whole text is replaced.
 *
 * A text that {@link holdsNoSecret} clears is returned at once (a file name, a plain query).
 *
 * @example
 * redactSecrets(`deploy key ${key}`); // 'deploy key [REDACTED]'
 */
export function redactSecrets(text: string): string {
  return tablesTrusted() && holdsNoSecret(text) ? text : maskSecrets(text);
}

/** {@link redactSecrets} read in full, whatever the text. */
export function maskSecrets(text: string): string {
  const out = maskSecretSpans(text);
  return out !== '' && findsSecret(out) ? REDACTED : out;
}

let trusted: boolean | undefined;

/** Whether the secret screen's generated tables fit the secret rules (the bundle's build checked them). */
function tablesTrusted(): boolean {
  trusted ??= tablesCheckedAtBuild() || tablesFit(SECRET_PATTERN_RULES, SECRET_SCREEN_LITERALS);
  return trusted;
}

/**
 * The policy verdict for a proposed write: `reject` when any rejecting rule matches, else
 * `quarantine` when any quarantining rule matches, else `accept`. Every matching rule is reported
 * with a short excerpt in which secrets and personal data are masked, so a verdict can be shown,
 * logged or stored in an event without repeating what it refused. Pure; no I/O.
 */
import { DECODE_BUDGET, derivesFrom, spanIn, type View, WHOLE_FILE_DECODE_BUDGET } from './decode.js';
import { deobfuscatedViews, hiddenView } from './deobfuscate.js';
import { hiddenCharacterMatch } from './hidden-characters.js';
import { ruleMatches } from './match.js';
import { foldPhrases, normalise } from './normalize.js';
import { createScreener, type Screen } from './screen.js';
import { SCREEN_LITERALS } from './screen-literals.generated.js';
import { matchIn, type Span, tokenViewsOf } from './secret-check.js';
import {
  MAX_CONTENT_CHARS,
  PATTERN_RULES,
  type PatternRule,
  type PolicyAction,
  type PolicyGroup,
  PROVENANCE_RULE,
  SIZE_RULE,
} from './rules.js';

export type Verdict = 'accept' | 'quarantine' | 'reject';

export interface PolicyMatch {
  rule: string;
  group: PolicyGroup;
  action: PolicyAction;
  /** Where it matched, with secrets and personal data replaced by `[REDACTED]`. */
  excerpt: string;
}

export interface PolicyVerdict {
  verdict: Verdict;
  matches: PolicyMatch[];
}

/** The text-bearing fields of an item (or any text: pass it as `content`). */
export interface PolicySubject {
  content: string;
  title?: string;
  type?: string;
  tags?: readonly string[];
  entities?: readonly string[];
  source?: string | null;
  provenance?: Record<string, unknown> | null;
  /** The item's other stored strings: its id (as imported), logical address, scope and corpus. */
  id?: string;
  key?: string | null;
  task_id?: string | null;
  step_id?: string | null;
  scope?: string;
  corpus_id?: string | null;
}

export interface PolicyOptions {
  /** Privileged writers skip the quarantine rules; secrets, injection and tool calls still reject. */
  privileged?: boolean;
  /** Agent proposals must say where they come from or why they are stored (KOAS). */
  requireProvenance?: boolean;
  /** Skip the size rule (for `policy check` of a whole file, which ingest would chunk). */
  ignoreSize?: boolean;
  /**
   * Run only the pattern rules of these groups (a recorded query reads only the `secret` group);
   * their matches and excerpts are those of a full evaluation.
   */
  groups?: readonly PolicyGroup[];
}

const EXCERPT_CONTEXT = 24;
const KEY_LIKE = /[A-Za-z0-9+/_=-]{16,}/g;
const MASKED_GROUPS: ReadonlySet<PolicyGroup> = new Set(['secret', 'pii']);
/** Privileged writers skip the quarantine rules. */
const PRIVILEGED_RULES = PATTERN_RULES.filter((rule) => rule.action !== 'quarantine');
/** The screen of every pattern rule (screen.ts). */
const screenText = createScreener(PATTERN_RULES, SCREEN_LITERALS);

function subjectText(subject: PolicySubject): string {
  const parts = [subject.title ?? '', subject.content, (subject.tags ?? []).join(' '), (subject.entities ?? []).join(' ')];
  if (subject.source) parts.push(subject.source);
  if (subject.provenance) parts.push(JSON.stringify(subject.provenance));
  // Each on its own line after a `;` line, so that joining lines never glues one to the content
  // (a key split over the content's last lines must still end where it ends).
  const fields = [subject.id, subject.key, subject.task_id, subject.step_id, subject.scope, subject.corpus_id];
  for (const field of fields) if (field) parts.push(`;\n${field}`);
  // Tags and entities are stored in lower case: a key whose format is upper case (an AWS key id)
  // is read in upper case too.
  const long = [...(subject.tags ?? []), ...(subject.entities ?? [])].filter((t) => t.length >= 16 && /\d/.test(t));
  if (long.length > 0) parts.push(`;\n${long.join(' ').toUpperCase()}`);
  return parts.filter((p) => p !== '').join('\n');
}

function viewsOf(text: string, budget: number, phrases: boolean): { token: View[]; phrase: View[] } {
  const base = normalise(text);
  // Obfuscations undone (tag characters, bidi, entities, spaced letters, leetspeak, emphasis,
  // reversal) and the hidden places of the text: see deobfuscate.ts.
  const extra = deobfuscatedViews(text);
  const token = tokenViewsOf(text, budget, base, extra);
  if (!phrases) return { token, phrase: [] };
  // Phrase views are lower case: the compiled lexicon patterns have no `i` flag.
  const phrase = token.map((v) => ({ text: foldPhrases(v.text).toLowerCase(), label: v.label }));
  for (const v of extra) {
    if (!v.token) phrase.push({ text: foldPhrases(normalise(v.text)).toLowerCase(), label: v.label });
  }
  const hidden = hiddenView(base);
  if (hidden !== undefined) phrase.push({ text: foldPhrases(hidden).toLowerCase(), label: 'hidden: ' });
  return { token, phrase };
}

/** Spans of a view that hold a secret or personal data, by the masked groups' rules. */
function sensitiveSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const rule of PATTERN_RULES) {
    if (!MASKED_GROUPS.has(rule.group)) continue;
    for (const m of ruleMatches(rule, text)) spans.push(m);
  }
  return spans;
}

/**
 * What the excerpts of one text must hide: per view, the secrets and personal data found in it
 * and in every view derived from it, mapped back to where their pieces sit — so a secret that
 * only a joined or decoded view reveals is hidden wherever it shows.
 */
class Masks {
  private readonly own = new Map<View, Span[]>();
  private readonly all = new Map<View, Span[]>();

  constructor(private readonly views: readonly View[]) {}

  /** The sensitive spans found in `view` itself. */
  ownSpans(view: View): Span[] {
    let spans = this.own.get(view);
    if (spans === undefined) {
      spans = sensitiveSpans(view.text);
      this.own.set(view, spans);
    }
    return spans;
  }

  /** The spans to hide in an excerpt of `view`. */
  spans(view: View): Span[] {
    let spans = this.all.get(view);
    if (spans === undefined) {
      spans = [...this.ownSpans(view)];
      for (const derived of this.views) {
        if (!derivesFrom(derived, view)) continue;
        for (const s of this.ownSpans(derived)) spans.push(spanIn(derived, view, s.start, s.end));
      }
      this.all.set(view, spans);
    }
    return spans;
  }
}

function excerpt(view: View, match: Span, masked: readonly Span[], context: number): string {
  const from = Math.max(0, match.start - context);
  const to = Math.min(view.text.length, match.end + context);
  const cuts = masked
    .filter((s) => s.end > from && s.start < to)
    .sort((a, b) => a.start - b.start);
  let out = '';
  let at = from;
  for (const span of cuts) {
    if (span.start > at) out += view.text.slice(at, span.start);
    if (span.end > at) {
      out += '[REDACTED]';
      at = span.end;
    }
  }
  if (to > at) out += view.text.slice(at, to);
  // Belt and braces: any other long key-like token in the context is masked too.
  const text = out.replace(/\s+/g, ' ').trim().replace(KEY_LIKE, (t) => (/\d/.test(t) && /[A-Za-z]/.test(t) ? '[REDACTED]' : t));
  return `${view.label}${from > 0 ? '…' : ''}${text}${to < view.text.length ? '…' : ''}`;
}

function codePointLength(text: string, atMost: number): number {
  if (text.length <= atMost) return text.length;
  return text.length - (text.match(/[\uD800-\uDBFF]/g)?.length ?? 0);
}

/**
 * Evaluates a proposed write against every rule.
 *
 * @example
 * evaluatePolicy({ content: 'Deploys run from the release branch' }).verdict; // 'accept'
 */
export function evaluatePolicy(subject: PolicySubject, options: PolicyOptions = {}): PolicyVerdict {
  const matches: PolicyMatch[] = [];
  // The size rule first: an oversized write is refused without running every rule over it.
  if (!options.ignoreSize && subject.type !== 'pointer') {
    const length = codePointLength(subject.content, MAX_CONTENT_CHARS);
    if (length > MAX_CONTENT_CHARS) {
      matches.push({
        rule: SIZE_RULE.id,
        group: SIZE_RULE.group,
        action: SIZE_RULE.action,
        excerpt: `${length} characters (limit ${MAX_CONTENT_CHARS})`,
      });
      return { verdict: 'reject', matches };
    }
  }
  const budget = options.ignoreSize ? WHOLE_FILE_DECODE_BUDGET : DECODE_BUDGET;
  const text = subjectText(subject);
  const { groups } = options;
  const rules = options.privileged ? PRIVILEGED_RULES : PATTERN_RULES;
  const run = groups === undefined ? rules : rules.filter((rule) => groups.includes(rule.group));
  const { token, phrase } = viewsOf(text, budget, groups === undefined || run.some((rule) => rule.kind === 'phrase'));
  const masks = new Masks(token);
  const primary = new Map<View, Span[]>();
  // Each view is screened once: the rules none of whose words it holds are not run on it.
  const screens = new Map<View, Screen | undefined>();
  const admits = (rule: PatternRule, view: View) => {
    if (!screens.has(view)) screens.set(view, screenText(view.text, rule.kind));
    return screens.get(view)?.admits(rule) !== false;
  };
  for (const rule of run) {
    const views = rule.kind === 'token' ? token : phrase;
    for (const view of views) {
      if (!admits(rule, view)) continue;
      const span = matchIn(rule, view, primary);
      if (span === undefined) continue;
      const spans = masks.spans(view);
      const hide = MASKED_GROUPS.has(rule.group) ? [...spans, span] : spans;
      // A secret is shown without context: its neighbouring text may hold pieces of it that no
      // view put together (a split no rule recognised). Once a secret was found, other excerpts
      // lose their context too, for the same reason.
      const context = rule.group === 'secret' || matches.some((x) => x.group === 'secret') ? 0 : EXCERPT_CONTEXT;
      const shown = excerpt(view, span, hide, context);
      matches.push({ rule: rule.id, group: rule.group, action: rule.action, excerpt: shown });
      break;
    }
  }
  // Normalisation removes invisible characters before the rules match: this one reads the text as written.
  const hidden = options.privileged ? undefined : hiddenCharacterMatch(text);
  if (hidden !== undefined) matches.push(hidden);
  if (options.requireProvenance && !options.privileged && !hasProvenance(subject.provenance)) {
    matches.push({
      rule: PROVENANCE_RULE.id,
      group: PROVENANCE_RULE.group,
      action: PROVENANCE_RULE.action,
      excerpt: 'no provenance or justification given',
    });
  }
  const verdict: Verdict = matches.some((m) => m.action === 'reject')
    ? 'reject'
    : matches.length > 0
      ? 'quarantine'
      : 'accept';
  return { verdict, matches };
}

function hasProvenance(provenance: Record<string, unknown> | null | undefined): boolean {
  if (!provenance) return false;
  return Object.values(provenance).some((v) => v !== null && v !== undefined && v !== '');
}

/**
 * The policy verdict for a proposed write: `reject` when any rejecting rule matches, else
 * `quarantine` when any quarantining rule matches, else `accept`. Every matching rule is reported
 * with a short excerpt in which secrets and personal data are masked, so a verdict can be shown,
 * logged or stored in an event without repeating what it refused. Pure; no I/O.
 */
import { deobfuscatedViews, hiddenView } from './deobfuscate.js';
import { decodeBase64Runs, foldPhrases, joinedOffsets, joinLines, normalise } from './normalize.js';
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
}

export interface PolicyOptions {
  /** Privileged writers skip the quarantine rules; secrets, injection and tool calls still reject. */
  privileged?: boolean;
  /** Agent proposals must say where they come from or why they are stored (KOAS). */
  requireProvenance?: boolean;
  /** Skip the size rule (for `policy check` of a whole file, which ingest would chunk). */
  ignoreSize?: boolean;
}

interface View {
  text: string;
  /** Prefix shown before excerpts from this view. */
  label: string;
  /** For the joined-lines view: the view it was made from, and where each character came from. */
  origin?: { view: View; offsets: number[] };
}

interface Span {
  start: number;
  end: number;
}

const EXCERPT_CONTEXT = 24;
const KEY_LIKE = /[A-Za-z0-9+/_=-]{16,}/g;
const MASKED_GROUPS: ReadonlySet<PolicyGroup> = new Set(['secret', 'pii']);

function subjectText(subject: PolicySubject): string {
  const parts = [subject.title ?? '', subject.content, (subject.tags ?? []).join(' '), (subject.entities ?? []).join(' ')];
  if (subject.source) parts.push(subject.source);
  if (subject.provenance) parts.push(JSON.stringify(subject.provenance));
  return parts.filter((p) => p !== '').join('\n');
}

function viewsOf(text: string): { token: View[]; phrase: View[] } {
  const token: View[] = [];
  const addWithJoined = (view: View) => {
    token.push(view);
    const joined = joinLines(view.text);
    if (joined !== view.text) {
      token.push({ text: joined, label: `${view.label}joined lines: `, origin: { view, offsets: joinedOffsets(view.text) } });
    }
  };
  const base = normalise(text);
  addWithJoined({ text: base, label: '' });
  for (const decoded of decodeBase64Runs(base)) addWithJoined({ text: normalise(decoded), label: 'base64: ' });
  // Obfuscations undone (tag characters, bidi, entities, spaced letters, leetspeak, emphasis,
  // reversal) and the hidden places of the text: see deobfuscate.ts.
  const extra = deobfuscatedViews(text);
  for (const v of extra) if (v.token) token.push({ text: normalise(v.text), label: v.label });
  // Phrase views are lower case: the compiled lexicon patterns have no `i` flag.
  const phrase = token.map((v) => ({ text: foldPhrases(v.text).toLowerCase(), label: v.label }));
  for (const v of extra) {
    if (!v.token) phrase.push({ text: foldPhrases(normalise(v.text)).toLowerCase(), label: v.label });
  }
  const hidden = hiddenView(base);
  if (hidden !== undefined) phrase.push({ text: foldPhrases(hidden).toLowerCase(), label: 'hidden: ' });
  return { token, phrase };
}

function firstMatch(rule: PatternRule, text: string): RegExpExecArray | undefined {
  if (rule.needs !== undefined && !rule.needs.test(text)) return undefined;
  for (const pattern of rule.patterns) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      if (m[0].length === 0) pattern.lastIndex++;
      else if (rule.accept === undefined || rule.accept(m)) return m;
    }
  }
  return undefined;
}

/**
 * Spans of a view that hold a secret or personal data, to be masked in any excerpt — including
 * a secret only its joined-lines view reveals, mapped back to where its pieces sit.
 */
function maskedSpans(view: View, views: readonly View[]): Span[] {
  const spans = sensitiveSpans(view.text);
  for (const derived of views) {
    if (derived.origin?.view !== view) continue;
    const { offsets } = derived.origin;
    for (const s of sensitiveSpans(derived.text)) {
      spans.push({ start: offsets[s.start] ?? 0, end: (offsets[s.end - 1] ?? view.text.length - 1) + 1 });
    }
  }
  return spans;
}

function sensitiveSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const rule of PATTERN_RULES) {
    if (!MASKED_GROUPS.has(rule.group) || (rule.needs !== undefined && !rule.needs.test(text))) continue;
    for (const pattern of rule.patterns) {
      pattern.lastIndex = 0;
      for (const m of text.matchAll(pattern)) {
        if (m[0].length > 0 && (rule.accept === undefined || rule.accept(m as RegExpExecArray))) {
          spans.push({ start: m.index, end: m.index + m[0].length });
        }
      }
    }
  }
  return spans;
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
  const { token, phrase } = viewsOf(subjectText(subject));
  let masks: Map<View, Span[]> | undefined;
  for (const rule of PATTERN_RULES) {
    if (options.privileged && rule.action === 'quarantine') continue;
    for (const view of rule.kind === 'token' ? token : phrase) {
      const m = firstMatch(rule, view.text);
      if (m === undefined) continue;
      masks ??= new Map();
      let spans = masks.get(view);
      if (spans === undefined) {
        spans = maskedSpans(view, token);
        masks.set(view, spans);
      }
      const span = { start: m.index, end: m.index + m[0].length };
      const hide = MASKED_GROUPS.has(rule.group) ? [...spans, span] : spans;
      // Once a secret was found, other excerpts lose their context: a piece of a secret split in a
      // way only another view reveals must not show up next to an unrelated match.
      const context = matches.some((x) => x.group === 'secret') ? 0 : EXCERPT_CONTEXT;
      const shown = excerpt(view, span, hide, context);
      matches.push({ rule: rule.id, group: rule.group, action: rule.action, excerpt: shown });
      break;
    }
  }
  if (!options.ignoreSize && subject.type !== 'pointer') {
    const length = codePointLength(subject.content, MAX_CONTENT_CHARS);
    if (length > MAX_CONTENT_CHARS) {
      matches.push({
        rule: SIZE_RULE.id,
        group: SIZE_RULE.group,
        action: SIZE_RULE.action,
        excerpt: `${length} characters (limit ${MAX_CONTENT_CHARS})`,
      });
    }
  }
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

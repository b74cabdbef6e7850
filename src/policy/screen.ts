/**
 * A one-pass screen of a text before the pattern rules run: each rule's patterns are reduced to
 * the literals a match cannot do without (literals.ts), and one scan of the text finds which of
 * them occur. A rule none of whose literals occurs cannot match, so the verdict skips it; a rule
 * with a pattern that has no such literal (or a `scan` function whose expressions are not known)
 * is always run. The answer is the same as running every rule — only faster on ordinary text,
 * where most rules' words are absent (a 2,000-character note is read once, not once per rule).
 *
 * The scan reads the upper-cased text: a case-insensitive pattern's literals are upper case
 * already, and a case-sensitive literal that occurs in a text occurs upper-cased in the
 * upper-cased text; where upper-casing kept every offset (no `ß` → `SS`) such a literal is then
 * compared as written at the same offset of the text itself.
 *
 * The tables are built on first need (a few milliseconds), and only once the policy has read
 * {@link WARM_CHARS} characters in this process: a single short write never pays for them.
 * Pure; no I/O.
 */
import { requiredLiterals } from './literals.js';
import { PATTERN_RULES, type PatternRule } from './rules.js';

/** Characters read by the policy before the screen is built. */
export const WARM_CHARS = 32_000;

/** `warm`: screen once {@link WARM_CHARS} were read (the default); `always` / `never`: for tests comparing both. */
let screening: 'warm' | 'always' | 'never' = 'warm';

/** Sets when texts are screened (tests check that screening never changes a verdict). */
export function setScreening(mode: 'warm' | 'always' | 'never'): void {
  screening = mode;
}

/** Which rules may match a screened text. */
export interface Screen {
  /** False when `rule` cannot match the text. */
  admits(rule: PatternRule): boolean;
}

interface Entry {
  /** The literal upper-cased, as looked for in the upper-cased text. */
  upper: string;
  /** A case-sensitive literal as written (compared in the text itself when offsets agree). */
  exact?: string;
  /** The requirements it meets (see {@link Tables}). */
  rules: number[];
}

/** The literals starting with the same three code units: up to five long, and longer ones by their first six. */
interface Bucket {
  mid: Entry[];
  long: Map<number, Entry[]>;
}

/**
 * The literals of one kind of rule (token rules read token views, phrase rules phrase views): the
 * shortest looked up whole, the others by a rolling hash of their first three code units and then
 * (most of them, long phrases) of their first six, so that a common word starting many phrases
 * (`the`, `you`) costs one failed lookup instead of a comparison per phrase.
 */
interface Table {
  short: Entry[];
  /** Set where a bucket is, by hash of three code units. */
  bits: Uint8Array;
  buckets: Map<number, Bucket>;
}

/**
 * A rule has one or two requirements, each a set of literals one of which the text must hold: its
 * patterns' (any pattern's literals), and its `needs` test's when that has literals too. A rule
 * may match only when each of its requirements is met.
 */
interface Tables {
  /** A rule's requirements, by rule. */
  index: Map<PatternRule, readonly number[]>;
  /** Requirements met whatever the text (no literal known). */
  always: Uint8Array;
  kinds: Record<PatternRule['kind'], Table>;
}

const HASH_MASK = 0x3ffff;
/** 31^3, taken out of the rolling hash as the window slides. */
const DROP3 = 31 ** 3;

/** The hash of `width` code units of `text` from `at` (the rolling hash computes the same for three). */
function hashOf(text: string, at: number, width: number): number {
  let h = 0;
  for (let i = at; i < at + width; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h & HASH_MASK;
}

function table(entries: Iterable<Entry>): Table {
  const t: Table = { short: [], bits: new Uint8Array(HASH_MASK + 1), buckets: new Map() };
  for (const entry of entries) {
    if (entry.upper.length < 3) {
      t.short.push(entry);
      continue;
    }
    const h = hashOf(entry.upper, 0, 3);
    t.bits[h] = 1;
    let bucket = t.buckets.get(h);
    if (bucket === undefined) t.buckets.set(h, (bucket = { mid: [], long: new Map() }));
    if (entry.upper.length < 6) {
      bucket.mid.push(entry);
      continue;
    }
    const h6 = hashOf(entry.upper, 0, 6);
    const list = bucket.long.get(h6);
    if (list === undefined) bucket.long.set(h6, [entry]);
    else list.push(entry);
  }
  return t;
}

function build(rules: readonly PatternRule[]): Tables {
  const index = new Map<PatternRule, number[]>();
  const always: number[] = [];
  const entries = { token: new Map<string, Entry>(), phrase: new Map<string, Entry>() };
  const requirement = (rule: PatternRule, patterns: readonly RegExp[] | undefined) => {
    const i = always.length;
    (index.get(rule) ?? index.set(rule, []).get(rule) as number[]).push(i);
    const found = patterns === undefined ? [undefined] : patterns.map(requiredLiterals);
    if (found.length === 0 || found.some((l) => l === undefined)) {
      always.push(1);
      return;
    }
    always.push(0);
    for (const each of found) {
      if (each === undefined) continue;
      for (const s of each.strings) {
        const upper = each.fold === 'upper' ? s : s.toUpperCase();
        const exact = each.fold === 'upper' || s === upper ? undefined : s;
        // One entry per literal as written (the same upper case can stand for several).
        const key = `${exact === undefined ? 'U' : 'E'}${exact ?? upper}`;
        const entry = entries[rule.kind].get(key);
        if (entry !== undefined) {
          if (!entry.rules.includes(i)) entry.rules.push(i);
          continue;
        }
        entries[rule.kind].set(key, { upper, ...(exact === undefined ? {} : { exact }), rules: [i] });
      }
    }
  };
  for (const rule of rules) {
    requirement(rule, rule.scan === undefined ? rule.patterns : rule.scanPatterns?.());
    // `needs` is tested before the patterns run: its literals are a second requirement.
    if (rule.needs !== undefined && requiredLiterals(rule.needs) !== undefined) requirement(rule, [rule.needs]);
  }
  const kinds = { token: table(entries.token.values()), phrase: table(entries.phrase.values()) };
  return { index, always: Uint8Array.from(always), kinds };
}

function pending(e: Entry, hit: Uint8Array): boolean {
  for (const r of e.rules) if (hit[r] === 0) return true;
  return false;
}

/** A text and its upper case, and whether their offsets agree. */
interface Scanned {
  text: string;
  upper: string;
  aligned: boolean;
}

/** Marks the rules of `e` when it occurs at `at` (`at` undefined: anywhere). */
function check(e: Entry, s: Scanned, at: number | undefined, hit: Uint8Array): void {
  if (!pending(e, hit)) return;
  const occurs = (text: string, literal: string) =>
    (at === undefined ? text.includes(literal) : text.startsWith(literal, at));
  if (!occurs(s.upper, e.upper)) return;
  if (e.exact !== undefined && s.aligned && !occurs(s.text, e.exact)) return;
  for (const r of e.rules) hit[r] = 1;
}

/** Marks in `hit` the rules of every literal of `t` that occurs in the text (one pass, one rolling hash). */
function scan(s: Scanned, t: Table, hit: Uint8Array): void {
  for (const e of t.short) check(e, s, undefined, hit);
  const { upper } = s;
  const { bits, buckets } = t;
  let h = 0;
  for (let i = 0; i < upper.length; i++) {
    h = (Math.imul(h, 31) + upper.charCodeAt(i)) | 0;
    if (i >= 3) h = (h - Math.imul(DROP3, upper.charCodeAt(i - 3))) | 0;
    if (i < 2 || bits[h & HASH_MASK] !== 1) continue;
    const bucket = buckets.get(h & HASH_MASK) as Bucket;
    const at = i - 2;
    for (const e of bucket.mid) check(e, s, at, hit);
    if (bucket.long.size === 0 || at + 6 > upper.length) continue;
    for (const e of bucket.long.get(hashOf(upper, at, 6)) ?? []) check(e, s, at, hit);
  }
}

/**
 * A screener for `rules`: `screen(text, kind)` tells which rules of that kind may match `text`, or
 * is undefined while the policy has not read enough text to make building the tables worth it.
 *
 * @example
 * const screen = createScreener(PATTERN_RULES);
 * const s = screen(text, 'token');
 * for (const rule of PATTERN_RULES) if (s === undefined || s.admits(rule)) run(rule, text);
 */
export function createScreener(rules: readonly PatternRule[]): (text: string, kind: PatternRule['kind']) => Screen | undefined {
  let tables: Tables | undefined;
  let read = 0;
  return (text, kind) => {
    if (screening === 'never') return undefined;
    if (tables === undefined) {
      read += text.length;
      if (read < WARM_CHARS && screening === 'warm') return undefined;
      tables = build(rules);
    }
    const { index, always } = tables;
    const hit = Uint8Array.from(always);
    const upper = text.toUpperCase();
    scan({ text, upper, aligned: upper.length === text.length }, tables.kinds[kind], hit);
    // Rules of the other kind are not screened here: they read other views.
    return { admits: (rule) => rule.kind !== kind || (index.get(rule) ?? []).every((r) => hit[r] !== 0) };
  };
}

/** The screener of every pattern rule, shared by the verdict and ingest's secret spans. */
export const screenText = createScreener(PATTERN_RULES);

/**
 * The tables of the policy's screen (screen.ts), as plain data: for each pattern rule its
 * requirements, each a set of literals one of which a text must hold (literals.ts reads them from
 * the rule's expressions), and the literals of each kind of rule laid out for one pass over a text.
 * Reading the literals takes tens of milliseconds over the injection rules' large expressions, so
 * `npm run generate:policy` computes {@link screenData} at build time into
 * `screen-literals.generated.ts` (test/policy-generated.test.ts fails when that file is stale),
 * and the screen only looks up into it. Each rule carries a fingerprint of its expressions; the
 * screen uses the generated tables only when every rule still has the fingerprint they were
 * computed from, and computes them again otherwise (the bundle's build checks them instead, and the
 * bundle compares ids alone: screen.ts). Pure.
 */
import { requiredLiterals } from './literals.js';
import type { PatternRule } from './rules.js';

/**
 * One literal: upper-cased (as looked for in the upper-cased text), the literal as written when
 * it is case-sensitive and not upper case (compared in the text itself when offsets agree, else
 * null), and the requirements it meets.
 */
export type EntryData = [upper: string, exact: string | null, requirements: number[]];

/**
 * The literals whose first three code units have the hash `h3`: those up to five long, and the
 * longer ones by the hash of their first six.
 */
export type BucketData = [h3: number, mid: EntryData[], long: [h6: number, entries: EntryData[]][]];

/**
 * The literals of one kind of rule (token rules read token views, phrase rules phrase views): the
 * shortest looked up whole, the others by a rolling hash of their first three code units and then
 * (most of them, long phrases) of their first six, so that a common word starting many phrases
 * (`the`, `you`) costs one failed lookup instead of a comparison per phrase.
 */
export interface KindData {
  short: EntryData[];
  buckets: BucketData[];
}

/**
 * A rule has one or two requirements: its patterns' (any pattern's literals), and its `needs`
 * test's when that has literals too. A rule may match only when each of its requirements is met.
 */
export interface ScreenData {
  rules: { id: string; fingerprint: string; requirements: number[] }[];
  /** Per requirement, 1 when it is met whatever the text (no literal known). */
  always: number[];
  token: KindData;
  phrase: KindData;
}

/**
 * {@link KindData} as the generated modules hold it: each bucket's entries (`[mid, long]`) packed
 * as JSON in UTF-16 base64, read on its first hit. A process that screens a short text so reads a
 * few buckets of the thousand (most are phrases), not all of them at every start.
 *
 * Each packed string is returned by a function of its own (`() => '…'`): V8 compiles a function on
 * its first call, so the string of a bucket no text hit is never made. A string literal at the
 * top of a module is made when the module loads, and is part of its code cache: the 400 KB of the
 * policy's buckets cost a `put` about 2 ms to load before any was read.
 */
export interface PackedKindData {
  short: EntryData[];
  /** The packed string, or a function returning it (the generated modules' form, see above). */
  buckets: [h3: number, packed: string | (() => string)][];
}

/** {@link ScreenData} with its buckets packed (see {@link PackedKindData}). */
export interface PackedScreenData {
  rules: ScreenData['rules'];
  always: number[];
  token: PackedKindData;
  phrase: PackedKindData;
}

/**
 * Data as JSON in UTF-16, in base64: how the generated modules hold the rules' own words and key
 * prefixes, which as plain text would fail the policy check every file of the repository passes
 * (test/policy.test.ts); the policy reads no text in UTF-16.
 */
export function toUtf16Base64(data: unknown): string {
  return Buffer.from(JSON.stringify(data), 'utf16le').toString('base64');
}

/** The data {@link toUtf16Base64} packed. */
export function fromUtf16Base64(packed: string): unknown {
  return JSON.parse(Buffer.from(packed, 'base64').toString('utf16le'));
}

/** Packs `data` as the generated modules hold it. */
export function packScreenData(data: ScreenData): PackedScreenData {
  const kind = ({ short, buckets }: KindData): PackedKindData => ({
    short,
    buckets: buckets.map(([h3, mid, long]) => {
      const packed = toUtf16Base64([mid, long]);
      return [h3, () => packed];
    }),
  });
  return { rules: data.rules, always: data.always, token: kind(data.token), phrase: kind(data.phrase) };
}

/**
 * The packed data of a generated module: its head (rules, requirements met whatever the text, the
 * shortest literals of each kind) packed whole, its buckets one by one.
 */
export function packedScreenData(
  head: string,
  token: PackedKindData['buckets'],
  phrase: PackedKindData['buckets'],
): PackedScreenData {
  const { rules, always, short } = fromUtf16Base64(head) as {
    rules: ScreenData['rules'];
    always: number[];
    short: { token: EntryData[]; phrase: EntryData[] };
  };
  return {
    rules,
    always,
    token: { short: short.token, buckets: token },
    phrase: { short: short.phrase, buckets: phrase },
  };
}

/** The head {@link packedScreenData} reads, packed. */
export function packedHead(data: PackedScreenData): string {
  const short = { token: data.token.short, phrase: data.phrase.short };
  return toUtf16Base64({ rules: data.rules, always: data.always, short });
}

/** A packed bucket's entries. */
export function unpackBucket(packed: string): [mid: EntryData[], long: [h6: number, entries: EntryData[]][]] {
  return fromUtf16Base64(packed) as [EntryData[], [number, EntryData[]][]];
}

export const HASH_MASK = 0x3ffff;

/** The hash of `width` code units of `text` from `at` (the screen's scan computes the same for each three). */
export function hashOf(text: string, at: number, width: number): number {
  let h = 0;
  for (let i = at; i < at + width; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h & HASH_MASK;
}

/**
 * What the literals of `rule` are read from, cheaply (the modules check it at start-up): its expressions'
 * count, flags and lengths and a sample of their characters (a scanner: its id, as its
 * expressions are only known by running it). The freshness test compares the literals themselves.
 */
export function fingerprint(rule: PatternRule): string {
  if (rule.scan !== undefined) return `scan:${rule.id}`;
  let h = 0x811c9dc5;
  // Its length and 16 characters spread over it: a few hundred steps for every rule together.
  const mix = (text: string) => {
    const step = Math.max(1, text.length >> 4);
    h = Math.imul(h ^ text.length, 0x01000193);
    for (let i = 0; i < text.length; i += step) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  };
  for (const p of rule.patterns) {
    mix(p.flags);
    mix(p.source);
  }
  if (rule.needs !== undefined) {
    mix('needs');
    mix(rule.needs.flags);
    mix(rule.needs.source);
  }
  return `${rule.patterns.length}:${(h >>> 0).toString(16).padStart(8, '0')}`;
}

/** The literals of one requirement (undefined: none known, always met). */
function requirementLiterals(patterns: readonly RegExp[] | undefined): { upper: string; exact?: string }[] | undefined {
  const found = patterns === undefined ? [undefined] : patterns.map(requiredLiterals);
  if (found.length === 0 || found.some((l) => l === undefined)) return undefined;
  return found.flatMap((each) => {
    if (each === undefined) return [];
    return each.strings.map((s) => {
      const upper = each.fold === 'upper' ? s : s.toUpperCase();
      return each.fold === 'upper' || s === upper ? { upper } : { upper, exact: s };
    });
  });
}

function kindData(entries: Iterable<EntryData>): KindData {
  const short: EntryData[] = [];
  const buckets = new Map<number, { mid: EntryData[]; long: Map<number, EntryData[]> }>();
  for (const entry of entries) {
    const [upper] = entry;
    if (upper.length < 3) {
      short.push(entry);
      continue;
    }
    const h3 = hashOf(upper, 0, 3);
    let bucket = buckets.get(h3);
    if (bucket === undefined) buckets.set(h3, (bucket = { mid: [], long: new Map() }));
    if (upper.length < 6) {
      bucket.mid.push(entry);
      continue;
    }
    const h6 = hashOf(upper, 0, 6);
    const list = bucket.long.get(h6);
    if (list === undefined) bucket.long.set(h6, [entry]);
    else list.push(entry);
  }
  return { short, buckets: [...buckets].map(([h3, { mid, long }]) => [h3, mid, [...long]]) };
}

/**
 * The screen's tables for `rules`, as `screen-literals.generated.ts` holds them for the policy's.
 *
 * @example
 * screenData(PATTERN_RULES).rules[0]; // { id: 'secret.aws-access-key', fingerprint: '…', requirements: [0, 1] }
 */
export function screenData(rules: readonly PatternRule[]): ScreenData {
  const out: ScreenData['rules'] = [];
  const always: number[] = [];
  const entries = { token: new Map<string, EntryData>(), phrase: new Map<string, EntryData>() };
  const requirement = (rule: PatternRule, own: number[], patterns: readonly RegExp[] | undefined) => {
    const i = always.length;
    own.push(i);
    const literals = requirementLiterals(patterns);
    always.push(literals === undefined ? 1 : 0);
    for (const { upper, exact } of literals ?? []) {
      // One entry per literal as written (the same upper case can stand for several).
      const key = exact === undefined ? `U${upper}` : `E${exact}`;
      const entry = entries[rule.kind].get(key);
      if (entry === undefined) entries[rule.kind].set(key, [upper, exact ?? null, [i]]);
      else if (!entry[2].includes(i)) entry[2].push(i);
    }
  };
  for (const rule of rules) {
    const own: number[] = [];
    requirement(rule, own, rule.scan === undefined ? rule.patterns : rule.scanPatterns?.());
    // `needs` is tested before the patterns run: its literals are a second requirement.
    if (rule.needs !== undefined && requiredLiterals(rule.needs) !== undefined) requirement(rule, own, [rule.needs]);
    out.push({ id: rule.id, fingerprint: fingerprint(rule), requirements: own });
  }
  return { rules: out, always, token: kindData(entries.token.values()), phrase: kindData(entries.phrase.values()) };
}

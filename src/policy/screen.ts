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
 * The tables are computed at build time (screen-data.ts, `screen-literals.generated.ts`) and
 * set up on first need in a millisecond or two, so every text is screened, the first short write
 * of a process too: the rules it skips are never compiled. Pure; no I/O.
 */
import type { PatternRule } from './rules.js';
import {
  type EntryData,
  fingerprint,
  HASH_MASK,
  hashOf,
  type KindData,
  type PackedKindData,
  type PackedScreenData,
  type ScreenData,
  screenData,
  unpackBucket,
} from './screen-data.js';

const NON_ASCII = /[^\0-\x7f]/;

/** `always` (the default); `never`: for tests comparing both. */
let screening: 'always' | 'never' = 'always';

/** Sets whether texts are screened (tests check that screening never changes a verdict). */
export function setScreening(mode: 'always' | 'never'): void {
  screening = mode;
}

/** Which rules may match a screened text. */
export interface Screen {
  /** False when `rule` cannot match the text. */
  admits(rule: PatternRule): boolean;
}

/** Literals with the same first three code units: up to five long, and longer ones by hash of their first six. */
interface Bucket {
  mid: EntryData[];
  long: Map<number, EntryData[]>;
}

/**
 * {@link Table.bits}: no bucket, a bucket not unpacked yet, unpacked with no literal of three code
 * units, with one, or with none under six.
 */
const NONE = 0;
const PACKED = 1;
const FOUR_OR_MORE = 2;
const THREE = 3;
const SIX_OR_MORE = 4;

/** The flags of {@link Table.ahead}. */
const FOUR = 1;
const SIX = 2;

/**
 * The literals of one kind of rule (see {@link KindData}), with the state of the bucket of each
 * three-code-unit hash; the shortest apart by whether they are all ASCII upper-cased (the others
 * cannot occur in a text whose upper case is, as most are).
 */
interface Table {
  short: EntryData[];
  wide: EntryData[];
  /** Per three-code-unit hash: NONE, PACKED, FOUR_OR_MORE, SIX_OR_MORE or THREE. */
  bits: Uint8Array;
  /**
   * Per hash of four or six code units: {@link FOUR} at the hash of the first four of every
   * literal of an unpacked bucket, {@link SIX} at that of the first six of every literal of six or
   * more. A common three (`THE`, `VER`) then costs one more look-up instead of its bucket's where
   * the next code unit starts none of its literals, and where a bucket holds only literals of six or
   * more, a four that starts one of them (`TOKE` in `TOKENS`) costs one more again.
   */
  ahead: Uint8Array;
  /** A bucket, or its packed entries until its first hit. */
  buckets: Map<number, Bucket | Packed>;
}

interface Tables {
  /** A rule's requirements, by rule. */
  index: Map<PatternRule, readonly number[]>;
  /** Requirements met whatever the text (no literal known). */
  always: Uint8Array;
  /** The literals of each kind, laid out on first need (a recorded query reads token views only). */
  kinds: Partial<Record<PatternRule['kind'], Table>>;
  data: ScreenData | PackedScreenData;
}

/** A bucket's entries packed: the string, or a function returning it (screen-data.ts). */
type Packed = PackedKindData['buckets'][number][1];

const isPacked = (value: Bucket | Packed | EntryData[]): value is Packed => typeof value === 'string' || typeof value === 'function';

function table(data: KindData | PackedKindData): Table {
  const bits = new Uint8Array(HASH_MASK + 1);
  const ahead = new Uint8Array(HASH_MASK + 1);
  const buckets = new Map<number, Bucket | Packed>();
  for (const [h3, mid, long] of data.buckets) {
    bits[h3] = PACKED;
    if (isPacked(mid)) buckets.set(h3, mid);
    else buckets.set(h3, unpacked(h3, mid, long ?? [], bits, ahead));
  }
  // By the upper-cased literal alone: that is what must occur in the upper-cased text first, and
  // an ASCII one may stand for a literal that is not (`ı` is looked for as `I`, `ſ` as `S`).
  const ascii = (e: EntryData) => !NON_ASCII.test(e[0]);
  return { short: data.short.filter(ascii), wide: data.short.filter((e) => !ascii(e)), bits, ahead, buckets };
}

/**
 * Defined (as `true`) by the bundle's build, which checks with {@link tablesFit} that the
 * generated tables fit the rules it bundles (scripts/bundle.ts): the bundle then compares the
 * rules' ids alone at start-up and makes none of their expressions (each is made on first use,
 * lazy-rule.ts). The modules compare every rule's fingerprint, as the build does.
 */
declare const ENGRAM_SCREEN_TABLES_CHECKED: boolean | undefined;
const CHECKED_AT_BUILD = typeof ENGRAM_SCREEN_TABLES_CHECKED === 'boolean' && ENGRAM_SCREEN_TABLES_CHECKED;

/**
 * Whether `generated` was computed from `rules` as they are: the same ids, in order, and (unless
 * `ids` only) the same fingerprints, which reads every rule's expressions.
 *
 * @example
 * tablesFit(PATTERN_RULES, SCREEN_LITERALS); // false: run `npm run generate:policy`
 */
export function tablesFit(rules: readonly PatternRule[], generated: PackedScreenData, ids = false): boolean {
  return generated.rules.length === rules.length
    && rules.every((rule, i) => {
      const known = generated.rules[i];
      return known?.id === rule.id && (ids || known.fingerprint === fingerprint(rule));
    });
}

/** True in the bundle, whose build checked its generated tables against its rules ({@link tablesFit}). */
export function tablesCheckedAtBuild(): boolean {
  return CHECKED_AT_BUILD;
}

/** The tables of generated data read without its rules, by data (see {@link meetsAnyRule}). */
const dataTables = new Map<PackedScreenData, { always: Uint8Array; kinds: Partial<Record<PatternRule['kind'], Table>> }>();

/**
 * Whether `text`, read as a `kind` view, holds the literals of every requirement of at least one
 * rule of `data`, all of whose rules are of that kind: false means that no rule of `data` can match
 * the view. For a reader that has the generated tables but has not loaded the rules they were
 * computed from (secret-precheck.ts), so it relies on their fit ({@link tablesCheckedAtBuild}).
 * Undefined when screening is off.
 *
 * @example
 * meetsAnyRule(SECRET_SCREEN_LITERALS, 'which port does staging use', 'token'); // false
 */
export function meetsAnyRule(data: PackedScreenData, text: string, kind: PatternRule['kind']): boolean | undefined {
  if (screening === 'never') return undefined;
  let tables = dataTables.get(data);
  if (tables === undefined) {
    tables = { always: Uint8Array.from(data.always), kinds: {} };
    dataTables.set(data, tables);
  }
  const hit = Uint8Array.from(tables.always);
  const upper = text.toUpperCase();
  const literals = (tables.kinds[kind] ??= table(data[kind]));
  scan({ text, upper, aligned: upper.length === text.length }, literals, hit);
  return data.rules.some((rule) => rule.requirements.every((r) => hit[r] !== 0));
}

/** The tables for `rules`: the generated ones when they fit (see {@link tablesFit}), else computed now. */
function build(rules: readonly PatternRule[], generated: PackedScreenData | undefined): Tables {
  const fits = generated !== undefined && tablesFit(rules, generated, CHECKED_AT_BUILD);
  const data = fits ? generated : screenData(rules);
  const index = new Map(rules.map((rule, i) => [rule, data.rules[i]?.requirements ?? []]));
  return { index, always: Uint8Array.from(data.always), kinds: {}, data };
}

/** Sets `flag` in `ahead` at hash `h`. */
function mark(ahead: Uint8Array, h: number, flag: number): void {
  ahead[h] = (ahead[h] as number) | flag;
}

/** The bucket of hash `h3` laid out, its state and its literals' first four and six code units recorded. */
function unpacked(
  h3: number,
  mid: EntryData[],
  long: [number, EntryData[]][],
  bits: Uint8Array,
  ahead: Uint8Array,
): Bucket {
  let three = false;
  let short = false;
  for (const [upper] of [...mid, ...long.flatMap(([, entries]) => entries)]) {
    if (upper.length === 3) three = true;
    else mark(ahead, hashOf(upper, 0, 4), FOUR);
    if (upper.length < 6) short = true;
    else mark(ahead, hashOf(upper, 0, 6), SIX);
  }
  bits[h3] = three ? THREE : short ? FOUR_OR_MORE : SIX_OR_MORE;
  return { mid, long: new Map(long) };
}

/** The bucket of hash `h` (one there is), unpacked on its first hit. */
function bucketAt(t: Table, h: number): Bucket {
  const found = t.buckets.get(h) as Bucket | Packed;
  if (!isPacked(found)) return found;
  const [mid, long] = unpackBucket(typeof found === 'string' ? found : found());
  const bucket = unpacked(h, mid, long, t.bits, t.ahead);
  t.buckets.set(h, bucket);
  return bucket;
}

function pending(e: EntryData, hit: Uint8Array): boolean {
  for (const r of e[2]) if (hit[r] === 0) return true;
  return false;
}

/** A text and its upper case, and whether their offsets agree. */
interface Scanned {
  text: string;
  upper: string;
  aligned: boolean;
}

function occurs(text: string, literal: string, at: number | undefined): boolean {
  return at === undefined ? text.includes(literal) : text.startsWith(literal, at);
}

/** Marks the rules of `e` when it occurs at `at` (`at` undefined: anywhere). */
function check(e: EntryData, s: Scanned, at: number | undefined, hit: Uint8Array): void {
  if (!pending(e, hit)) return;
  const [upper, exact, rules] = e;
  if (!occurs(s.upper, upper, at)) return;
  if (exact !== null && s.aligned && !occurs(s.text, exact, at)) return;
  for (const r of rules) hit[r] = 1;
}

/** Marks in `hit` the rules of every literal of `t` that occurs in the text (one pass, hashing three code units). */
function scan(s: Scanned, t: Table, hit: Uint8Array): void {
  for (const e of t.short) check(e, s, undefined, hit);
  const { upper } = s;
  const { bits, ahead } = t;
  // The two code units before this one: the hash of three is `hashOf(upper, i - 2, 3)`.
  let c0 = 0;
  let c1 = 0;
  // Every code unit or'ed: 0x80 or more when the text is not all ASCII.
  let any = 0;
  for (let i = 0; i < upper.length; i++) {
    const c = upper.charCodeAt(i);
    any |= c;
    const h = (c0 * 961 + c1 * 31 + c) & HASH_MASK;
    c0 = c1;
    c1 = c;
    if (i < 2) continue;
    const state = bits[h];
    if (state === NONE) continue;
    // Every literal of the bucket is four code units or more: the next one must start one of them,
    // and the next three when they are all six or more. (`hashOf` of four and six, as it folds.)
    if (state === FOUR_OR_MORE || state === SIX_OR_MORE) {
      if (i + 1 >= upper.length) continue;
      const h4 = (h * 31 + upper.charCodeAt(i + 1)) & HASH_MASK;
      if (((ahead[h4] as number) & FOUR) === 0) continue;
      if (state === SIX_OR_MORE) {
        if (i + 3 >= upper.length) continue;
        const h5 = (h4 * 31 + upper.charCodeAt(i + 2)) & HASH_MASK;
        if (((ahead[(h5 * 31 + upper.charCodeAt(i + 3)) & HASH_MASK] as number) & SIX) === 0) continue;
      }
    }
    const bucket = bucketAt(t, h);
    const at = i - 2;
    for (const e of bucket.mid) check(e, s, at, hit);
    if (bucket.long.size === 0 || at + 6 > upper.length) continue;
    for (const e of bucket.long.get(hashOf(upper, at, 6)) ?? []) check(e, s, at, hit);
  }
  if (any >= 0x80) for (const e of t.wide) check(e, s, undefined, hit);
}

/**
 * A screener for `rules`: `screen(text, kind)` tells which rules of that kind may match `text`
 * (undefined when screening is off). `data`: the tables computed at build time for these rules.
 *
 * @example
 * const screen = createScreener(PATTERN_RULES);
 * const s = screen(text, 'token');
 * for (const rule of PATTERN_RULES) if (s === undefined || s.admits(rule)) run(rule, text);
 */
export function createScreener(
  rules: readonly PatternRule[],
  data?: PackedScreenData,
): (text: string, kind: PatternRule['kind']) => Screen | undefined {
  let tables: Tables | undefined;
  return (text, kind) => {
    if (screening === 'never') return undefined;
    tables ??= build(rules, data);
    const { index, always } = tables;
    const hit = Uint8Array.from(always);
    const upper = text.toUpperCase();
    const literals = (tables.kinds[kind] ??= table(tables.data[kind]));
    scan({ text, upper, aligned: upper.length === text.length }, literals, hit);
    // Rules of the other kind are not screened here: they read other views.
    return { admits: (rule) => rule.kind !== kind || (index.get(rule) ?? []).every((r) => hit[r] !== 0) };
  };
}

/**
 * What an automatic merge may drop: only text that the kept item already says. Pure.
 *
 * - An item *says* another when both have the same title and the other's content, as written
 *   ({@link canonicalText}: line endings and trailing spaces aside; case, Unicode forms,
 *   punctuation, list markers, indentation and inner spacing kept), is the beginning of its own,
 *   ending where one of its lines or sentences ends: it only adds sentences after it. Every
 *   sentence, number, version, date, identifier, path, URL and name of the other is then in it,
 *   in the same order and with the same text before it. Only then may the other fold into it.
 * - *Sentences* (normalised loosely: NFKC, case folded, list markers and closing punctuation
 *   dropped) only find candidates quickly; they never decide a fold.
 * - Two texts that differ only in values ("port 5432" and "port 5433") have the same *shape*: a
 *   possible contradiction, never merged.
 */
import { canonicalText } from '../util/canonical-text.js';
import { isAscii, unicodePattern } from '../util/unicode-pattern.js';

const TERMINATOR = /(?<=[.!?;])\s+|(?<=[。！？；])/u;
const LIST_MARKER = /^(?:[-*+•>#]+|\d+[.)])\s+/u;
const CLOSING = /[\s.!?;:,。！？；：，]+$/u;

function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The normalised sentences of a text, in order, without repeats. */
export function sentencesOf(text: string): string[] {
  const out = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    for (const part of normalise(line).replace(LIST_MARKER, '').split(TERMINATOR)) {
      const sentence = part.trim().replace(CLOSING, '');
      if (sentence !== '') out.add(sentence);
    }
  }
  return [...out];
}

/** An item's title and content as one text, as the comparisons here read it. */
export const itemText = (item: Sayable): string => (item.title ? `${item.title}\n${item.content}` : item.content);

/** The sentences of an item: its title's and its content's. */
export function itemSentences(item: { title: string; content: string }): string[] {
  return [...new Set([...sentencesOf(item.title), ...sentencesOf(item.content)])];
}

/** A word without the punctuation around it; internal `.`, `/`, `:`, `?`, `-`, `_` kept (URLs, paths). */
const WORD = /[^\s"'`“”‘’()[\]{}<>,;]+/gu;

const URL = /^[a-z][a-z0-9+.-]*:\/\/\S+$/iu;
const HAS_DIGIT = unicodePattern('\\p{Nd}', 'u');
const PATH = /[/\\]/u;
const IDENTIFIER = unicodePattern('[_@#$=]|::|\\p{Ll}\\p{Lu}|\\p{L}\\.\\p{L}', 'u');
const UPPER = unicodePattern('\\p{Lu}', 'u');
const LETTER = unicodePattern('\\p{L}', 'u');
const LETTER_OR_NUMBER = unicodePattern('[\\p{L}\\p{N}]', 'u');
/** A run of digits with its separators (`5432`, `1.2.3`, `2026-03-01`). */
const NUMBER_RUN = unicodePattern('\\p{N}+(?:[.,:/-]\\p{N}+)*', 'gu');

export type TokenKind = 'url' | 'value' | 'path' | 'identifier' | 'name';

/**
 * What kind of distinguishing token a word is, or undefined for an ordinary word. `ascii` says
 * whether the word is all ASCII, when the caller knows (a word of an ASCII text is).
 */
export function tokenKind(word: string, sentenceStart: boolean, ascii = isAscii(word)): TokenKind | undefined {
  if (URL.test(word)) return 'url';
  if (HAS_DIGIT.of(ascii).test(word)) return 'value';
  if (PATH.test(word) && LETTER.of(ascii).test(word)) return 'path';
  if (IDENTIFIER.of(ascii).test(word)) return 'identifier';
  // A capital after the first letter (PostgreSQL, NATS, iOS), or any capital mid-sentence.
  const upper = UPPER.of(ascii);
  if (upper.test(word.slice(1)) || (!sentenceStart && upper.test(word))) return 'name';
  return undefined;
}

export interface Token {
  text: string;
  /** Normalised (NFKC, case folded) for comparison. */
  key: string;
  kind: TokenKind | undefined;
}

/** The words of a text in order, each with its kind. List bullets ("-", "*") are not words; "1." is a value. */
export function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  // Read once: the words of an ASCII text are ASCII; any other text's words take the full expressions.
  const ascii = isAscii(text);
  for (const line of text.split(/\r?\n/)) {
    let start = true;
    let lastEnd = 0;
    let first = true;
    for (const m of line.matchAll(WORD)) {
      const raw = m[0];
      if (/[.!?。！？]/u.test(line.slice(lastEnd, m.index))) start = true;
      lastEnd = m.index + raw.length;
      const marker = first && /^[-*+•>#]+$/u.test(raw);
      first = false;
      const word = raw.replace(/[.:!?]+$/u, '');
      if (marker || !LETTER_OR_NUMBER.of(ascii).test(word)) continue;
      tokens.push({ text: word, key: word.normalize('NFKC').toLowerCase(), kind: tokenKind(word, start, ascii) });
      start = /[.!?。！？]$/u.test(raw);
    }
  }
  return tokens;
}

/** The distinguishing tokens of a text, normalised. */
export function distinguishingTokens(text: string): Set<string> {
  return new Set(tokensOf(text).filter((t) => t.kind !== undefined).map((t) => t.key));
}

export interface Sayable {
  title: string;
  content: string;
}

/** Precomputed for repeated {@link says} checks. */
export interface SaidText {
  /** Loosely normalised sentences, to find candidates. */
  sentences: ReadonlySet<string>;
  title: string;
  content: string;
}

export function saidText(item: Sayable): SaidText {
  return {
    sentences: new Set(itemSentences(item)),
    title: canonicalText(item.title),
    content: canonicalText(item.content),
  };
}

/** A word before a full stop that does not end a sentence: "e.g.", "Dr.", "v1.", a single letter. */
const ABBREVIATION = unicodePattern('(?:^|\\s)(?:[\\p{L}]|e\\.g|i\\.e|etc|vs|cf|approx|Dr|Mr|Mrs|Ms|Mt|St|No|Nr|Fig|v\\d+)\\.$', 'iu');

/**
 * Whether `part` is the beginning of `whole`, ending where a line or a sentence of `whole` ends:
 * `whole` only adds sentences after it ("Deploys run on Thursdays. Ask Anna first."). Anywhere
 * else its meaning could hang on what comes before it: a heading ("## Deprecated"), a label
 * ("NOT:"), a code fence, a comment, "e.g.", or the first half of a wrapped sentence.
 */
function beginsWith(whole: string, part: string): boolean {
  if (part === '' || !whole.startsWith(part)) return false;
  if (whole.length === part.length) return true;
  const next = whole[part.length];
  if (next === '\n') return true;
  return (next === ' ' || next === '\t') && /[.!?。！？]$/u.test(part) && !ABBREVIATION(part).test(part);
}

/** The characters that end a sentence before a space (as {@link beginsWith} reads them). */
const SENTENCE_END = '.!?。！？';

/**
 * The opening of a canonical text: up to its first place where {@link beginsWith} may cut it (a
 * line end, or a sentence end before a space). A text that begins another ends at one of the
 * other's cut places, so it has the same opening: two texts with different openings never say
 * one another, and consolidation only compares texts that share one.
 *
 * @example
 * opening('Deploys run on Thursdays. Ask Anna first.'); // 'Deploys run on Thursdays.'
 */
export function opening(text: string): string {
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    // Only a line end, or a space after a sentence's end, can be a cut (the rest of beginsWith decides).
    if (c !== '\n' && !((c === ' ' || c === '\t') && SENTENCE_END.includes(text[i - 1] as string))) continue;
    if (beginsWith(text, text.slice(0, i))) return text.slice(0, i);
  }
  return text;
}

/**
 * Whether `kept` says everything `other` says, sentence for sentence: folding `other` into `kept`
 * loses no text.
 */
export function says(kept: SaidText, other: SaidText): boolean {
  return other.title === kept.title && beginsWith(kept.content, other.content);
}

/**
 * A text with its values set aside: URLs and paths become `#`, and so does each run of digits
 * (with its separators: `5432`, `1.2.3`, `2026-03-01`) inside a word, so `v1.2` and `v1.3`, or
 * `端口是6379` and `端口是6380`, share a shape while `端口是6379` and `会议在3楼` do not.
 */
export function shapeOf(text: string): string {
  const numbers = NUMBER_RUN.of(isAscii(text));
  return tokensOf(text)
    .map((t) => (t.kind === 'url' || t.kind === 'path' ? '#' : t.key.replace(numbers, '#')))
    .join(' ');
}

/**
 * Where two texts differ in distinguishing tokens, as `old → new` lines in text order ("5432 →
 * 5433"; a side with none shows `∅`). Ordinary words that differ are left out; an empty list
 * means no distinguishing token differs.
 */
export function differences(before: string, after: string): string[] {
  return tokenDifferences(tokensOf(before), tokensOf(after));
}

/** {@link differences} of two texts' tokens. */
export function tokenDifferences(a: readonly Token[], b: readonly Token[]): string[] {
  // Past a million cells the word alignment would cost too much: the tokens one side lacks instead.
  if (a.length * b.length > 1_000_000) return unalignedDifferences(a, b);
  // Longest common subsequence of the normalised words (texts are at most a few thousand words).
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  const at = (i: number, j: number) => lcs[i * width + j] as number;
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i]?.key === b[j]?.key ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const out: string[] = [];
  let removed: Token[] = [];
  let added: Token[] = [];
  const flush = () => {
    const from = removed.filter((t) => t.kind !== undefined).map((t) => t.text);
    const to = added.filter((t) => t.kind !== undefined).map((t) => t.text);
    const fromKeys = new Set(from.map((t) => t.toLowerCase()));
    const toKeys = new Set(to.map((t) => t.toLowerCase()));
    const onlyFrom = from.filter((t) => !toKeys.has(t.toLowerCase()));
    const onlyTo = to.filter((t) => !fromKeys.has(t.toLowerCase()));
    if (onlyFrom.length + onlyTo.length > 0) out.push(`${onlyFrom.join(' ') || '∅'} → ${onlyTo.join(' ') || '∅'}`);
    removed = [];
    added = [];
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i]?.key === b[j]?.key) {
      flush();
      i++;
      j++;
    } else if (j < b.length && (i === a.length || at(i, j + 1) >= at(i + 1, j))) {
      added.push(b[j++] as Token);
    } else {
      removed.push(a[i++] as Token);
    }
  }
  flush();
  return out;
}

function unalignedDifferences(a: readonly Token[], b: readonly Token[]): string[] {
  const distinct = (tokens: readonly Token[]) =>
    new Map(tokens.filter((t) => t.kind !== undefined).map((t) => [t.key, t.text]));
  const [from, to] = [distinct(a), distinct(b)];
  const onlyFrom = [...from].filter(([key]) => !to.has(key)).map(([, text]) => text);
  const onlyTo = [...to].filter(([key]) => !from.has(key)).map(([, text]) => text);
  return onlyFrom.length + onlyTo.length > 0 ? [`${onlyFrom.join(' ') || '∅'} → ${onlyTo.join(' ') || '∅'}`] : [];
}

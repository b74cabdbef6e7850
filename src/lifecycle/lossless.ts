/**
 * What an automatic merge may drop: only text that the kept item already says. Pure.
 *
 * - A *sentence* is a line or a sentence of a line, normalised (NFKC, case folded, spacing
 *   collapsed, list markers and closing punctuation dropped), so "Port 5432." and "- port 5432" are
 *   one sentence.
 * - An item *says* another when every sentence of the other's title and content is one of its own
 *   sentences and every distinguishing token of the other is among its own (numbers, versions,
 *   dates, identifiers, paths, URLs, capitalised names). Only then may the other fold into it.
 * - Two texts that differ only in such values ("port 5432" and "port 5433") have the same *shape*:
 *   a possible contradiction, never merged.
 */

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
const HAS_DIGIT = /\p{Nd}/u;
const PATH = /[/\\]/u;
const IDENTIFIER = /[_@#$=]|::|\p{Ll}\p{Lu}|\p{L}\.\p{L}/u;
const UPPER = /\p{Lu}/u;

export type TokenKind = 'url' | 'value' | 'path' | 'identifier' | 'name';

/** What kind of distinguishing token a word is, or undefined for an ordinary word. */
export function tokenKind(word: string, sentenceStart: boolean): TokenKind | undefined {
  if (URL.test(word)) return 'url';
  if (HAS_DIGIT.test(word)) return 'value';
  if (PATH.test(word) && /\p{L}/u.test(word)) return 'path';
  if (IDENTIFIER.test(word)) return 'identifier';
  // A capital after the first letter (PostgreSQL, NATS, iOS), or any capital mid-sentence.
  if (UPPER.test(word.slice(1)) || (!sentenceStart && UPPER.test(word))) return 'name';
  return undefined;
}

export interface Token {
  text: string;
  /** Normalised (NFKC, case folded) for comparison. */
  key: string;
  kind: TokenKind | undefined;
}

/** The words of a text in order, each with its kind. List markers ("-", "1.") are not words. */
export function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  for (const line of text.split(/\r?\n/)) {
    let start = true;
    let lastEnd = 0;
    let first = true;
    for (const m of line.matchAll(WORD)) {
      const raw = m[0];
      if (/[.!?。！？]/u.test(line.slice(lastEnd, m.index))) start = true;
      lastEnd = m.index + raw.length;
      const marker = first && /^(?:[-*+•>#]+|\d+[.)])$/u.test(raw);
      first = false;
      const word = raw.replace(/[.:!?]+$/u, '');
      if (marker || !/[\p{L}\p{N}]/u.test(word)) continue;
      tokens.push({ text: word, key: word.normalize('NFKC').toLowerCase(), kind: tokenKind(word, start) });
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
  sentences: ReadonlySet<string>;
  tokens: ReadonlySet<string>;
}

export function saidText(item: Sayable): SaidText {
  return {
    sentences: new Set(itemSentences(item)),
    tokens: distinguishingTokens(`${item.title}\n${item.content}`),
  };
}

/** Whether `kept` says everything `other` says: folding `other` into `kept` loses no text. */
export function says(kept: SaidText, other: SaidText): boolean {
  for (const s of other.sentences) if (!kept.sentences.has(s)) return false;
  for (const t of other.tokens) if (!kept.tokens.has(t)) return false;
  return true;
}

/** A text with its values (numbers, versions, dates, URLs, paths) replaced by `#`. */
export function shapeOf(text: string): string {
  return tokensOf(text)
    .map((t) => (t.kind === 'value' || t.kind === 'url' || t.kind === 'path' ? '#' : t.key))
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

/**
 * Possible contradictions: memories that say the same thing with other values ("port 5432" and
 * "port 5433"). Listed for a decision, never merged or archived.
 */
import type { Store } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { byAge } from './cluster.js';
import { differences, itemText, sentencesOf, shapeOf } from './lossless.js';

/** Two live memories of one scope that say the same thing with other values, older first. */
export interface PossibleContradiction {
  items: [MemoryItem, MemoryItem];
  /** The values that differ, older → newer ("5432 → 5433"). */
  differs_in: string[];
}

/** Sentences shorter than this (values aside) are compared only as whole items: "Port 6379". */
const SENTENCE_WORDS = 3;

/** The texts an item is compared by: the whole item, and each of its sentences that holds a value. */
function shapes(item: MemoryItem): { key: string; text: string }[] {
  const text = itemText(item);
  const out: { key: string; text: string }[] = [];
  const whole = shapeOf(text);
  if (whole.includes('#')) out.push({ key: `${item.scope}\u0000item\u0000${whole}`, text });
  for (const sentence of sentencesOf(text)) {
    const shape = shapeOf(sentence);
    const words = shape.split(' ').filter((w) => w !== '#').length;
    if (shape.includes('#') && words >= SENTENCE_WORDS) out.push({ key: `${item.scope}\u0000sentence\u0000${shape}`, text: sentence });
  }
  return out;
}

/**
 * Live memories (ingested chunks aside) of one scope that say the same thing — a whole item, or one
 * sentence of at least three words — with other numbers, versions, dates, paths or URLs: each one
 * beside the one before it. Nothing is changed; the user decides (update, forget, or link
 * `contradicts`/`supersedes`). With `newest`, only the newest that many memories are compared (a
 * bounded look for `status`; `review` compares them all).
 */
export async function possibleContradictions(
  store: Store,
  limit: number,
  newest?: number,
): Promise<PossibleContradiction[]> {
  const filter = { quarantined: 'exclude', recallable: true, chunks: 'exclude', sort: 'created', limit: newest } as const;
  const live = (await store.items.list(filter)).items;
  type Said = { item: MemoryItem; text: string };
  const byShape = new Map<string, Said[]>();
  for (const item of [...live].sort(byAge)) {
    for (const { key, text } of shapes(item)) {
      const group = byShape.get(key);
      if (group) group.push({ item, text });
      else byShape.set(key, [{ item, text }]);
    }
  }
  const found: PossibleContradiction[] = [];
  const paired = new Set<string>();
  for (const group of byShape.values()) {
    for (let i = 1; i < group.length && found.length < limit; i++) {
      const [a, b] = [group[i - 1] as Said, group[i] as Said];
      const pair = `${a.item.id} ${b.item.id}`;
      if (a.item.id === b.item.id || paired.has(pair)) continue;
      const differs = differences(a.text, b.text);
      if (differs.length === 0) continue;
      paired.add(pair);
      found.push({ items: [a.item, b.item], differs_in: differs });
    }
  }
  return found;
}

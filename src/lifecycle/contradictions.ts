/**
 * Possible contradictions: memories that say the same thing with other values ("port 5432" and
 * "port 5433"). Listed for a decision, never merged or archived.
 */
import type { Store } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { byAge } from './consolidate.js';
import { differences, itemText, shapeOf } from './lossless.js';

/** Two live memories of one scope that say the same thing with other values, older first. */
export interface PossibleContradiction {
  items: [MemoryItem, MemoryItem];
  /** The values that differ, older → newer ("5432 → 5433"). */
  differs_in: string[];
}

/**
 * Live memories (ingested chunks aside) grouped by scope and shape — the text with its numbers,
 * versions, dates, paths and URLs set aside — whose values differ: each one beside the one before
 * it. Nothing is changed; the user decides (update, forget, or link `contradicts`/`supersedes`).
 */
export function possibleContradictions(store: Store, limit: number): PossibleContradiction[] {
  const live = store.listItems({ quarantined: 'exclude', recallable: true, chunks: 'exclude', sort: 'created' }).items;
  const byShape = new Map<string, MemoryItem[]>();
  for (const item of live) {
    const shape = shapeOf(itemText(item));
    if (!shape.includes('#')) continue;
    const key = `${item.scope}\u0000${shape}`;
    const group = byShape.get(key);
    if (group) group.push(item);
    else byShape.set(key, [item]);
  }
  const found: PossibleContradiction[] = [];
  for (const group of byShape.values()) {
    group.sort(byAge);
    for (let i = 1; i < group.length && found.length < limit; i++) {
      const [a, b] = [group[i - 1] as MemoryItem, group[i] as MemoryItem];
      const differs = differences(itemText(a), itemText(b));
      if (differs.length > 0) found.push({ items: [a, b], differs_in: differs });
    }
  }
  return found;
}

/**
 * The fold of consolidation: which live STM items fold into which (consolidate.ts writes the
 * result). Two items may fold only when they share scope, type, source, logical address and use
 * ({@link foldKey}); one folds into another only when that other says all of it ({@link says}:
 * same title, and its content begins the other's). So an item can only fold into one that also
 * shares its title and its opening ({@link opening}): {@link foldPartitions} reads the candidates
 * page by page, keeps only a short key per item, and hands over the items of one such partition
 * at a time — memory follows the largest partition, not the store.
 */
import type { ListFilter, Store } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { canonicalText } from '../util/canonical-text.js';
import { sha256 } from '../util/hash.js';
import { byAge, sourceOf } from './cluster.js';
import { opening, saidText, says, type SaidText } from './lossless.js';

/** A fold group: the winner first, then the members it says everything of, oldest first. */
export interface FoldGroup {
  winner: MemoryItem;
  members: MemoryItem[];
  /** `duplicate`: every member says the same sentences; `near-duplicate`: the winner says more. */
  kind: 'duplicate' | 'near-duplicate';
}

/**
 * What two items must share to fold: where they live and come from (scope, type, source, logical
 * address) and how they may be used (injectable, validation, secrecy, expiry) — a fold never makes
 * a hidden, contradicted or expiring text visible or lasting, nor hides a live one.
 */
const foldKey = (item: MemoryItem) =>
  JSON.stringify([
    item.scope, item.type, sourceOf(item), item.layer, item.key, item.task_id, item.step_id,
    item.injectable, item.validation, item.secrecy, item.expires_at,
  ]);

/** Whether `a` and `b` may ever fold into one item (see {@link foldKey}). */
export const foldable = (a: MemoryItem, b: MemoryItem): boolean => foldKey(a) === foldKey(b);

/**
 * The lossless merges among `items`: inside each group of the same {@link foldKey},
 * items are taken longest first and each folds into the first kept item that says all of it
 * (found through its rarest sentence), or is kept. Every folded item's text is in its winner, so
 * archiving it loses nothing.
 */
export function foldItems(items: readonly MemoryItem[]): FoldGroup[] {
  const groups = new Map<string, MemoryItem[]>();
  for (const item of [...items].sort(byAge)) {
    const key = foldKey(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  const folds: FoldGroup[] = [];
  for (const group of groups.values()) {
    const ordered = [...group].sort((a, b) => b.content.length - a.content.length || byAge(a, b));
    const said: SaidText[] = ordered.map((item) => saidText(item));
    const holders = new Map<string, number[]>();
    const folded = new Map<number, number[]>();
    for (const [i, mine] of said.entries()) {
      let rarest: number[] | undefined;
      for (const sentence of mine.sentences) {
        const list = holders.get(sentence);
        if (list === undefined) {
          rarest = undefined;
          break;
        }
        if (rarest === undefined || list.length < rarest.length) rarest = list;
      }
      const home = rarest?.find((k) => says(said[k] as SaidText, mine));
      if (home !== undefined && mine.sentences.size > 0) {
        folded.get(home)?.push(i);
        continue;
      }
      folded.set(i, []);
      for (const sentence of mine.sentences) {
        const list = holders.get(sentence);
        if (list) list.push(i);
        else holders.set(sentence, [i]);
      }
    }
    for (const [root, rest] of folded) {
      if (rest.length === 0) continue;
      const winner = ordered[root] as MemoryItem;
      const members = [root, ...rest].map((k) => ordered[k] as MemoryItem).sort(byAge);
      const same = rest.every((k) => (said[k] as SaidText).sentences.size === (said[root] as SaidText).sentences.size);
      folds.push({ winner, members, kind: same ? 'duplicate' : 'near-duplicate' });
    }
  }
  return folds.sort((a, b) => byAge(a.members[0] as MemoryItem, b.members[0] as MemoryItem));
}

/** Where an item may fold: fold key, title and opening, hashed (a shared hash only costs a comparison). */
function partitionKey(item: MemoryItem): string {
  const content = canonicalText(item.content);
  return sha256(JSON.stringify([foldKey(item), canonicalText(item.title), opening(content)])).slice(0, 24);
}

/**
 * The candidates matching `filter` (read in pages, oldest first), grouped into the partitions
 * inside which alone items can fold; only partitions of two items or more are given, each read
 * again by id. `counted` is told how many candidates there were.
 *
 * @example
 * for await (const items of foldPartitions(store, { tier: 'stm' }, (n) => (total = n))) {
 *   folds.push(...foldItems(items));
 * }
 */
export async function* foldPartitions(
  store: Store,
  filter: ListFilter,
  counted: (candidates: number) => void,
): AsyncGenerator<MemoryItem[]> {
  const partitions = new Map<string, string | string[]>();
  let candidates = 0;
  const source = filter.limit === undefined ? store.items.iterate(filter) : (await store.items.list(filter)).items;
  for await (const item of source) {
    candidates++;
    const key = partitionKey(item);
    const ids = partitions.get(key);
    if (ids === undefined) partitions.set(key, item.id);
    else if (typeof ids === 'string') partitions.set(key, [ids, item.id]);
    else ids.push(item.id);
  }
  counted(candidates);
  for (const ids of partitions.values()) {
    if (typeof ids === 'string') continue;
    const items: MemoryItem[] = [];
    for (const id of ids) {
      const item = await store.items.get(id);
      if (item !== undefined) items.push(item);
    }
    yield items;
  }
}

/**
 * Complete-link clustering of alike memories (memctl, KOAS): same scope, type and source file,
 * tags alike (Jaccard ≥ {@link TAG_SIMILARITY}) and words alike (Jaccard ≥
 * {@link CONTENT_SIMILARITY}). What `consolidationCandidates` offers the host model to merge, and
 * the word similarity near-duplicate reporting uses.
 */
import { queryTerms } from '../search/fts-query.js';
import type { MemoryItem } from '../types.js';
import { PackedSets, type Run } from './word-sets.js';

export const TAG_SIMILARITY = 0.3;
export const CONTENT_SIMILARITY = 0.35;

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const x of small) if (large.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/** The file an item comes from (its provenance path), else its source. */
export function sourceOf(item: MemoryItem): string {
  const path = item.provenance?.source_path;
  return typeof path === 'string' ? path : (item.source ?? '');
}

/** Oldest first; ties by id. */
export const byAge = (a: MemoryItem, b: MemoryItem) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** The features clustering compares: tag set and word set (every word, not a query's first 32). */
export function similarityFeatures(item: Pick<MemoryItem, 'tags' | 'title' | 'content'>): Features {
  return { tags: new Set(item.tags), words: new Set(queryTerms(`${item.title} ${item.content}`, undefined, Infinity)) };
}

export interface Features {
  tags: ReadonlySet<string>;
  words: ReadonlySet<string>;
}

/** Word Jaccard, the content similarity used by consolidation and near-duplicate reporting. */
export function contentSimilarity(a: Features, b: Features): number {
  return jaccard(a.words, b.words);
}

/** Whether items `a` and `b` of `sets` are alike: tags and words both similar enough. */
function alike(sets: PackedSets, a: number, b: number): boolean {
  // Jaccard can never reach t when one set is more than 1/t times the other.
  const sizeA = sets.wordCount(a);
  const sizeB = sets.wordCount(b);
  if ((sizeA < sizeB ? sizeA : sizeB) < CONTENT_SIMILARITY * (sizeA < sizeB ? sizeB : sizeA)) return false;
  return sets.similarity(a, b, 'tags') >= TAG_SIMILARITY && sets.similarity(a, b, 'words') >= CONTENT_SIMILARITY;
}

/**
 * The prefix filter of set-similarity joins: with every word set ordered rarest first (one order
 * for the whole group), two sets with Jaccard ≥ t always share a word among their first
 * `n - ceil(t·n) + 1` words. Only those words need indexing and probing.
 */
function prefixWords(
  { data, start, end }: Run,
  frequency: ReadonlyMap<number, number>,
  names: readonly string[],
): number[] {
  const rarer = (a: number, b: number) =>
    (frequency.get(a) ?? 0) - (frequency.get(b) ?? 0) || ((names[a] as string) < (names[b] as string) ? -1 : 1);
  const rarestFirst = [...data.subarray(start, end)].sort(rarer);
  const size = end - start;
  return rarestFirst.slice(0, size - Math.ceil(CONTENT_SIMILARITY * size) + 1);
}

/** The first of `clusters` (by index, ascending) whose every member is alike `item`. */
function firstHome(
  sets: PackedSets,
  clusters: readonly number[][],
  candidates: ArrayLike<number>,
  item: number,
): number | undefined {
  for (let k = 0; k < candidates.length; k++) {
    const c = candidates[k] as number;
    const members = clusters[c] as number[];
    let all = true;
    for (const member of members) {
      if (!alike(sets, item, member)) {
        all = false;
        break;
      }
    }
    if (all) return c;
  }
  return undefined;
}

/**
 * Complete-link clusters of two or more among `group` (positions in `sets` of items of one scope,
 * type and source, oldest first), each oldest first: an item joins the first cluster whose every
 * member is alike. A cluster can only take an item similar to its first member, so clusters are
 * found through their first member's prefix words instead of scanned — the same result as the
 * scan, in near-linear time on real text.
 */
export function clusterGroup(sets: PackedSets, group: readonly number[]): number[][] {
  const local: number[][] = [];
  const byWord = new Map<number, number[]>();
  const wordless: number[] = [];
  const seen = new Int32Array(group.length);
  const frequency = new Map<number, number>();
  for (const item of group) {
    const { data, start, end } = sets.words(item);
    for (let k = start; k < end; k++) frequency.set(data[k] as number, (frequency.get(data[k] as number) ?? 0) + 1);
  }
  for (const [position, item] of group.entries()) {
    const words = sets.words(item);
    const prefix = prefixWords(words, frequency, sets.names);
    // Each cluster once (marked with this item's position + 1), then in creation order.
    const found: number[] = [];
    for (const word of prefix) {
      for (const c of byWord.get(word) ?? []) {
        if (seen[c] !== position + 1) {
          seen[c] = position + 1;
          found.push(c);
        }
      }
    }
    const wordlessItem = words.end === words.start;
    const home = firstHome(sets, local, wordlessItem ? wordless : Int32Array.from(found).sort(), item);
    if (home !== undefined) {
      local[home]?.push(item);
      continue;
    }
    const index = local.push([item]) - 1;
    if (wordlessItem) wordless.push(index);
    for (const word of prefix) {
      const list = byWord.get(word);
      if (list) list.push(index);
      else byWord.set(word, [index]);
    }
  }
  return local.filter((c) => c.length >= 2);
}

/** What clustering keeps apart: items of another scope, type or source file. */
export const clusterKey = (item: MemoryItem) => JSON.stringify([item.scope, item.type, sourceOf(item)]);

/** Complete-link clusters of two or more of `items` ({@link clusterGroup}), oldest first by their key's oldest item. */
export function clusterItems(items: readonly MemoryItem[]): MemoryItem[][] {
  const sorted = [...items].sort(byAge);
  const sets = new PackedSets();
  const groups = new Map<string, number[]>();
  for (const item of sorted) {
    const { tags, words } = similarityFeatures(item);
    const position = sets.add(tags, words);
    const key = clusterKey(item);
    const group = groups.get(key);
    if (group) group.push(position);
    else groups.set(key, [position]);
  }
  const itemsOf = (cluster: number[]) => cluster.map((k) => sorted[k] as MemoryItem);
  return [...groups.values()].flatMap((group) => clusterGroup(sets, group).map(itemsOf));
}

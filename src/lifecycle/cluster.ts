/**
 * Complete-link clustering of alike memories (memctl, KOAS): same scope, type and source file,
 * tags alike (Jaccard ≥ {@link TAG_SIMILARITY}) and words alike (Jaccard ≥
 * {@link CONTENT_SIMILARITY}). What `consolidationCandidates` offers the host model to merge, and
 * the word similarity near-duplicate reporting uses.
 */
import { queryTerms } from '../search/fts-query.js';
import type { MemoryItem } from '../types.js';

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

function alike(a: Features, b: Features): boolean {
  // Jaccard can never reach t when one set is more than 1/t times the other.
  const [small, large] = a.words.size <= b.words.size ? [a.words.size, b.words.size] : [b.words.size, a.words.size];
  if (small < CONTENT_SIMILARITY * large) return false;
  return jaccard(a.tags, b.tags) >= TAG_SIMILARITY && jaccard(a.words, b.words) >= CONTENT_SIMILARITY;
}

/**
 * The prefix filter of set-similarity joins: with every word set ordered rarest first (one order
 * for the whole group), two sets with Jaccard ≥ t always share a word among their first
 * `n - ceil(t·n) + 1` words. Only those words need indexing and probing.
 */
function prefixWords(words: ReadonlySet<string>, frequency: ReadonlyMap<string, number>): string[] {
  const rarestFirst = [...words].sort((a, b) => (frequency.get(a) ?? 0) - (frequency.get(b) ?? 0) || (a < b ? -1 : 1));
  return rarestFirst.slice(0, words.size - Math.ceil(CONTENT_SIMILARITY * words.size) + 1);
}

/**
 * Complete-link clusters of two or more, oldest item first: an item joins the first cluster
 * whose every member is alike. A cluster can only take an item similar to its first member, so
 * clusters are found through their first member's prefix words instead of scanned — the same
 * result as the scan, in near-linear time on real text.
 */
export function clusterItems(items: readonly MemoryItem[]): MemoryItem[][] {
  const groups = new Map<string, MemoryItem[]>();
  for (const item of [...items].sort(byAge)) {
    const key = JSON.stringify([item.scope, item.type, sourceOf(item)]);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  const clusters: MemoryItem[][] = [];
  for (const group of groups.values()) {
    const local: { members: MemoryItem[]; features: Features[] }[] = [];
    const byWord = new Map<string, number[]>();
    const wordless: number[] = [];
    const features = group.map((item) => similarityFeatures(item));
    const seen = new Int32Array(group.length);
    const frequency = new Map<string, number>();
    for (const f of features) for (const word of f.words) frequency.set(word, (frequency.get(word) ?? 0) + 1);
    for (const [position, item] of group.entries()) {
      const f = features[position] as Features;
      const prefix = prefixWords(f.words, frequency);
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
      const candidates = f.words.size === 0 ? wordless : Int32Array.from(found).sort();
      let home: (typeof local)[number] | undefined;
      for (const c of candidates) {
        const cluster = local[c];
        if (cluster?.features.every((g) => alike(f, g))) {
          home = cluster;
          break;
        }
      }
      if (home) {
        home.members.push(item);
        home.features.push(f);
        continue;
      }
      const index = local.push({ members: [item], features: [f] }) - 1;
      if (f.words.size === 0) wordless.push(index);
      for (const word of prefix) {
        const list = byWord.get(word);
        if (list) list.push(index);
        else byWord.set(word, [index]);
      }
    }
    clusters.push(...local.map((c) => c.members));
  }
  return clusters.filter((c) => c.length >= 2);
}

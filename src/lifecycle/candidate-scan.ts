/**
 * Which groups `consolidationCandidates` offers, in their fixed order, found with bounded memory:
 * the store is read in pages and only a short record is kept per item — its id, creation time,
 * group key and, for merging, its packed word and tag sets (word-sets.ts) — never its text. Each
 * group is handed over as the ids of its members; only the batch asked for is read in full again
 * (candidates.ts).
 */
import type { ListFilter, Store } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { byAge, clusterGroup, clusterKey, similarityFeatures, sourceOf } from './cluster.js';
import { isEpisode } from './episodes.js';
import { PackedSets } from './word-sets.js';

/** The most items one group holds (a longer run is cut, a larger cluster keeps its oldest). */
export const CANDIDATE_GROUP_LIMIT = 20;

/** One group to offer: what the model does with it, and its members' ids in order. */
export interface GroupPlan {
  kind: 'extract' | 'merge';
  /** Captured session turns (their own prompt). */
  episodes: boolean;
  ids: string[];
}

/** The short record kept per item: enough to order it and to place it in its group. */
interface Entry {
  id: string;
  created_at: string;
}

interface Turn extends Entry {
  /** Session, then turn and part (see `byTurn`). */
  turn: string;
}

const age = (a: Entry, b: Entry) => byAge(a as MemoryItem, b as MemoryItem);

/** Session order: by session, then turn (and part), whenever each was captured. */
const byTurn = (a: Turn, b: Turn) => (a.turn < b.turn ? -1 : a.turn > b.turn ? 1 : age(a, b));

const entry = (item: MemoryItem): Entry => ({ id: item.id, created_at: item.created_at });

function push<T>(groups: Map<string, T[]>, key: string, value: T): void {
  const group = groups.get(key);
  if (group) group.push(value);
  else groups.set(key, [value]);
}

/** Runs of at most {@link CANDIDATE_GROUP_LIMIT}. */
function* cut(ids: readonly string[]): Generator<string[]> {
  for (let i = 0; i < ids.length; i += CANDIDATE_GROUP_LIMIT) yield ids.slice(i, i + CANDIDATE_GROUP_LIMIT);
}

/** Groups of entries, each in `order`, listed by their first entry in that order. */
function ordered<T>(groups: Map<string, T[]>, order: (a: T, b: T) => number): T[][] {
  const lists = [...groups.values()].map((list) => list.sort(order));
  return lists.sort((a, b) => order(a[0] as T, b[0] as T));
}

/**
 * Every group in the order it is offered, as member ids: STM items older than `extractBefore`
 * (by scope and source, oldest first), captured session turns (session by session in turn order),
 * both only while nothing is linked `derived_from` them, cut into runs of
 * {@link CANDIDATE_GROUP_LIMIT}; then clusters of alike STM and MTM memories to merge.
 */
export async function* candidatePlans(
  store: Store,
  filter: ListFilter,
  extractBefore: string,
): AsyncGenerator<GroupPlan> {
  const derived = new Set<string>();
  for await (const item of store.items.iterate({ ...filter, tier: 'stm', derived: 'only' })) derived.add(item.id);
  const extract = new Map<string, string[]>();
  const turns = new Map<string, Turn[]>();
  const sets = new PackedSets();
  const entries: Entry[] = [];
  const alike = new Map<string, number[]>();
  const remember = (item: MemoryItem) => {
    const { tags, words } = similarityFeatures(item);
    entries.push(entry(item));
    push(alike, clusterKey(item), sets.add(tags, words));
  };
  // Read oldest first, in pages: an item's text is dropped as soon as its record is taken.
  for await (const item of store.items.iterate({ ...filter, tier: 'stm' })) {
    const source = JSON.stringify([item.scope, sourceOf(item)]);
    if (isEpisode(item)) {
      if (!derived.has(item.id)) push(turns, source, { ...entry(item), turn: `${item.task_id}\u0000${item.step_id}` });
      continue;
    }
    if (item.created_at < extractBefore && !derived.has(item.id)) push(extract, source, item.id);
    remember(item);
  }
  derived.clear();
  for await (const item of store.items.iterate({ ...filter, tier: 'mtm' })) remember(item);
  for (const ids of extract.values()) yield* [...cut(ids)].map((run) => ({ kind: 'extract' as const, episodes: false, ids: run }));
  extract.clear();
  for (const session of ordered(turns, byTurn)) {
    yield* [...cut(session.map((t) => t.id))].map((run) => ({ kind: 'extract' as const, episodes: true, ids: run }));
  }
  turns.clear();
  // Merge groups oldest first by their oldest item, each oldest first (STM and MTM interleaved).
  const older = (a: number, b: number) => age(entries[a] as Entry, entries[b] as Entry);
  const groups = [...alike.values()].map((group) => group.sort(older));
  alike.clear();
  for (const group of groups.sort((a, b) => older(a[0] as number, b[0] as number))) {
    for (const cluster of clusterGroup(sets, group)) {
      const ids = cluster.slice(0, CANDIDATE_GROUP_LIMIT).map((k) => (entries[k] as Entry).id);
      yield { kind: 'merge', episodes: false, ids };
    }
  }
}

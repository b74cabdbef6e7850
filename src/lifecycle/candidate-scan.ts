/**
 * Which groups `consolidationCandidates` offers, in their fixed order, found with bounded memory:
 * the store is read in pages and only a short record is kept per item — its id, creation time,
 * group key and, for merging, its packed word and tag sets (word-sets.ts) — never its text. Each
 * group is handed over as the ids of its members; only the batch asked for is read in full again
 * (candidates.ts). Groups to extract come first and cost one read of the STM ids; clusters to
 * merge cost the comparisons, so they are found only when a batch reaches them or they are counted.
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

/** The clusters of one scope, type and source; `last` on the last of them. */
export interface MergeGroup {
  plans: GroupPlan[];
  last: boolean;
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
 * The groups to extract, in the order they are offered, as member ids: STM items older than
 * `extractBefore` (by scope and source, oldest first), then captured session turns (session by
 * session in turn order), both only while nothing is linked `derived_from` them, cut into runs of
 * {@link CANDIDATE_GROUP_LIMIT}. One read of the STM items, keeping ids only.
 */
export async function extractPlans(store: Store, filter: ListFilter, extractBefore: string): Promise<GroupPlan[]> {
  const derived = new Set<string>();
  for await (const item of store.items.iterate({ ...filter, tier: 'stm', derived: 'only' })) derived.add(item.id);
  const extract = new Map<string, string[]>();
  const turns = new Map<string, Turn[]>();
  // Read oldest first, in pages: an item's text is dropped as soon as its record is taken.
  for await (const item of store.items.iterate({ ...filter, tier: 'stm' })) {
    if (derived.has(item.id)) continue;
    const source = JSON.stringify([item.scope, sourceOf(item)]);
    if (isEpisode(item)) push(turns, source, { ...entry(item), turn: `${item.task_id}\u0000${item.step_id}` });
    else if (item.created_at < extractBefore) push(extract, source, item.id);
  }
  const plans = (ids: readonly string[], episodes: boolean) =>
    [...cut(ids)].map((run): GroupPlan => ({ kind: 'extract', episodes, ids: run }));
  return [
    ...[...extract.values()].flatMap((ids) => plans(ids, false)),
    ...ordered(turns, byTurn).flatMap((session) => plans(session.map((t) => t.id), true)),
  ];
}

/**
 * The clusters of alike STM (captured turns aside) and MTM memories to merge, in the order they
 * are offered: by scope, type and source, oldest group first, each cluster's oldest
 * {@link CANDIDATE_GROUP_LIMIT} members. One read of those items, keeping their packed word and
 * tag sets; then one group (scope, type and source) compared at a time, its clusters handed over
 * together, `last` on the last group.
 */
export async function* mergePlans(store: Store, filter: ListFilter): AsyncGenerator<MergeGroup> {
  const sets = new PackedSets();
  const entries: Entry[] = [];
  const alike = new Map<string, number[]>();
  for (const tier of ['stm', 'mtm'] as const) {
    for await (const item of store.items.iterate({ ...filter, tier })) {
      if (isEpisode(item)) continue;
      const { tags, words } = similarityFeatures(item);
      entries.push(entry(item));
      push(alike, clusterKey(item), sets.add(tags, words));
    }
  }
  // Merge groups oldest first by their oldest item, each oldest first (STM and MTM interleaved).
  const older = (a: number, b: number) => age(entries[a] as Entry, entries[b] as Entry);
  const groups = [...alike.values()].map((group) => group.sort(older));
  alike.clear();
  groups.sort((a, b) => older(a[0] as number, b[0] as number));
  for (const [k, group] of groups.entries()) {
    const plans = clusterGroup(sets, group).map((cluster): GroupPlan => {
      const ids = cluster.slice(0, CANDIDATE_GROUP_LIMIT).map((m) => (entries[m] as Entry).id);
      return { kind: 'merge', episodes: false, ids };
    });
    yield { plans, last: k === groups.length - 1 };
  }
}

/**
 * The one write path for items: every stored version goes through here with its full-text index
 * entry (from the indexer), its revision and its event, so no caller assembles a write itself.
 * Its methods run inside the caller's store transaction. Indexing loads what it needs (the CJK
 * segmenter) on first use; {@link ItemWriter.prepare} loads it ahead, before a transaction.
 */
import type { Indexed, Indexer } from '../search/indexer.js';
import type { DeleteCounts, Store } from '../store/store.js';
import type { MemoryItem, MemoryLink, Revision } from '../types.js';
import { nextVersion } from './build-item.js';

/** What an event says besides the item's id, action, actor and time (the version is added). */
export type WriteDetails = Record<string, unknown>;

export interface ItemWriterOptions {
  store: Store;
  indexer: Indexer;
  /** Recorded on every revision and event. */
  actor: string | null;
}

/** What a write site needs: the store to read items from, the writer to store their versions. */
export interface WriteAccess {
  readonly store: Store;
  readonly writer: ItemWriter;
}

export interface InsertOptions {
  /** The event's time when it is not the item's `updated_at` (an imported item keeps its own). */
  at?: string;
  /** Earlier versions stored before the item's own revision (an import's history). */
  history?: readonly Omit<Revision, 'item_id'>[];
}

export interface ItemWriter {
  readonly indexer: Indexer;
  /** Loads what indexing these items or texts needs, ahead of a transaction. */
  prepare(...texts: (string | Indexed | undefined)[]): Promise<void>;
  /** Stores a new item, its index entry, its revision and an event named `action`. */
  insert(item: MemoryItem, action: string, details?: WriteDetails, options?: InsertOptions): Promise<void>;
  /** Stores the next version of an item whose indexed text may have changed (it is indexed again). */
  update(item: MemoryItem, action: string, details?: WriteDetails): Promise<void>;
  /**
   * Stores the next version of an item whose indexed text (title, content, tags, entities) is the
   * stored one's: flags, tier, validation, weight. Its index entry is left as it is.
   */
  amend(item: MemoryItem, action: string, details?: WriteDetails): Promise<void>;
  /** Archives `existing` as its next version stamped `at`; returns that version. */
  archive(existing: MemoryItem, at: string, action: string, details?: WriteDetails): Promise<MemoryItem>;
  /**
   * A duplicate write reinforces the item: usage + 1, weight + `weight`, no new version; with
   * `details`, a `reinforce` event records it (otherwise the caller's own event does).
   */
  reinforce(id: string, at: string, weight: number, details?: WriteDetails): Promise<void>;
  /**
   * Adds a link, with a `link` event when it is new unless `recorded` is false (links a write makes
   * between its own items: the write's events tell them); returns false when it existed.
   */
  link(link: MemoryLink, options?: { recorded?: boolean }): Promise<boolean>;
  /** Removes an item and everything derived from it, with an event named `action`; events stay. */
  remove(id: string, action: 'delete' | 'purge', at: string): Promise<DeleteCounts>;
}

/**
 * The item writer over a store, an indexer and the session's actor.
 *
 * @example
 * const writer = createItemWriter({ store, indexer, actor: null });
 * await store.transaction(() => writer.insert(item, 'create', { mode: 'new' }));
 */
export function createItemWriter({ store, indexer, actor }: ItemWriterOptions): ItemWriter {
  const record = async (item: MemoryItem, action: string, details: WriteDetails, at = item.updated_at) => {
    const { id, version, updated_at: changed } = item;
    await store.history.addRevision({ item_id: id, version, changed_at: changed, actor, reason: action, item });
    const event = { item_id: item.id, action, actor, at, details: { version: item.version, ...details } };
    await store.history.addEvent(event);
  };
  const amend = async (item: MemoryItem, action: string, details: WriteDetails = {}) => {
    await store.items.update(item);
    await record(item, action, details);
  };
  const index = async (item: MemoryItem) => {
    await indexer.prepare(item);
    await store.text.put(item, indexer.indexText(item));
  };
  return {
    indexer,
    prepare: (...texts) => indexer.prepare(...texts),
    async insert(item, action, details = {}, { at, history = [] } = {}) {
      await store.items.insert(item);
      await index(item);
      for (const revision of history) await store.history.addRevision({ item_id: item.id, ...revision });
      await record(item, action, details, at);
    },
    async update(item, action, details = {}) {
      await store.items.update(item);
      await index(item);
      await record(item, action, details);
    },
    amend,
    async archive(existing, at, action, details) {
      const item = nextVersion(existing, { ...existing, archived: true }, at);
      await amend(item, action, details);
      return item;
    },
    async reinforce(id, at, weight, details) {
      await store.items.reinforce(id, at, weight);
      if (details !== undefined) await store.history.addEvent({ item_id: id, action: 'reinforce', actor, at, details });
    },
    async link(link, { recorded = true } = {}) {
      const created = await store.links.add(link);
      if (created && recorded) {
        const { src_id, dst_id, type } = link;
        await store.history.addEvent({ item_id: src_id, action: 'link', actor, at: link.created_at, details: { src_id, dst_id, type } });
      }
      return created;
    },
    async remove(id, action, at) {
      const removed = await store.items.delete(id);
      await store.history.addEvent({ item_id: id, action, actor, at, details: { removed } });
      return removed;
    },
  };
}

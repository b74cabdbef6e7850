/**
 * The one write path for items: every stored version goes through here with its full-text index
 * entry (from the indexer), its revision and its event, so no caller assembles a write itself.
 * Its methods run inside the caller's store transaction; {@link ItemWriter.prepare} runs before it
 * (loading the segmenter is asynchronous, the transaction is not).
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
  /** Loads what indexing these items or texts needs; call it before the transaction. */
  prepare(...texts: (string | Indexed | undefined)[]): Promise<void>;
  /** Loads what indexing any text needs: before a pass that writes items not known yet. */
  prepareAll(): Promise<void>;
  /** Stores a new item, its index entry, its revision and an event named `action`. */
  insert(item: MemoryItem, action: string, details?: WriteDetails, options?: InsertOptions): void;
  /** Stores the next version of an item whose indexed text may have changed (it is indexed again). */
  update(item: MemoryItem, action: string, details?: WriteDetails): void;
  /**
   * Stores the next version of an item whose indexed text (title, content, tags, entities) is the
   * stored one's: flags, tier, validation, weight. Its index entry is left as it is.
   */
  amend(item: MemoryItem, action: string, details?: WriteDetails): void;
  /** Archives `existing` as its next version stamped `at`; returns that version. */
  archive(existing: MemoryItem, at: string, action: string, details?: WriteDetails): MemoryItem;
  /**
   * A duplicate write reinforces the item: usage + 1, weight + `weight`, no new version; with
   * `details`, a `reinforce` event records it (otherwise the caller's own event does).
   */
  reinforce(id: string, at: string, weight: number, details?: WriteDetails): void;
  /**
   * Adds a link, with a `link` event when it is new unless `recorded` is false (links a write makes
   * between its own items: the write's events tell them); returns false when it existed.
   */
  link(link: MemoryLink, options?: { recorded?: boolean }): boolean;
  /** Removes an item and everything derived from it, with an event named `action`; events stay. */
  remove(id: string, action: 'delete' | 'purge', at: string): DeleteCounts;
}

/**
 * The item writer over a store, an indexer and the session's actor.
 *
 * @example
 * const writer = createItemWriter({ store, indexer, actor: null });
 * await writer.prepare(item);
 * store.transaction(() => writer.insert(item, 'create', { mode: 'new' }));
 */
export function createItemWriter({ store, indexer, actor }: ItemWriterOptions): ItemWriter {
  const record = (item: MemoryItem, action: string, details: WriteDetails, at = item.updated_at) => {
    const { id, version, updated_at: changed } = item;
    store.addRevision({ item_id: id, version, changed_at: changed, actor, reason: action, item });
    store.addEvent({ item_id: item.id, action, actor, at, details: { version: item.version, ...details } });
  };
  const amend = (item: MemoryItem, action: string, details: WriteDetails = {}) => {
    store.updateItem(item);
    record(item, action, details);
  };
  return {
    indexer,
    prepare: (...texts) => indexer.prepare(...texts),
    prepareAll: () => indexer.prepareAll(),
    insert(item, action, details = {}, { at, history = [] } = {}) {
      store.insertItem(item, indexer.indexText(item));
      for (const revision of history) store.addRevision({ item_id: item.id, ...revision });
      record(item, action, details, at);
    },
    update(item, action, details = {}) {
      store.updateItem(item, indexer.indexText(item));
      record(item, action, details);
    },
    amend,
    archive(existing, at, action, details) {
      const item = nextVersion(existing, { ...existing, archived: true }, at);
      amend(item, action, details);
      return item;
    },
    reinforce(id, at, weight, details) {
      store.reinforce(id, at, weight);
      if (details !== undefined) store.addEvent({ item_id: id, action: 'reinforce', actor, at, details });
    },
    link(link, { recorded = true } = {}) {
      const created = store.addLink(link);
      if (created && recorded) {
        const { src_id, dst_id, type } = link;
        store.addEvent({ item_id: src_id, action: 'link', actor, at: link.created_at, details: { src_id, dst_id, type } });
      }
      return created;
    },
    remove(id, action, at) {
      const removed = store.deleteItem(id);
      store.addEvent({ item_id: id, action, actor, at, details: { removed } });
      return removed;
    },
  };
}

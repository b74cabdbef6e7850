/** The item repository: the canonical rows of memories, their tags and entities. */
import type { ItemType, Layer, LogicalKey, MemoryItem, Tier, Validation } from '../../types.js';

export type ArchivedFilter = 'exclude' | 'only' | 'include';
/** Newest update first, newest creation first, or soonest expiry first. */
export type ListSort = 'updated' | 'created' | 'expires';

/** Filters for {@link ItemRepository.list}. All given filters must match (AND). */
export interface ListFilter {
  layer?: Layer;
  type?: ItemType;
  tier?: Tier;
  task_id?: string;
  step_id?: string;
  key?: string;
  key_prefix?: string;
  /** Every tag must be present on the item. */
  tags?: readonly string[];
  scope?: string;
  archived?: ArchivedFilter;
  /** Items held by the write policy: included by default. */
  quarantined?: ArchivedFilter;
  /** Only items that may be pasted into prompts. */
  injectable?: boolean;
  /** Only items recall may use: not `contradicted`, not the target of a `supersedes` link. */
  recallable?: boolean;
  /** `exclude`: items nothing is derived from (no `derived_from` link to them); `only`: those something is. */
  derived?: 'exclude' | 'only';
  /** Only items not expired at this time (ISO-8601). */
  live_at?: string;
  /** `exclude` leaves out ingested document chunks (items whose provenance has a chunk_index). */
  chunks?: 'exclude' | 'include';
  /** Only items expiring at or before this time (ISO-8601). */
  expires_before?: string;
  validation?: Validation;
  /** Inclusive lower bound on `updated_at` (ISO-8601). */
  since?: string;
  /** Exclusive upper bound on `updated_at` (ISO-8601). */
  until?: string;
  sort?: ListSort;
  limit?: number;
  offset?: number;
}

export interface ListPage {
  items: MemoryItem[];
  /** Matching items before limit/offset. */
  total: number;
}

/** Rows removed by a hard delete, per table. */
export type DeleteCounts = Record<string, number>;

/** What a write must share with an item to be its duplicate (see {@link ItemRepository.findDuplicate}). */
export interface DuplicateTarget {
  scope: string;
  type: string;
  injectable: boolean;
  title: string;
  source: string | null;
  task_id: string | null;
  step_id: string | null;
  expires_at: string | null;
}

/** An item written next to another one from the same source (see {@link ItemRepository.adjacent}). */
export interface AdjacentItem {
  /** The id of the item it was written next to. */
  of: string;
  item: MemoryItem;
}

export interface ItemRepository {
  get(id: string): Promise<MemoryItem | undefined>;
  /** The most recently updated non-archived item at this logical address. */
  findByKey(key: LogicalKey): Promise<MemoryItem | undefined>;
  /** Stores a new item; its full-text entry is written separately ({@link TextIndex.put}). */
  insert(item: MemoryItem): Promise<void>;
  /** Replaces the item's row, tags and entities. */
  update(item: MemoryItem): Promise<void>;
  /** Removes the item and everything derived from it; events stay as the audit trail. */
  delete(id: string): Promise<DeleteCounts>;
  list(filter: ListFilter): Promise<ListPage>;
  /** The items of `list(filter)` without counting the total: for a page whose total is not shown. */
  find(filter: ListFilter): Promise<MemoryItem[]>;
  /**
   * The oldest item a write of `content` may reinforce instead of being stored: in `scope`, the same
   * text but for line endings and trailing spacing, the same type, injectability, title, source,
   * task, step and expiry, live, not quarantined, contradicted or superseded, not an ingested chunk
   * (re-ingest may archive it), and without a logical key (a key may rewrite it later).
   */
  findDuplicate(content: string, target: DuplicateTarget): Promise<MemoryItem | undefined>;
  /** Dedup reinforcement: usage + 1, last used now, weight + `weight`; no new version. */
  reinforce(id: string, at: string, weight: number): Promise<void>;
  /** Records that recall used these items: usage_count + 1 and last_used_at, no new version. */
  touch(ids: readonly string[], at: string): Promise<void>;
  /** The newest live (non-archived) item with this content hash in this scope. */
  findByContentHash(hash: string, scope: string): Promise<MemoryItem | undefined>;
  /**
   * Live memories in `tier`: not archived, not quarantined, not ingested document chunks. What
   * the automatic consolidation trigger counts.
   */
  countLive(tier: Tier): Promise<number>;
  /** Live items matching `filter`, counted per tier, type or tag (the palace's levels). */
  countGroups(group: 'tier' | 'type' | 'tag', filter: ListFilter): Promise<Record<string, number>>;
  /**
   * The items written just before and just after each of `ids` from the same non-empty `source`
   * (the turns around a conversation turn, the chunks around a file chunk), that match `filter`.
   */
  adjacent(ids: readonly string[], filter: ListFilter): Promise<AdjacentItem[]>;
  /**
   * Every item, oldest first (`created_at`, then id): the order of `export`. Fetched in pages, so
   * memory stays bounded and the connection is free between pages. With `filter`, only the items
   * matching it (as {@link list} reads it; its sort, limit and offset do not apply).
   */
  iterate(filter?: ListFilter): AsyncIterable<MemoryItem>;
}

/**
 * The storage contract. Everything above `store/` talks to this interface only, so a second backend
 * (PostgreSQL) can be added behind it; `test/store-contract.ts` is the suite every backend passes.
 */
import type {
  ItemType,
  Layer,
  LogicalKey,
  MemoryEvent,
  MemoryItem,
  MemoryLink,
  Revision,
  StoreStats,
  Tier,
  Validation,
  Workspace,
} from '../types.js';

export type ArchivedFilter = 'exclude' | 'only' | 'include';
/** Newest update first, newest creation first, or soonest expiry first. */
export type ListSort = 'updated' | 'created' | 'expires';

/** Filters for {@link Store.listItems}. All given filters must match (AND). */
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

/** What the full-text index needs besides the item's own fields. */
export interface IndexText {
  /** The CJK-segmented copy of the item's text ('' when there is none). */
  segmented: string;
}

/** A full-text query: an FTS5 MATCH expression, or substring terms for the LIKE fallback. */
export type TextQuery = { match: string } | { like: readonly string[] };

export interface ScoredItem {
  item: MemoryItem;
  /** Higher is better: -BM25 for MATCH, the number of matching terms for LIKE. */
  score: number;
}

export interface StoreHealth {
  schema_version: number;
  /** 'ok', or the problems SQLite's integrity check reports. */
  integrity: string[];
  full_text: boolean;
  items: number;
  indexed: number;
}

/** An ingested file: its hash and the items holding its chunks, in order. */
export interface CorpusFile {
  corpus_id: string;
  path: string;
  sha256: string;
  size_bytes: number;
  ingested_at: string;
  item_ids: string[];
  /** The directory walked when the file was found in one (absolute), else null. */
  root: string | null;
  /** The scope of its chunks. */
  scope: string | null;
  /** Chunks the policy refused (stored nowhere); more than 0 makes the file `partial`. */
  refused: number;
}

/** Rows removed by a hard delete, per table. */
export type DeleteCounts = Record<string, number>;

/** What a write must share with an item to be its duplicate (see {@link Store.findDuplicate}). */
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

export interface Store {
  readonly path: string;
  /** Runs `fn` atomically as one write transaction (`BEGIN IMMEDIATE` on SQLite), retrying when busy. */
  transaction<T>(fn: () => T): T;

  getItem(id: string): MemoryItem | undefined;
  /** The most recently updated non-archived item at this logical address. */
  findByKey(key: LogicalKey): MemoryItem | undefined;
  insertItem(item: MemoryItem, index: IndexText): void;
  /** Replaces the item; with `index` its full-text row too (omit it when the text is unchanged). */
  updateItem(item: MemoryItem, index?: IndexText): void;
  /** Removes the item and everything derived from it; events stay as the audit trail. */
  deleteItem(id: string): DeleteCounts;
  listItems(filter: ListFilter): ListPage;
  /** True when the full-text index exists (FTS5 available at creation). */
  hasFullText(): boolean;
  /** The best `limit` items matching `query` and every filter, best first. */
  searchItems(query: TextQuery, filter: ListFilter, limit: number): ScoredItem[];
  /**
   * The `limit` most recently created items matching an FTS5 MATCH expression, newest first, no
   * ranking and no other filter: a bounded probe ([] without a full-text index).
   */
  newestMatches(match: string, limit: number): MemoryItem[];
  /**
   * The oldest item a write of `content` may reinforce instead of being stored: in `scope`, the same
   * text but for line endings and trailing spacing, the same type, injectability, title, source,
   * task, step and expiry, live, not quarantined, contradicted or superseded, not an ingested chunk
   * (re-ingest may archive it), and without a logical key (a key may rewrite it later).
   */
  findDuplicate(content: string, target: DuplicateTarget): MemoryItem | undefined;
  /** Dedup reinforcement: usage + 1, last used now, weight + `weight`; no new version. */
  reinforce(id: string, at: string, weight: number): void;
  /** The newest live (non-archived) item with this content hash in this scope. */
  findByContentHash(hash: string, scope: string): MemoryItem | undefined;
  /**
   * Live memories in `tier`: not archived, not quarantined, not ingested document chunks. What
   * the automatic consolidation trigger counts.
   */
  countLiveMemories(tier: Tier): number;
  /** A store-wide setting kept with the data (`schema_meta`), e.g. when auto-consolidation last ran. */
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  /** Live items matching `filter`, counted per tier, type or tag (the palace's levels). */
  countGroups(group: 'tier' | 'type' | 'tag', filter: ListFilter): Record<string, number>;
  listWorkspaces(): Workspace[];
  getWorkspace(name: string): Workspace | undefined;
  /** Creates or replaces a workspace; returns true when it was new. */
  putWorkspace(workspace: Workspace): boolean;
  /** Returns false when there was no such workspace. */
  removeWorkspace(name: string): boolean;
  /** Every item, oldest first (`created_at`, then id): the order of `export`. */
  iterateItems(): Iterable<MemoryItem>;

  /** Stores a revision; returns false when that (item, version) already exists. */
  addRevision(revision: Revision): boolean;
  listRevisions(itemId: string): Revision[];
  countRevisions(itemId: string): number;

  addEvent(event: Omit<MemoryEvent, 'id'>): void;
  listEvents(itemId?: string): MemoryEvent[];

  /** Adds a link; returns false when it already existed. */
  addLink(link: MemoryLink): boolean;
  /** Records that recall used these items: usage_count + 1 and last_used_at, no new version. */
  touchItems(ids: readonly string[], at: string): void;
  /** Links where the item is source or destination. */
  listLinks(itemId: string): MemoryLink[];

  /** The ingest record of a file, by corpus and path. */
  getCorpusFile(corpusId: string, path: string): CorpusFile | undefined;
  /**
   * Records a file as ingested with its chunk items, replacing any earlier record of it; a null
   * `root` keeps the root of an earlier record (a file named directly is still under its directory).
   */
  putCorpusFile(file: CorpusFile): void;
  /** The files recorded as found by walking `root` in this corpus, with chunks in `scope`. */
  listCorpusFilesUnder(corpusId: string, root: string, scope: string): CorpusFile[];
  /** Sets where a recorded file was found and its chunks' scope (records older than schema v9). */
  setCorpusRoot(corpusId: string, path: string, root: string, scope: string): void;
  /** Forgets a file's ingest record (its chunk items stay); true when there was one. */
  removeCorpusFile(corpusId: string, path: string): boolean;
  /** True when a file other than (corpusId, path) lists this item among its chunks. */
  isChunkShared(itemId: string, corpusId: string, path: string): boolean;

  stats(): StoreStats;
  /** Replaces the whole full-text index with rows for these items (one transaction). */
  rebuildFullText(entries: Iterable<{ item: MemoryItem; index: IndexText }>): number;
  /** Consistency checks for `doctor`. */
  health(): StoreHealth;
  close(): void;
}

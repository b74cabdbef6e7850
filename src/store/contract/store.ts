/**
 * The storage contract, split by concern. Everything above `store/` talks to this interface only,
 * so another backend (PostgreSQL) can be added behind it; `test/store-contract.ts` is the suite
 * every backend passes. Every method returns a Promise; writes run inside {@link Store.transaction}.
 */
import type { StoreStats } from '../../types.js';
import type { CorpusRepository } from './corpus.js';
import type { FolderRepository } from './folders.js';
import type { HistoryRepository } from './history.js';
import type { ItemRepository } from './items.js';
import type { LinkRepository } from './links.js';
import type { MetaRepository } from './meta.js';
import type { TextIndex } from './text-index.js';
import type { VectorIndex } from './vector-index.js';
import type { WorkspaceRepository } from './workspaces.js';

/** One named consistency check of {@link Store.health}. */
export interface HealthCheck {
  /**
   * Stable name. Every backend reports `schema` (figure `schema_version`), `integrity`,
   * `full_text` and `index` (figures `items` and `indexed`); it may add its own.
   */
  name: string;
  ok: boolean;
  /** What was found, for people: `ok`, or the problems. */
  problems: string[];
  /** Numbers the check measured. */
  figures: Record<string, number>;
}

export interface TransactionOptions {
  /**
   * A batch of many nested transactions (ingest writes each file of a batch in its own). On SQLite
   * each savepoint copies every page it changes that existed before it, to undo it alone; these
   * copies are then kept in memory, not written to a temporary file one page at a time. What they
   * take is bounded by the pages one nested transaction changes.
   */
  bulk?: boolean;
}

export interface Store {
  /** Where the data lives: a file path, `:memory:`, or a URL without credentials. */
  readonly path: string;
  readonly items: ItemRepository;
  readonly history: HistoryRepository;
  readonly links: LinkRepository;
  readonly corpus: CorpusRepository;
  readonly workspaces: WorkspaceRepository;
  /** Folders kept in sync. */
  readonly folders: FolderRepository;
  readonly meta: MetaRepository;
  readonly text: TextIndex;
  /** Undefined when the backend keeps no vectors. */
  readonly vectors?: VectorIndex;
  /**
   * Runs `fn` atomically as one write transaction (`BEGIN IMMEDIATE` on SQLite), retrying when the
   * database is busy (so `fn` may run again: it must have no effect outside the store). Calls on
   * `tx` run in the transaction; on SQLite so do calls on the outer store made from `fn`'s own
   * async flow, while other flows wait for the transaction to end. A transaction started inside
   * another nests (a savepoint on SQLite): its failure undoes its own writes only.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>, options?: TransactionOptions): Promise<T>;
  stats(): Promise<StoreStats>;
  /** Consistency checks for `doctor`. */
  health(): Promise<HealthCheck[]>;
  /** Closes the connection once any running transaction has finished. */
  close(): Promise<void>;
}

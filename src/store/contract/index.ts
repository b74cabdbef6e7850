/** The storage contract, one import for a backend author: `import type { Store } from 'engram'`. */
export type { CorpusFile, CorpusRepository } from './corpus.js';
export type { FolderRepository } from './folders.js';
export type { ForeignDatabase, ForeignRow, ForeignStatement } from './foreign.js';
export type { HistoryRepository } from './history.js';
export type {
  AdjacentItem,
  ArchivedFilter,
  DeleteCounts,
  DuplicateTarget,
  ItemRepository,
  ListFilter,
  ListPage,
  ListSort,
} from './items.js';
export type { LinkRepository } from './links.js';
export type { MetaRepository } from './meta.js';
export type { HealthCheck, Store, TransactionOptions } from './store.js';
export type { IndexText, ScoredItem, TextIndex, TextMode, TextQuery } from './text-index.js';
export type { VectorIndex, VectorModel } from './vector-index.js';
export type { WorkspaceRepository } from './workspaces.js';

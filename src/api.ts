/**
 * The library's API as types: the options of `openEngram`, the `Engram` interface every shell calls,
 * and the result types of its operations (each defined beside its operation, re-exported here).
 * `engram.ts` implements it.
 */
import type { CaptureInput } from './capture/capture.js';
import type { CaptureReport } from './capture/report.js';
import type { Embedder } from './embed/embedder.js';
import type { IngestProgress, IngestReport } from './ingest/ingest.js';
import type { PullResult } from './ingest/pull.js';
import type { AdmissionHook } from './items/admission.js';
import type { ReviewDecision, ReviewReport } from './items/governance.js';
import type { ImportReport } from './items/import-lines.js';
import type { ImportFromInput, SourceImportReport } from './importers/run-import.js';
import type { GetQuery, ListResult, ShowOptions, ShowResult } from './items/read.js';
import type { IngestInput, ListInput, PullInput, PutInput, UpdateInput } from './items/schemas.js';
import type { AutoConsolidated } from './lifecycle/auto-consolidate.js';
import type { ConsolidationCandidates } from './lifecycle/candidates.js';
import type { CleanupPlan } from './lifecycle/cleanup.js';
import type { ConsolidationPlan } from './lifecycle/consolidate.js';
import type { CandidatesInput, CleanupInput, ConsolidateInput, SuggestInput } from './lifecycle/operations.js';
import type { Suggestion } from './lifecycle/suggest.js';
import type { EmbedNote } from './items/embed-items.js';
import type { DoctorReport } from './maintenance/doctor.js';
import type { EmbedOptions, EmbedResult } from './maintenance/embed.js';
import type { ExportOptions } from './maintenance/export.js';
import type { ReindexOptions, ReindexResult } from './maintenance/reindex.js';
import type { ReviewOptions } from './maintenance/review.js';
import type { DeleteResult } from './put/delete-item.js';
import type { LinkResult } from './put/link-items.js';
import type { WriteOptions, WriteResult } from './put/put.js';
import type { BriefInput, BriefResult } from './retrieval/brief.js';
import type { RecallInput, RecallResult } from './retrieval/recall.js';
import type { SearchInput, SearchResult } from './retrieval/search.js';
import type { StatusOptions, StatusReport } from './maintenance/status.js';
import type { AddFolderResult, FolderInput, FolderState } from './sync/folders.js';
import type { SyncOptions, SyncReport } from './sync/sync-folders.js';
import type { FolderWatch } from './sync/watch.js';
import type { Store } from './store/store.js';
import type { LinkType, MemoryItem, MemoryLink, Revision, Secrecy, StoreStats, SyncedFolder, TokenizerName, Workspace } from './types.js';
import type { Clock } from './util/time.js';
import type { PalaceInput, PalaceResult } from './workspaces/palace.js';
import type { RegisterWorkspaceResult, RemoveWorkspaceResult, WorkspaceInput } from './workspaces/workspaces.js';
import type { AutoConsolidateOptions } from './context.js';

export type { ImportReport } from './items/import-lines.js';
export type { ImportFromInput, SourceImportReport } from './importers/run-import.js';
export type { CreatedFile } from './store/sqlite/remove-empty-store.js';
export type { ListInput, PutInput, UpdateInput } from './items/schemas.js';
export type { GetQuery, ListResult, ShowOptions, ShowResult } from './items/read.js';
export type { BriefInput, BriefResult } from './retrieval/brief.js';
export type { RecallInput, RecallResult } from './retrieval/recall.js';
export type {
  HitExplain, RetrievalMode, RetrievalStage, SearchHit, SearchInput, SearchResult, SearchStage,
} from './retrieval/search.js';
export type { DoctorReport } from './maintenance/doctor.js';
export type { EmbedderHealth } from './maintenance/embedder-health.js';
export type { ExportOptions } from './maintenance/export.js';
export type { ReindexOptions, ReindexResult } from './maintenance/reindex.js';
export type { ReviewOptions } from './maintenance/review.js';
export type { CandidatesInput, CleanupInput, ConsolidateInput, SuggestInput } from './lifecycle/operations.js';
export type { PalaceInput, PalaceResult } from './workspaces/palace.js';
export type { RegisterWorkspaceResult, RemoveWorkspaceResult, WorkspaceInput } from './workspaces/workspaces.js';
export type { AutoConsolidated, AutoConsolidation } from './lifecycle/auto-consolidate.js';

/**
 * What a write's embedding did, when an embedder is configured: the vectors stored after the write
 * (within `EMBED_ON_WRITE_MS`, 1500 ms), and why its items are pending when some are.
 */
export interface Embedded {
  embedding?: EmbedNote;
}

/** What `put` and `update` return: the write's outcome, with the automatic consolidation it triggered. */
export type PutResult = WriteResult & AutoConsolidated & Embedded;

export interface EngramOptions {
  /** Database file, or `:memory:`. */
  path: string;
  /** Actor recorded on every event and revision (`--session` / `ENGRAM_SESSION`). */
  session?: string | null;
  /** Time source; tests pass a fixed clock. */
  clock?: Clock;
  /** Write policy, called for every item before it is stored. */
  admit?: AdmissionHook;
  /** Tokenizer preset (`fr`, `en`, `raw`) for the full-text index of a new store. */
  ftsTokenizer?: string;
  /** Set false to search with LIKE only, as if FTS5 were missing (`ENGRAM_FTS=off`). */
  fullText?: boolean;
  /** Output redaction tier for search, recall, show and export (`ENGRAM_SECRECY`); default S3 keeps all. */
  secrecy?: Secrecy;
  /** What recall and brief count their budget in (`ENGRAM_TOKENIZER`): `chars` (default), `o200k`, `cl100k`. */
  tokenizer?: TokenizerName;
  /** Opens the store; defaults to the embedded SQLite store. */
  openStore?: (path: string) => Store | Promise<Store>;
  /**
   * False skips the open check of the store's pages (`doctor`, which reports on a damaged store);
   * by default a store whose pages fail it is refused with STORE_CORRUPT before anything is written.
   */
  checkPages?: boolean;
  /**
   * Automatic consolidation (KOAS) after put, pull and ingest: when the store holds `threshold` live
   * STM items, at most once per `intervalMinutes` (kept in the store). Off unless given; the CLI
   * turns it on with {@link AUTO_CONSOLIDATE_DEFAULTS}.
   */
  autoConsolidate?: AutoConsolidateOptions;
  /**
   * Computes the items' vectors (see `openEmbedder`). Writes embed what they stored after their
   * transaction within a short bound and never fail because of it; `embed` fills what is left.
   * None: search stays lexical.
   */
  embedder?: Embedder;
}

export type { AutoConsolidateOptions } from './context.js';
export type { EmbedNote } from './items/embed-items.js';
export type { EmbedOptions, EmbedResult } from './maintenance/embed.js';

export type { PullEntry, PullResult } from './ingest/pull.js';
export type { CleanupPlan } from './lifecycle/cleanup.js';
export type { ConsolidationPlan } from './lifecycle/consolidate.js';
export type { CandidateGroup, ConsolidationCandidates } from './lifecycle/candidates.js';
export type { DeleteResult } from './put/delete-item.js';
export type { LinkResult } from './put/link-items.js';
export type { WriteOptions, WriteResult } from './put/put.js';
export type { Decay } from './forgetting/curve.js';
export type { SimilarItem } from './lifecycle/similar.js';
export type { Suggestion } from './lifecycle/suggest.js';
export type { IngestProgress, IngestReport } from './ingest/ingest.js';
export type { IngestInput, PullInput } from './items/schemas.js';
export type { CaptureInput } from './capture/capture.js';
export type { CaptureRefusal, CaptureReport } from './capture/report.js';
export type { FolderChanges } from './ingest/folder-changes.js';
export type { WiredClient } from './config/wired-clients.js';
export type { FolderStatus, StatusOptions, StatusReport } from './maintenance/status.js';
export type { AddFolderResult, FolderInput, FolderState } from './sync/folders.js';
export type { FolderSync, SyncOptions, SyncReport } from './sync/sync-folders.js';
export type { FolderWatch } from './sync/watch.js';

/** What `watch` needs: which folders (default all), the debounce, and where each sync's report goes. */
export interface WatchFoldersOptions {
  names?: readonly string[];
  /** Quiet time after the last file event before a sync (default 300 ms). */
  debounceMs?: number;
  onSync(report: SyncReport & AutoConsolidated & Embedded): void;
  /** A failed sync or watcher; watching goes on. */
  onError(error: unknown, folder?: string): void;
}

/** The engram API. Every method validates its input and throws {@link EngramError} on failure. */
export interface Engram {
  readonly path: string;
  /** The tokenizer preset (`en`, `fr`, `raw`) recorded with the search index when the store was created. */
  readonly ftsTokenizer: string | null;
  /** Creates or updates an item (memtool's three modes: by id, by logical key, or new). */
  put(input: PutInput, options?: WriteOptions): Promise<PutResult>;
  /**
   * One item by id, or the newest non-archived item at a logical key — the exact address `put`
   * writes to (a task or step left out means "none", as in `put`).
   */
  get(query: GetQuery): Promise<MemoryItem>;
  /**
   * Ingests files, directories, globs and `-` (stdin) as chunk items with provenance; unchanged
   * files are no-ops, changed files replace their chunks. Every file gets a status.
   */
  ingest(
    input: IngestInput & {
      readStdin?: () => Promise<Uint8Array>;
      onProgress?: (progress: IngestProgress) => void;
      /** Policy worker threads (default: one per core, at most 4, for 512 KB or more; 0: none). */
      workers?: number;
    },
  ): Promise<IngestReport & AutoConsolidated & Embedded>;
  /** Stores the memory proposals found in an LLM's answer; each one is admitted by the policy. */
  pull(text: string, defaults?: PullInput): Promise<PullResult & AutoConsolidated & Embedded>;
  /**
   * An agent's proposals (KOAS `memory_propose`): like `pull`, but each proposal must say where it
   * comes from (`provenance_hint`), or it is quarantined.
   */
  propose(proposals: readonly unknown[], defaults?: PullInput): Promise<PullResult & AutoConsolidated & Embedded>;
  /**
   * Captures an agent session transcript (Claude Code, Codex, OpenCode): each turn's request and
   * final answer as an STM episode with provenance, tool outputs kept by size only, the
   * assistant's explicit proposals as `pull` stores them; each turn admitted by the policy on its
   * own. Capturing a session again adds only the turns that are new or changed.
   */
  capture(input: CaptureInput): Promise<CaptureReport & AutoConsolidated & Embedded>;
  list(filter?: ListInput): Promise<ListResult>;
  /**
   * Full-text search: BM25 over title, tags, entities and content (CJK segmented), any of the
   * words; when nothing matches, word prefixes, then substrings (LIKE).
   */
  search(input: SearchInput): Promise<SearchResult>;
  /**
   * Token-budgeted recall: injectable, live, non-archived matches packed best first into the
   * injection block (format_version=1). Records usage of the injected items and one event.
   */
  recall(input: RecallInput): Promise<RecallResult>;
  /**
   * The session brief: live, injectable memories without a query, long-term first, then mid-term,
   * then the newest short-term ones, packed into the budget (default 600) as recall's block.
   */
  brief(input?: BriefInput): Promise<BriefResult>;
  /** One item (redacted for `secrecy`), its revision count and links. */
  show(id: string, options?: ShowOptions): Promise<ShowResult>;
  /** Every stored version, oldest first. */
  history(id: string): Promise<Revision[]>;
  /**
   * Archives expired, stale (the forgetting curve, docs/forgetting.md) and weak (weight < 0.1
   * after 30 days) items and, with `purgeDays`, deletes archived items older than that — only
   * with `apply`; otherwise the plan.
   */
  cleanup(options?: CleanupInput): Promise<CleanupPlan>;
  /**
   * Deterministic, lossless consolidation: STM items (same scope, type, source file and key) whose
   * every sentence and distinguishing token another item already says fold into it, as one MTM
   * item; related items are left apart; MTM items that qualify promote to LTM.
   */
  consolidate(options?: ConsolidateInput): Promise<ConsolidationPlan>;
  /**
   * Host-model consolidation (mem-context): groups to extract (STM older than 3 days) and related
   * memories to merge (alike, but each with facts of its own), each with a ready prompt; the
   * answer comes back through `pull` with `supersedes`. engram calls no model itself. A batch at a
   * time (`limit`, default 10), with `more`: the groups after it.
   */
  consolidationCandidates(options?: CandidatesInput): Promise<ConsolidationCandidates>;
  /** memtool's recommendation: ranked candidates for a task, tags or key prefix, with the reasons. */
  suggest(input: SuggestInput): Promise<Suggestion[]>;
  /** Changes any fields of an existing item (content optional): a new version, through the policy. */
  update(id: string, input: UpdateInput): Promise<PutResult>;
  /** Forgets an item: archived, weight 0, never injected again; its history stays. */
  forget(id: string): Promise<ReviewDecision>;
  /** Links where the item is source or destination. */
  links(id: string): Promise<MemoryLink[]>;
  /** Archives an item, or with `hard` removes it and its derived rows. */
  delete(id: string, options?: { hard?: boolean }): Promise<DeleteResult>;
  link(input: { src_id: string; dst_id: string; type: LinkType }): Promise<LinkResult>;
  stats(): Promise<StoreStats>;
  /** Named workspaces, `default` first among equals (sorted by name). */
  workspaces(): Promise<Workspace[]>;
  /** Creates or updates a workspace; `default` is protected. */
  registerWorkspace(input: WorkspaceInput): Promise<RegisterWorkspaceResult>;
  /** Removes a workspace (never `default`); its items stay. */
  removeWorkspace(name: string): Promise<RemoveWorkspaceResult>;
  /** The workspace called `name`; NOT_FOUND for an unknown one. */
  resolveWorkspace(name: string): Promise<Workspace>;
  /** Browses live items: tiers, then types in a tier, then tags in a type, then the items with a tag. */
  palace(input?: PalaceInput): Promise<PalaceResult>;
  /** Rebuilds the full-text index from the items (derived data); returns how many were indexed. */
  reindex(options?: ReindexOptions): Promise<ReindexResult>;
  /** Schema version, full-text availability, index/item agreement and SQLite's integrity check. */
  doctor(): Promise<DoctorReport>;
  /**
   * Fills the pending vectors with the configured embedder, in batches each committed on its own
   * (an interrupted run resumes); `rebuild` re-embeds everything. PARAM_ERROR without an embedder.
   */
  embed(options?: EmbedOptions): Promise<EmbedResult>;
  /**
   * Registers a directory to keep in sync (memctl's `mount`), or updates the globs, tags and format
   * of one registered under that name; nothing is read until `sync`.
   */
  addFolder(input: FolderInput): Promise<AddFolderResult>;
  /** The synced folders, each with the files added, changed and removed since its last sync. */
  folders(): Promise<FolderState[]>;
  /** Stops syncing a folder; its chunks stay. NOT_FOUND for an unknown one. */
  removeFolder(name: string): Promise<{ removed: SyncedFolder }>;
  /**
   * Brings the store in step with the synced folders (`names`, default all): new and changed files
   * ingested, the chunks of files gone archived; one ingest report per folder.
   */
  sync(options?: SyncOptions): Promise<SyncReport & AutoConsolidated & Embedded>;
  /**
   * Syncs the folders once, then again whenever their files change (debounced), until `close()`.
   * PARAM_ERROR when no folder is synced (or none of `names` can be watched).
   */
  watch(options: WatchFoldersOptions): Promise<FolderWatch>;
  /**
   * The store at a glance: size, items per tier and type, what waits for review, pending vectors,
   * the last consolidation, the synced folders' lag, and (with `clients`) the wired agent clients.
   */
  status(options?: StatusOptions): Promise<StatusReport>;
  /** JSONL lines, one complete item each, oldest first. */
  exportLines(options?: ExportOptions): AsyncIterable<string>;
  /** Quarantined, contradicted and soon-expiring (within `withinHours`, default 24) items. */
  review(options?: ReviewOptions): Promise<ReviewReport>;
  /** Verifies an item: injectable, expiry and quarantine cleared, after the reject rules pass again. */
  verify(id: string): Promise<ReviewDecision>;
  /** Rejects an item: archived, no longer injectable. */
  reject(id: string, options?: { reason?: string }): Promise<ReviewDecision>;
  /**
   * Upserts items from JSONL lines by id; malformed lines are reported, never dropped silently. A
   * BOM before the first line is skipped; keys import
   * does not know are counted in `unknown_keys`, or with `strict` make their line invalid.
   */
  importLines(
    lines: Iterable<string> | AsyncIterable<string>,
    options?: { strict?: boolean },
  ): Promise<ImportReport & Embedded>;
  /** Imports another tool's store through the write policy; a re-import updates; `dryRun` writes nothing. */
  importFrom(input: ImportFromInput): Promise<SourceImportReport & Embedded>;
  close(): void;
}

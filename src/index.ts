/**
 * engram's public library API. Every export here is public API: named exports only, each one
 * needed by a user today.
 */
export {
  type AutoConsolidateOptions,
  type BriefInput,
  type BriefResult,
  type AutoConsolidated,
  type AutoConsolidation,
  type CaptureInput,
  type CaptureRefusal,
  type CaptureReport,
  type CleanupPlan,
  type ConsolidationPlan,
  type Decay,
  type DeleteResult,
  type DoctorReport,
  type ReindexResult,
  type Engram,
  type EngramOptions,
  type GetQuery,
  type ImportFromInput,
  type ImportReport,
  type LinkResult,
  type ListInput,
  type ListResult,
  openEngram,
  type PalaceInput,
  type PalaceResult,
  type PutInput,
  type PutResult,
  type RecallInput,
  type RecallResult,
  type SearchHit,
  type SearchInput,
  type SearchResult,
  type SearchStage,
  type ShowResult,
  type SimilarItem,
  type SourceImportReport,
  type StatusReport,
  type Suggestion,
  type SuggestInput,
  type SyncReport,
  type UpdateInput,
  type WatchFoldersOptions,
  type WorkspaceInput,
  type WriteOptions,
} from './engram.js';
export { AUTO_CONSOLIDATE_DEFAULTS } from './context.js';
export { checkPolicy, POLICY_RULES } from './policy/check-policy.js';
export {
  EngramError,
  type ErrorCode,
  type ErrorPayload,
  EXIT_CODES,
  isEngramError,
} from './errors.js';
export type { AdmissionContext, AdmissionHook } from './items/admission.js';
export { createLlmProvider, type LlmProviderOptions } from './llm/create-provider.js';
export type { LlmMode, LlmProvider, LlmRequest } from './llm/provider.js';
export type { LoopResult } from './loop/controller.js';
export { LOOP_DEFAULTS, type LoopMemory, type LoopRecallFilters, type MemoryLoopInput, runMemoryLoop } from './loop/memory-loop.js';
export type { Directive, LoopProtocol } from './loop/protocol.js';
export { replayLoop } from './loop/replay.js';
export type { LoopSettings, StopReason, TraceEvent } from './loop/trace.js';
export type { QuarantinedItem, ReviewDecision, ReviewReport } from './items/governance.js';
export type { PolicyMatch, PolicyOptions, PolicySubject, PolicyVerdict, Verdict } from './policy/evaluate.js';
export type { PolicyAction, PolicyGroup, PolicyRule } from './policy/rules.js';
export type {
  AdjacentItem,
  ArchivedFilter,
  CorpusFile,
  CorpusRepository,
  DeleteCounts,
  DuplicateTarget,
  FolderRepository,
  HealthCheck,
  HistoryRepository,
  IndexText,
  ItemRepository,
  LinkRepository,
  ListFilter,
  ListPage,
  ListSort,
  MetaRepository,
  ScoredItem,
  Store,
  TextIndex,
  TextMode,
  TextQuery,
  VectorIndex,
  VectorModel,
  WorkspaceRepository,
} from './store/store.js';
export {
  ITEM_TYPES,
  type ItemType,
  LAYERS,
  type Layer,
  LINK_TYPES,
  type LinkType,
  type MemoryEvent,
  type MemoryItem,
  type MemoryLink,
  type Revision,
  SECRECY_TIERS,
  type Secrecy,
  type StoreStats,
  type SyncedFolder,
  TIERS,
  type Tier,
  TOKENIZER_NAMES,
  type TokenizerName,
  VALIDATIONS,
  type Validation,
  type Workspace,
} from './types.js';
export { VERSION } from './version.js';

/**
 * engram's public library API. Every export here is public API: named exports only, each one
 * needed by a user today.
 */
export {
  AUTO_CONSOLIDATE_DEFAULTS,
  type AutoConsolidateOptions,
  type AutoConsolidated,
  type AutoConsolidation,
  checkPolicy,
  type CleanupPlan,
  type ConsolidationPlan,
  type Decay,
  type DeleteResult,
  type DoctorReport,
  type ReindexResult,
  type Engram,
  type EngramOptions,
  type GetQuery,
  type ImportReport,
  type LinkResult,
  type ListInput,
  type ListResult,
  openEngram,
  type PalaceInput,
  type PalaceResult,
  POLICY_RULES,
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
  type Suggestion,
  type SuggestInput,
  type UpdateInput,
  type WorkspaceInput,
  type WriteOptions,
} from './engram.js';
export {
  EngramError,
  type ErrorCode,
  type ErrorPayload,
  EXIT_CODES,
  isEngramError,
} from './errors.js';
export type { AdmissionContext, AdmissionHook } from './items/admission.js';
export type { QuarantinedItem, ReviewDecision, ReviewReport } from './items/governance.js';
export type { PolicyMatch, PolicyOptions, PolicySubject, PolicyVerdict, Verdict } from './policy/evaluate.js';
export type { PolicyAction, PolicyGroup, PolicyRule } from './policy/rules.js';
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
  TIERS,
  type Tier,
  VALIDATIONS,
  type Validation,
  type Workspace,
} from './types.js';
export { VERSION } from './version.js';

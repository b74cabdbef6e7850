/**
 * The data model shared by every layer: the memory item (ARCHITECTURE.md §2), its enums, and the
 * shapes of history, links, events and statistics. Plain data only; no behaviour.
 */

/**
 * The valid values of each item enum, for validation and help texts.
 *
 * @example
 * if (!ITEM_TYPES.includes(value)) throw new Error(`type must be one of ${ITEM_TYPES.join(', ')}`);
 */
export const ITEM_TYPES = [
  'fact',
  'decision',
  'definition',
  'constraint',
  'pattern',
  'todo',
  'pointer',
  'note',
] as const;
export const TIERS = ['stm', 'mtm', 'ltm'] as const;
/** mem-context's memory types, accepted wherever a tier is read: episodic, semantic, permanent. */
export const TIER_ALIASES: Readonly<Record<string, (typeof TIERS)[number]>> = Object.freeze({
  episodic: 'stm',
  semantic: 'mtm',
  permanent: 'ltm',
});
export const LAYERS = ['project', 'feature', 'run'] as const;
export const VALIDATIONS = ['unverified', 'verified', 'contradicted'] as const;
export const SECRECY_TIERS = ['S0', 'S2', 'S3'] as const;
/** What recall counts its budget in: the built-in estimate, or a real BPE encoding (`recall/tokenizer.ts`). */
export const TOKENIZER_NAMES = ['chars', 'o200k', 'cl100k'] as const;
export const LINK_TYPES = [
  'supersedes',
  'supports',
  'contradicts',
  'derived_from',
  'related',
] as const;

export type ItemType = (typeof ITEM_TYPES)[number];
export type Tier = (typeof TIERS)[number];
export type Layer = (typeof LAYERS)[number];
export type Validation = (typeof VALIDATIONS)[number];
export type Secrecy = (typeof SECRECY_TIERS)[number];
export type TokenizerName = (typeof TOKENIZER_NAMES)[number];
export type LinkType = (typeof LINK_TYPES)[number];

/** One memory. Field order here is the field order of `export` lines. */
export interface MemoryItem {
  id: string;
  title: string;
  content: string;
  type: ItemType;
  tier: Tier;
  layer: Layer | null;
  task_id: string | null;
  step_id: string | null;
  key: string | null;
  scope: string;
  corpus_id: string | null;
  tags: string[];
  entities: string[];
  source: string | null;
  provenance: Record<string, unknown> | null;
  confidence: number;
  validation: Validation;
  weight: number;
  injectable: boolean;
  secrecy: Secrecy;
  version: number;
  usage_count: number;
  last_used_at: string | null;
  content_hash: string;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
  archived: boolean;
  /** Set by the write policy; stored but never injected until verified (`engram verify`). */
  quarantined: boolean;
}

/** The logical address memtool upserts on. */
export interface LogicalKey {
  layer: Layer;
  key: string;
  task_id: string | null;
  step_id: string | null;
}

/** One stored version of an item: the full state as it was after that write. */
export interface Revision {
  item_id: string;
  version: number;
  changed_at: string;
  actor: string | null;
  reason: string;
  item: MemoryItem;
}

export interface MemoryLink {
  src_id: string;
  dst_id: string;
  type: LinkType;
  created_at: string;
}

export interface MemoryEvent {
  id: number;
  item_id: string | null;
  action: string;
  actor: string | null;
  at: string;
  details: Record<string, unknown>;
}

/** A named workspace (KOAS): where `workspace=NAME` reads and writes. */
export interface Workspace {
  name: string;
  scope: string;
  corpus_id: string;
  description: string;
  created_at: string;
  updated_at: string;
}

/**
 * A folder kept in sync with the store (`engram sync add`): a directory re-ingested incrementally
 * into `scope` and `corpus_id` with its own globs, tags and format.
 */
export interface SyncedFolder {
  name: string;
  /** The directory, absolute. */
  path: string;
  scope: string;
  /** '' for none. */
  corpus_id: string;
  include: string[];
  exclude: string[];
  tags: string[];
  format: 'text' | 'auto';
  added_at: string;
  /** When the last sync of it began (files changed after that are pending); null before the first. */
  synced_at: string | null;
}

export interface StoreStats {
  path: string;
  schema_version: number;
  size_bytes: number;
  total: number;
  active: number;
  archived: number;
  /** Non-archived items held in quarantine. */
  quarantined: number;
  by_tier: Record<string, number>;
  by_type: Record<string, number>;
  by_layer: Record<string, number>;
  by_scope: Record<string, number>;
  /** The vector index's figures, when the store keeps vectors (added by the stats operation). */
  vectors?: VectorStats;
}

/** The vector figures `stats` and `doctor` show: the recorded model, vectors and pending items. */
export interface VectorStats {
  /** The model of the stored vectors and their dimension; null before the first vector. */
  model: string | null;
  dimensions: number | null;
  /** Items with a vector. */
  vectors: number;
  /** Items without one yet (filled by `engram embed`). */
  pending: number;
  /** The configured embedder's id, null without one. */
  embedder: string | null;
}

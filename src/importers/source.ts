/**
 * What every importer (`engram import --from SOURCE PATH`) reads a foreign store into: neutral
 * records, one per memory, that the import runner maps onto items and writes through the item
 * writer and the write policy. A reader never writes; it only says what it found and what it
 * could not map.
 */
import type { ItemType, Layer, LinkType, Secrecy, Tier, Validation } from '../types.js';

export const IMPORT_SOURCES = ['memctl', 'memtool', 'mem-context', 'mcp-memory-service', 'basic-memory'] as const;
export type ImportSourceName = (typeof IMPORT_SOURCES)[number];

/** One past version of a record (memctl revisions), oldest first. */
export interface SourceRevision {
  content: string;
  title?: string;
  /** RFC 3339. */
  changed_at: string;
  reason?: string;
}

/** A link from this record to another record of the same source, by the other's source id. */
export interface SourceLink {
  to: string;
  type: LinkType;
}

/** One memory of the source, mapped onto engram's fields as far as the source allows. */
export interface SourceRecord {
  /** The source's own id, stable across exports: kept in provenance so a re-import updates. */
  sourceId: string;
  content: string;
  title?: string;
  type?: ItemType;
  tier?: Tier;
  layer?: Layer | null;
  task_id?: string | null;
  step_id?: string | null;
  key?: string | null;
  scope?: string;
  /** The corpus an ingested chunk belongs to (RAGIX). */
  corpus_id?: string | null;
  tags?: string[];
  entities?: string[];
  confidence?: number;
  validation?: Validation;
  weight?: number;
  /** Whether recall may paste it into a prompt (RAGIX), and its redaction tier (KOAS). */
  injectable?: boolean;
  secrecy?: Secrecy;
  /** RFC 3339 (readers convert epoch seconds, naive dates and the like). */
  created_at?: string;
  updated_at?: string;
  expires_at?: string | null;
  /** The source's access count and last access (RFC 3339), as engram's usage. */
  usage_count?: number;
  last_used_at?: string | null;
  /** The source had archived (forgotten) it: kept, archived. */
  archived?: boolean;
  /** Where the memory came from in the source (a file, a URL), as engram's `source`. */
  source?: string | null;
  /** Further provenance from the source (session, file hash, …); merged under `import`. */
  provenance?: Record<string, unknown>;
  revisions?: SourceRevision[];
  links?: SourceLink[];
  /** A vector the source stored, kept only when its dimension matches the configured embedder. */
  vector?: Float32Array;
}

/** Something the reader found but could not map: a whole record, or one field of a record. */
export interface Unmapped {
  /** The record's source id, or a position (`line 12`) when it has none. */
  where: string;
  /** The source field, when one field was dropped and the record kept. */
  field?: string;
  reason: string;
}

export type SourceEntry = { record: SourceRecord } | { unmapped: Unmapped };

export interface ImportSource {
  name: ImportSourceName;
  /** One line for help and the dry-run report: what PATH must be. */
  expects: string;
  /** The field mapping `--dry-run` shows: source field → engram field. */
  mapping: ReadonlyArray<readonly [string, string]>;
  /**
   * The store PATH is, for a source whose ids are unique only within one store (basic-memory's
   * permalinks, within a project folder): kept in `provenance.import.namespace` and part of the
   * derived id, so two stores never update each other's items. Undefined: ids are global.
   */
  namespace?(path: string): Promise<string>;
  /**
   * Reads PATH (`-`: `stdin`, else the process's standard input, for the sources that allow it);
   * throws an EngramError (PARAM_ERROR, with a hint) when PATH is not this source.
   */
  read(path: string, stdin?: NodeJS.ReadableStream): AsyncIterable<SourceEntry>;
}

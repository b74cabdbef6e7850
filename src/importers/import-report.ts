/**
 * What `engram import --from SOURCE PATH` reports. The record counts add up:
 * `read = created + updated + unchanged + refused + invalid + unmapped`. Everything the source held
 * that engram does not hold afterwards is listed: refused and invalid records (and past versions)
 * under `refusals`, records, fields and links the source could not map under `not_mapped`.
 */
import type { ErrorCode } from '../errors.js';
import type { PolicyMatch } from '../policy/evaluate.js';
import type { ImportSourceName, Unmapped } from './source.js';

/** A record (or one past version of it) the import did not store, and why. */
export interface ImportRefusal {
  /** The record's source id; `ID (version N)` for a past version. */
  where: string;
  error: ErrorCode;
  message: string;
  /** The policy rules that refused it, their excerpts masked. */
  rules?: PolicyMatch[];
}

export interface SourceImportReport {
  from: ImportSourceName;
  /** The path given, as given. */
  path: string;
  dry_run: boolean;
  /** Records the source held, the ones it could not map included. */
  read: number;
  created: number;
  updated: number;
  /** Already imported and identical (a re-import). */
  unchanged: number;
  /** Refused by the write policy (a secret, text addressing the model, …). */
  refused: number;
  /** Not a valid item (empty content, a field out of range). */
  invalid: number;
  /** Records the reader found but could not map at all. */
  unmapped: number;
  /** Of the created and updated items, those the policy holds in quarantine (not injected until verified). */
  quarantined: number;
  /** Past versions stored as the items' history, and those refused by the policy. */
  revisions: { stored: number; refused: number };
  /** Links between imported records: added, already there, and those whose other end is missing. */
  links: { created: number; existing: number; unresolved: number };
  /** The source's vectors: kept (the embedder's dimension), dropped (counted by reason). */
  vectors: { kept: number; dropped: number; reasons: Record<string, number> };
  refusals: ImportRefusal[];
  not_mapped: Unmapped[];
  /** Stopped early (SIGINT): the records counted are written, the rest and the links are not. */
  interrupted?: boolean;
  /** The source's field mapping (source field → engram field), shown by a dry run. */
  mapping?: ReadonlyArray<readonly [string, string]>;
}

/** An empty report for a run of `from` over `path`. */
export function emptyReport(from: ImportSourceName, path: string, dryRun: boolean): SourceImportReport {
  return {
    from,
    path,
    dry_run: dryRun,
    read: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    refused: 0,
    invalid: 0,
    unmapped: 0,
    quarantined: 0,
    revisions: { stored: 0, refused: 0 },
    links: { created: 0, existing: 0, unresolved: 0 },
    vectors: { kept: 0, dropped: 0, reasons: {} },
    refusals: [],
    not_mapped: [],
  };
}

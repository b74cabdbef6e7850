/** What `ingest` reports: a status per file, its chunks and what the policy refused, and totals. */

export interface IngestProgress {
  files_done: number;
  files_total: number;
  bytes: number;
  chunks: number;
  current: string;
}

/**
 * `partial`: some chunks stored, some refused by the policy; `removed`: the file is gone from the
 * re-ingested directory and its chunks were archived; `retagged`: the file is unchanged but its
 * chunks lacked some of the `--tags`, which they now carry (a new version of each).
 */
export type FileStatus = 'ingested' | 'unchanged' | 'retagged' | 'partial' | 'removed' | 'skipped' | 'failed';

/** A chunk the policy refused: where it is and which rules refused it; its text is kept nowhere. */
export interface RefusedChunk {
  chunk: number;
  line_start: number;
  line_end: number;
  rules: string[];
}

export interface FileReport {
  path: string;
  status: FileStatus;
  reason?: string;
  note?: string;
  /** Chunks the policy refused (status `partial`, or `failed` when every chunk was refused). */
  refused?: RefusedChunk[];
  /** Chunks the file has now (new items plus identical chunks already stored). */
  chunks: number;
  /** Of those, chunks whose identical content was already stored. */
  deduplicated: number;
  /** Old chunk items archived because the file changed or is gone. */
  archived: number;
  bytes: number;
}

export interface IngestReport {
  dry_run: boolean;
  chunk_chars: number;
  files: FileReport[];
  totals: Record<FileStatus, number> & { files: number; chunks: number; bytes: number };
  /** Symlinks not followed because their target is outside the directory walked (also in `files`, skipped). */
  symlinks_outside: string[];
}

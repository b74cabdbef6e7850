/**
 * Ingest's writes, batched: the files planned so far (read, chunked and judged outside any
 * transaction) are written together in one transaction, each file in a savepoint of its own. A
 * file whose write fails leaves nothing of itself (its savepoint is rolled back) and the others
 * are kept; a store error (busy, damaged) rolls the whole batch back and stops the run, as it did
 * file by file. A crash loses at most the batch being written: those files are not recorded as
 * done, so the next run ingests them again. Committing once per batch instead of once per file
 * saves a WAL write per file, and the write lock is held only while the batch is written.
 *
 * A batch is first written without the savepoints: SQLite's full-text index writes its pending
 * terms out at every savepoint (a segment per file, merged again later), which cost a tenth of an
 * ingest. When a file's write fails, that attempt is rolled back whole and the batch is written
 * again, a savepoint per file as above: the outcome is the same, and a file's report is completed
 * only once its batch is committed.
 */
import { isEngramError } from '../errors.js';
import { MAX_CONTENT_CHARS } from '../policy/rules.js';
import type { Planned } from './plan-chunks.js';
import type { FileReport, FileStatus } from './report.js';
import { type CorpusTarget, type FileRecord, writeFile } from './write-file.js';

/** A planned file waiting to be written: its report is completed by the write. */
export interface FileWrite {
  file: FileReport;
  status: FileStatus;
  record: FileRecord;
  planned: readonly Planned[];
  oldIds: readonly string[];
  at: string;
}

/** When a batch is written: this many files, this much chunk text, or this long after its first file. */
export interface BatchLimits {
  files: number;
  chars: number;
  ms: number;
}

export const BATCH_LIMITS: Readonly<BatchLimits> = Object.freeze({ files: 32, chars: 2_000_000, ms: 500 });

export interface WriteBatch {
  /** Queues a file; writes the batch when it is full. */
  add(job: FileWrite): Promise<void>;
  /** True when a file of this corpus key waits in the batch (it must be written before the key is read again). */
  holds(key: string): boolean;
  /** Writes what waits. */
  flush(): Promise<void>;
}

/** A store error (busy, damaged, unreadable): it stops the run, where a file's own failure does not. */
function isStoreFailure(error: unknown): boolean {
  return isEngramError(error) && (error.code === 'DB_BUSY' || error.code === 'DB_ERROR');
}

/** Why a file's write failed, as its report says it. */
export function failureReason(error: unknown): string {
  return isEngramError(error) ? `${error.code}: ${error.message}` : `unexpected error (${(error as Error).message})`;
}

/** How much chunk text a file writes. */
function textOf(job: FileWrite): number {
  let chars = 0;
  for (const p of job.planned) chars += p.item.content.length;
  return chars;
}

/**
 * A batch writer over a corpus target.
 *
 * @example
 * const batch = createWriteBatch(target);
 * for (const job of jobs) await batch.add(job);
 * await batch.flush();
 */
export function createWriteBatch(target: CorpusTarget, limits: Readonly<BatchLimits> = BATCH_LIMITS): WriteBatch {
  let jobs: FileWrite[] = [];
  let chars = 0;
  let since = 0;
  const keys = new Set<string>();

  /** The batch's outcome per file, each in a savepoint (`savepoints`) or, when none fails, all at once. */
  const write = (pending: readonly FileWrite[], bulk: boolean, savepoints: boolean) =>
    target.store.transaction(async () => {
      const outcomes: Partial<FileReport>[] = [];
      for (const job of pending) {
        const once = () => writeFile(target, job.record, job.planned, job.oldIds, job.at);
        if (!savepoints) {
          outcomes.push({ status: job.status, ...(await once()).counts });
          continue;
        }
        try {
          const written = await target.store.transaction(once);
          outcomes.push({ status: job.status, ...written.counts });
        } catch (error) {
          if (isStoreFailure(error)) throw error;
          outcomes.push({ status: 'failed', reason: failureReason(error) });
        }
      }
      return outcomes;
    }, { bulk });

  const flush = async () => {
    if (jobs.length === 0) return;
    const pending = jobs;
    // Each file's savepoint keeps its journal in memory (SQLite drops it when the file is written)
    // unless one file alone, its new chunks or the old ones it replaces (a 40 MB file cut to a
    // line archives them all), is longer than a batch: its journal stays on disk as before.
    const bulk = pending.every((job) => Math.max(textOf(job), job.oldIds.length * MAX_CONTENT_CHARS) <= limits.chars);
    jobs = [];
    chars = 0;
    keys.clear();
    let outcomes: Partial<FileReport>[];
    try {
      outcomes = await write(pending, bulk, false);
    } catch (error) {
      if (isStoreFailure(error)) throw error;
      outcomes = await write(pending, bulk, true);
    }
    for (const [i, job] of pending.entries()) Object.assign(job.file, outcomes[i]);
  };

  return {
    async add(job) {
      if (jobs.length === 0) since = Date.now();
      jobs.push(job);
      keys.add(job.record.key);
      chars += textOf(job);
      if (jobs.length >= limits.files || chars >= limits.chars || Date.now() - since >= limits.ms) await flush();
    },
    holds: (key) => keys.has(key),
    flush,
  };
}

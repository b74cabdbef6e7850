/**
 * The files ingest plans ahead of the one it writes (when the policy runs on worker threads):
 * planned in order, settled in order, at most {@link LOOKAHEAD} files or bytes at a time.
 */
import type { FileReport } from './report.js';
import type { SourceEntry } from './sources.js';
import type { FileWrite } from './write-batch.js';

/** How far ahead ingest plans: this many files, or files of this many bytes in all. */
export const LOOKAHEAD = Object.freeze({ files: 16, bytes: 32 * 1024 * 1024 });

/** A file being planned: its report, and its write or the error that failed it (the promise never rejects). */
export interface Planning {
  entry: SourceEntry;
  file: FileReport;
  plan: Promise<{ job: FileWrite | undefined } | { error: unknown }>;
}

function keyOf(entry: SourceEntry): string {
  return entry.kind === 'file' ? entry.path : entry.kind;
}

function bytesOf(entry: SourceEntry): number {
  return entry.kind === 'file' ? entry.size : 0;
}

export class Lookahead {
  private readonly queue: Planning[] = [];
  private bytes = 0;

  constructor(private readonly limits: { files: number; bytes: number }) {}

  get size(): number {
    return this.queue.length;
  }

  /** True when a file of the same key (path, or standard input) is being planned. */
  has(entry: SourceEntry): boolean {
    const key = keyOf(entry);
    return this.queue.some((p) => keyOf(p.entry) === key);
  }

  full(): boolean {
    return this.queue.length >= this.limits.files || (this.queue.length > 0 && this.bytes >= this.limits.bytes);
  }

  push(entry: SourceEntry, file: FileReport, plan: Planning['plan']): void {
    this.queue.push({ entry, file, plan });
    this.bytes += bytesOf(entry);
  }

  /** The oldest file being planned, taken off the queue. */
  next(): Planning {
    const planning = this.queue.shift() as Planning;
    this.bytes -= bytesOf(planning.entry);
    return planning;
  }

  /** Waits for every plan still running (after a failure stopped the run). */
  async drain(): Promise<void> {
    await Promise.all(this.queue.splice(0).map((p) => p.plan));
  }
}

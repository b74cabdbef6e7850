/**
 * Wraps driver errors once, at the store boundary: a busy database becomes a retryable DB_BUSY,
 * a damaged page STORE_CORRUPT, anything else from SQLite a DB_ERROR, always keeping the original
 * as `cause`.
 */
import { EngramError, FIX_HINTS, isEngramError } from '../../errors.js';
import { storeCorrupt } from './page-check.js';

const BUSY_CODES = new Set([
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_RECOVERY',
  'SQLITE_LOCKED',
]);

function sqliteCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** True when the error is SQLite reporting a lock held by another connection. */
export function isBusyError(error: unknown): boolean {
  if (isEngramError(error)) return error.code === 'DB_BUSY';
  const code = sqliteCode(error);
  return code !== undefined && BUSY_CODES.has(code);
}

/** Maps a thrown value from the driver to an EngramError; EngramErrors pass through. */
export function toStoreError(error: unknown, path: string): unknown {
  if (isEngramError(error)) return error;
  const code = sqliteCode(error);
  if (code === undefined) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (BUSY_CODES.has(code)) {
    return new EngramError('DB_BUSY', `Database is locked by another writer: ${path}`, {
      hint: 'Another process is writing. Retry after a short delay.',
      details: { path },
      cause: error,
    });
  }
  if (code === 'SQLITE_READONLY_DBMOVED') {
    // The file was unlinked while this connection waited to lock it: an empty store that its
    // creator removed (see remove-empty-store.ts). Nothing was written; a new attempt opens the path afresh.
    return new EngramError('DB_BUSY', `The store was removed while it was being opened: ${path}`, {
      hint: 'Retry the command.',
      details: { path, sqlite_code: code },
      cause: error,
    });
  }
  if (code.startsWith('SQLITE_CORRUPT')) return storeCorrupt(path, [], error);
  if (code === 'SQLITE_NOTADB') {
    return new EngramError('DB_ERROR', `Not a valid engram database (${message}): ${path}`, {
      hint: FIX_HINTS.check_store_path,
      fix: 'check_store_path',
      details: { path, sqlite_code: code },
      cause: error,
    });
  }
  if (code === 'SQLITE_CANTOPEN') {
    return new EngramError('DB_ERROR', `Cannot open database file: ${path}`, {
      hint: FIX_HINTS.store_dir_writable,
      fix: 'store_dir_writable',
      details: { path, sqlite_code: code },
      cause: error,
    });
  }
  if (code === 'SQLITE_FULL') {
    return new EngramError('DB_ERROR', `Disk full while writing ${path}`, {
      hint: 'Free some disk space; nothing was written.',
      details: { path, sqlite_code: code },
      cause: error,
    });
  }
  return new EngramError('DB_ERROR', `Database error (${code}): ${message}`, {
    details: { path, sqlite_code: code },
    cause: error,
  });
}

export const MAX_BUSY_RETRIES = 8;

/** Blocks the thread for `ms` milliseconds. Only while a store is being opened, before it serves anyone. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `fn`, retrying with jittered backoff while SQLite reports the database busy beyond its own
 * busy timeout; `fn` must be safe to re-run (a rolled-back transaction is). Synchronous: used
 * while opening a store only; transactions retry with {@link retryBusy}.
 */
export function withBusyRetry<T>(fn: () => T, retries = MAX_BUSY_RETRIES): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (error) {
      if (!isBusyError(error) || attempt >= retries) throw error;
      sleepSync(busyBackoff(attempt));
    }
  }
}

/** The backoff before retry `attempt` (0-based): jittered, doubling from 25 ms up to 1 s. */
export function busyBackoff(attempt: number): number {
  return Math.min(1000, 25 * 2 ** attempt) * (0.5 + Math.random());
}

/**
 * Like {@link withBusyRetry}, but waits with a timer, so the event loop (an HTTP server's other
 * requests) keeps running between attempts.
 */
export async function retryBusy<T>(fn: () => Promise<T>, retries = MAX_BUSY_RETRIES): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!isBusyError(error) || attempt >= retries) throw error;
      await new Promise((resolve) => setTimeout(resolve, busyBackoff(attempt)));
    }
  }
}

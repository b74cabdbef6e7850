/**
 * One better-sqlite3 connection shared by async callers (kysely's pattern for a synchronous
 * driver): a mutex lets one transaction at a time hold the connection across its awaits, while a
 * single statement outside a transaction runs at once when the connection is free. A call made
 * from inside a running transaction's own async flow (through `tx` or the outer store alike) runs
 * in that transaction instead of waiting for it, so it can never deadlock. Driver errors
 * become EngramErrors here ({@link toStoreError}); busy transactions are retried with a timer.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { EngramError } from '../../errors.js';
import { MAX_BUSY_RETRIES, retryBusy, toStoreError } from './errors.js';

/** The part of a better-sqlite3 handle the connection uses. */
export interface TransactionHandle {
  exec(sql: string): unknown;
  readonly inTransaction: boolean;
  readonly open: boolean;
  close(): unknown;
}

/** How long a call waits for another flow's transaction before giving up with DB_BUSY. */
const WAIT_LIMIT_MS = 60_000;

export class Connection {
  #locked = false;
  readonly #waiters: (() => void)[] = [];
  #savepoints = 0;
  /** Marks the async flow of the running transaction. */
  readonly #flow = new AsyncLocalStorage<Connection>();

  constructor(
    readonly db: TransactionHandle,
    readonly path: string,
    readonly busyRetries = MAX_BUSY_RETRIES,
  ) {}

  /** Runs `fn` with driver errors mapped; for calls already holding the connection (inside a transaction). */
  guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      throw toStoreError(error, this.path);
    }
  }

  /** Runs one synchronous step alone on the connection: at once when it is free, else after the running transaction. */
  run<T>(fn: () => T): Promise<T> {
    if (!this.#locked || this.inTransaction()) {
      try {
        return Promise.resolve(this.guard(fn));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.#acquire().then(() => {
      try {
        return this.guard(fn);
      } finally {
        this.#release();
      }
    });
  }

  /** True inside the async flow of this connection's running transaction. */
  inTransaction(): boolean {
    return this.#flow.getStore() === this;
  }

  /**
   * `BEGIN IMMEDIATE` … `COMMIT` around `fn`, holding the connection; rolled back when `fn` throws.
   * Inside the running transaction's flow it is a savepoint instead. `bulk`: its savepoints' page
   * copies are kept in memory (`temp_store`, read by SQLite when the transaction begins).
   */
  async transaction<T>(fn: () => Promise<T>, { bulk = false }: { bulk?: boolean } = {}): Promise<T> {
    if (this.inTransaction()) return this.savepoint(fn);
    await this.#acquire();
    try {
      if (bulk) this.guard(() => this.db.exec('PRAGMA temp_store = MEMORY'));
      return await retryBusy(async () => {
        this.guard(() => this.db.exec('BEGIN IMMEDIATE'));
        try {
          const result = await this.#flow.run(this, fn);
          this.guard(() => this.db.exec('COMMIT'));
          return result;
        } catch (error) {
          if (this.db.inTransaction) this.db.exec('ROLLBACK');
          throw toStoreError(error, this.path);
        }
      }, this.busyRetries);
    } finally {
      if (bulk) this.#defaultTempStore();
      this.#release();
    }
  }

  /**
   * Back to journals on disk after a bulk transaction. Best effort: SQLite refuses the change while
   * a transaction is still open (a failed rollback), and the transaction's own outcome is what its
   * caller must see; the setting only decides where later journals are kept.
   */
  #defaultTempStore(): void {
    try {
      if (this.db.open && !this.db.inTransaction) this.db.exec('PRAGMA temp_store = DEFAULT');
    } catch {
      // Left as it was: see above.
    }
  }

  /** A savepoint inside the running transaction: `fn`'s writes are undone alone when it throws. */
  async savepoint<T>(fn: () => Promise<T>): Promise<T> {
    const name = `engram_${++this.#savepoints}`;
    this.guard(() => this.db.exec(`SAVEPOINT ${name}`));
    try {
      const result = await fn();
      this.guard(() => this.db.exec(`RELEASE ${name}`));
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      throw toStoreError(error, this.path);
    }
  }

  /** Closes the connection once the running transaction (if any) has finished. */
  async close(): Promise<void> {
    if (this.#locked && !this.inTransaction()) await this.#acquire();
    if (this.db.open) this.db.close();
  }

  #acquire(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const at = this.#waiters.indexOf(grant);
        if (at >= 0) this.#waiters.splice(at, 1);
        reject(new EngramError('DB_BUSY', `Waited ${WAIT_LIMIT_MS / 1000} s for a running transaction: ${this.path}`, {
          hint: 'Another operation of this process holds the store; retry when it has finished.',
          details: { path: this.path },
        }));
      }, WAIT_LIMIT_MS);
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      this.#waiters.push(grant);
    });
  }

  #release(): void {
    const next = this.#waiters.shift();
    if (next === undefined) this.#locked = false;
    else next();
  }
}

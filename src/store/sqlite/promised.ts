/**
 * The SQLite repositories are written synchronously (the driver is); these helpers give them the
 * async contract, each call running through the connection ({@link Connection.run}) or, inside a
 * transaction, directly.
 */

/** The synchronous shape of an async repository interface. */
export type Sync<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : T[K];
};

/** Runs one synchronous step: on the connection's queue, or at once inside a transaction. */
export type Runner = <R>(fn: () => R) => Promise<R>;

/** The async repository whose every method runs `sync`'s method through `run`. */
export function promised<T extends object>(sync: Sync<T>, run: Runner): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(sync)) {
    out[key] = typeof value === 'function' ? (...args: unknown[]) => run(() => value(...args)) : value;
  }
  // Sound by construction: every function member of Sync<T> became its Promise-returning twin.
  return out as T;
}

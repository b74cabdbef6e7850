/**
 * A repository's fixed statements, each prepared the first time it is used: a command that opens
 * the store runs a few of them, and preparing every one at each open (about 2.5 ms here) was most
 * of a short command's time in the store.
 */
import type Database from 'better-sqlite3';

/**
 * `make`'s statements as properties, each built by its function on first read and kept.
 *
 * @example
 * const statements = lazyStatements({ get: () => db.prepare('SELECT * FROM t WHERE id = ?') });
 * statements.get.get(1); // prepared now, reused after
 */
export function lazyStatements<K extends string>(
  make: Record<K, () => Database.Statement<unknown[]>>,
): Readonly<Record<K, Database.Statement<unknown[]>>> {
  const statements = {} as Record<K, Database.Statement<unknown[]>>;
  for (const name of Object.keys(make) as K[]) {
    let statement: Database.Statement<unknown[]> | undefined;
    Object.defineProperty(statements, name, {
      enumerable: true,
      get: () => (statement ??= make[name]()),
    });
  }
  return statements;
}

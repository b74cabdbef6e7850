/**
 * Another program's SQLite database, opened read-only for an importer (`engram import`): the few
 * calls a reader needs to look at a schema it does not own and walk its rows. Nothing here can
 * write; a private copy is read (with its WAL), so the file and its folder are left as they were.
 */

/** One row as the driver returns it: column name → value (text, number, bigint, Buffer or null). */
export type ForeignRow = Record<string, unknown>;

/** A prepared statement over the foreign database. */
export interface ForeignStatement {
  all(...params: unknown[]): ForeignRow[];
  get(...params: unknown[]): ForeignRow | undefined;
  /** Rows one at a time, for tables too large to hold at once. */
  iterate(...params: unknown[]): IterableIterator<ForeignRow>;
}

export interface ForeignDatabase {
  readonly path: string;
  /** Names of the tables and virtual tables (SQLite's own excluded). */
  tables(): string[];
  /** Column names of `table`, in declaration order; [] when there is no such table. */
  columns(table: string): string[];
  /** The `CREATE` statement of `table`, or undefined. */
  schemaOf(table: string): string | undefined;
  prepare(sql: string): ForeignStatement;
  /** True when the sqlite-vec extension is loaded, so `vec0` tables can be read. */
  readonly vectors: boolean;
  close(): void;
}

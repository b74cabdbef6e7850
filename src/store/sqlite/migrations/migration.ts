/** The shape of one schema migration: a version number and the SQL that takes v-1 to v. */
export interface MigrationContext {
  /** The FTS5 tokenizer preset (`fr`, `en`, `raw`) and its spec, used when the index is created. */
  ftsTokenizer: { name: string; spec: string };
  /** Whether this SQLite build has FTS5. */
  fts5: boolean;
}

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[] | ((context: MigrationContext) => readonly string[]);
  /** schema_meta entries recorded with the migration (never overwriting existing ones). */
  readonly meta?: (context: MigrationContext) => Record<string, string>;
}

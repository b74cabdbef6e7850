/** The shape of one schema migration: a version number and the SQL that takes v-1 to v. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[];
}

/**
 * Schema v11: the full-text index removes a deleted row's terms from its segments at once
 * (FTS5 `secure-delete`), instead of appending a tombstone that leaves them in the file until a
 * merge. With `PRAGMA secure_delete` (set on every connection) a hard delete or purge leaves none
 * of the item's text in the database file.
 */
import type { Migration } from './migration.js';

export const MIGRATION_0011: Migration = {
  version: 11,
  name: 'secure-delete',
  statements: ({ fts5 }) => (fts5 ? ['INSERT INTO memory_fts (memory_fts, rank) VALUES (\'secure-delete\', 1)'] : []),
};

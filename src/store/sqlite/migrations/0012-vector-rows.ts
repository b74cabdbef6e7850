/**
 * Schema v12: which items have a vector. The vectors themselves live in a `vec0` virtual table
 * (`memory_vectors`, sqlite-vec) created for the embedder's dimension when the first one is stored,
 * keyed by the item's rowid; this plain table lists those rowids so that counting and finding the
 * items still without a vector (pending) never has to scan the vectors.
 */
import type { Migration } from './migration.js';

export const MIGRATION_0012: Migration = {
  version: 12,
  name: 'vector-rows',
  statements: ['CREATE TABLE IF NOT EXISTS memory_vector_rows (item_rowid INTEGER PRIMARY KEY)'],
};

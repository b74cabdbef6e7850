/**
 * Schema v5: the normalised content hash (case, spacing and NFKC folded) that dedup on write
 * looks up in a scope. Existing rows are filled by the `engram_normalised_hash` SQL function the
 * store registers on every connection.
 */
import type { Migration } from './migration.js';

export const MIGRATION_0005: Migration = {
  version: 5,
  name: 'dedup',
  statements: [
    'ALTER TABLE memory_items ADD COLUMN normalised_hash TEXT',
    'UPDATE memory_items SET normalised_hash = engram_normalised_hash(content)',
    'CREATE INDEX idx_items_normalised ON memory_items(scope, normalised_hash) WHERE archived = 0',
  ],
};

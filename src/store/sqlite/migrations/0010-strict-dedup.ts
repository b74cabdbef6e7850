/**
 * Schema v10: dedup on write compares texts as written (line endings and spacing aside), no longer
 * folding case and Unicode compatibility forms, which can carry meaning (`Prod-Assets`, `2³`). The
 * hash of every row is computed again by the `engram_normalised_hash` SQL function.
 */
import type { Migration } from './migration.js';

export const MIGRATION_0010: Migration = {
  version: 10,
  name: 'strict-dedup',
  statements: ['UPDATE memory_items SET normalised_hash = engram_normalised_hash(content)'],
};

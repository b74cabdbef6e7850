/**
 * Schema v14: the live-memory index also orders each tier by recency, so the session brief (the
 * newest live memories of each tier) reads its rows from the index in order instead of walking
 * every item by date looking for those of one tier. The tier counts keep using it by its prefix.
 */
import { LIVE_MEMORY } from './0008-live-memories.js';
import type { Migration } from './migration.js';

export const MIGRATION_0014: Migration = {
  version: 14,
  name: 'live-by-recency',
  statements: [
    'DROP INDEX idx_items_live_memories',
    `CREATE INDEX idx_items_live_memories ON memory_items(tier, updated_at, id) WHERE ${LIVE_MEMORY}`,
  ],
};

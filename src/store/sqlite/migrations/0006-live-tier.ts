/**
 * Schema v6: live items by tier and scope, so the automatic consolidation trigger can count the
 * short-term items of a store after a write without scanning it.
 */
import type { Migration } from './migration.js';

export const MIGRATION_0006: Migration = {
  version: 6,
  name: 'live-tier',
  statements: ['CREATE INDEX idx_items_live_tier ON memory_items(tier, scope) WHERE archived = 0'],
};

/**
 * Schema v3: the quarantine flag set by the write policy. A quarantined item is stored but never
 * injected until `engram verify` clears it; the partial index serves `engram review`.
 */
import type { Migration } from './migration.js';

export const MIGRATION_0003: Migration = {
  version: 3,
  name: 'quarantine',
  statements: [
    'ALTER TABLE memory_items ADD COLUMN quarantined INTEGER NOT NULL DEFAULT 0',
    'CREATE INDEX idx_items_quarantined ON memory_items(quarantined) WHERE quarantined = 1',
  ],
};

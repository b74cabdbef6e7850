/**
 * Schema v13: folders kept in sync (`engram sync add`). A folder is a name, an absolute directory
 * (one name per directory), the scope and corpus its chunks go to, its ingest options (include and
 * exclude globs, tags, format, as JSON) and when its last sync began. Also an index of events by
 * action, so `status` finds the last consolidation without reading the whole audit trail.
 */
import type { Migration } from './migration.js';

export const MIGRATION_0013: Migration = {
  version: 13,
  name: 'synced-folders',
  statements: [
    `CREATE TABLE synced_folders (
      name      TEXT PRIMARY KEY,
      path      TEXT NOT NULL UNIQUE,
      scope     TEXT NOT NULL,
      corpus_id TEXT NOT NULL DEFAULT '',
      options   TEXT NOT NULL DEFAULT '{}',
      added_at  TEXT NOT NULL,
      synced_at TEXT
    ) STRICT`,
    'CREATE INDEX idx_events_action ON memory_events(action, id)',
  ],
};

/**
 * Schema v1: items, their tag and entity tables, revisions, events and links. Never edit a
 * migration that has shipped; add the next one instead.
 */
import type { Migration } from './migration.js';

export const MIGRATION_0001: Migration = {
  version: 1,
  name: 'initial',
  statements: [
    `CREATE TABLE memory_items (
      id            TEXT PRIMARY KEY,
      title         TEXT NOT NULL DEFAULT '',
      content       TEXT NOT NULL,
      type          TEXT NOT NULL,
      tier          TEXT NOT NULL,
      layer         TEXT,
      task_id       TEXT,
      step_id       TEXT,
      key           TEXT,
      scope         TEXT NOT NULL,
      corpus_id     TEXT,
      source        TEXT,
      provenance    TEXT,
      confidence    REAL NOT NULL,
      validation    TEXT NOT NULL,
      weight        REAL NOT NULL,
      injectable    INTEGER NOT NULL,
      secrecy       TEXT NOT NULL,
      version       INTEGER NOT NULL,
      usage_count   INTEGER NOT NULL DEFAULT 0,
      last_used_at  TEXT,
      content_hash  TEXT NOT NULL,
      created_at    TEXT NOT NULL,
      updated_at    TEXT NOT NULL,
      expires_at    TEXT,
      archived      INTEGER NOT NULL DEFAULT 0
    )`,
    'CREATE INDEX idx_items_logical_key ON memory_items(layer, key, task_id, step_id)',
    'CREATE INDEX idx_items_task_step ON memory_items(task_id, step_id)',
    'CREATE INDEX idx_items_archived_updated ON memory_items(archived, updated_at)',
    'CREATE INDEX idx_items_archived_created ON memory_items(archived, created_at)',
    'CREATE INDEX idx_items_created ON memory_items(created_at, id)',
    'CREATE INDEX idx_items_scope ON memory_items(scope)',
    'CREATE INDEX idx_items_content_hash ON memory_items(content_hash)',
    `CREATE TABLE memory_tags (
      item_id  TEXT NOT NULL REFERENCES memory_items(id) ON DELETE CASCADE,
      tag      TEXT NOT NULL,
      position INTEGER NOT NULL,
      PRIMARY KEY (item_id, tag)
    ) WITHOUT ROWID`,
    'CREATE INDEX idx_tags_tag ON memory_tags(tag, item_id)',
    `CREATE TABLE memory_entities (
      item_id  TEXT NOT NULL REFERENCES memory_items(id) ON DELETE CASCADE,
      entity   TEXT NOT NULL,
      position INTEGER NOT NULL,
      PRIMARY KEY (item_id, entity)
    ) WITHOUT ROWID`,
    'CREATE INDEX idx_entities_entity ON memory_entities(entity, item_id)',
    `CREATE TABLE memory_revisions (
      item_id    TEXT NOT NULL REFERENCES memory_items(id) ON DELETE CASCADE,
      version    INTEGER NOT NULL,
      changed_at TEXT NOT NULL,
      actor      TEXT,
      reason     TEXT NOT NULL,
      snapshot   TEXT NOT NULL,
      PRIMARY KEY (item_id, version)
    )`,
    `CREATE TABLE memory_events (
      id      INTEGER PRIMARY KEY AUTOINCREMENT,
      item_id TEXT,
      action  TEXT NOT NULL,
      actor   TEXT,
      at      TEXT NOT NULL,
      details TEXT NOT NULL DEFAULT '{}'
    )`,
    'CREATE INDEX idx_events_item ON memory_events(item_id, id)',
    `CREATE TABLE memory_links (
      src_id     TEXT NOT NULL REFERENCES memory_items(id) ON DELETE CASCADE,
      dst_id     TEXT NOT NULL REFERENCES memory_items(id) ON DELETE CASCADE,
      type       TEXT NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (src_id, dst_id, type)
    )`,
    'CREATE INDEX idx_links_dst ON memory_links(dst_id)',
  ],
};

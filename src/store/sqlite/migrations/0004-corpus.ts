/**
 * Schema v4: provenance of ingested files. `corpus_hashes` records each file's SHA-256 once it is
 * ingested (re-ingesting an unchanged file is a no-op); `corpus_chunks` lists the items holding
 * its chunks, in order — an item may serve several files when their chunks are identical.
 */
import type { Migration } from './migration.js';

export const MIGRATION_0004: Migration = {
  version: 4,
  name: 'corpus',
  statements: [
    `CREATE TABLE corpus_hashes (
      id          INTEGER PRIMARY KEY,
      corpus_id   TEXT NOT NULL DEFAULT '',
      path        TEXT NOT NULL,
      sha256      TEXT NOT NULL,
      size_bytes  INTEGER NOT NULL,
      chunks      INTEGER NOT NULL,
      ingested_at TEXT NOT NULL,
      UNIQUE (corpus_id, path)
    )`,
    `CREATE TABLE corpus_chunks (
      file_id  INTEGER NOT NULL REFERENCES corpus_hashes(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      item_id  TEXT NOT NULL REFERENCES memory_items(id) ON DELETE CASCADE,
      PRIMARY KEY (file_id, position)
    ) WITHOUT ROWID`,
    'CREATE INDEX idx_corpus_chunks_item ON corpus_chunks(item_id)',
  ],
};

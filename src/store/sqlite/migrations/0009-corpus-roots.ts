/**
 * Schema v9: where an ingested file came from and what was refused. `root` is the directory the
 * file was found in by walking a directory source (NULL for a file named directly, a glob or
 * stdin): a re-ingest of that directory archives the files gone from it. `scope` is the scope its
 * chunks were stored in. `refused` counts the chunks the policy refused (the file is `partial`);
 * what they said is stored nowhere.
 */
import type { Migration } from './migration.js';

export const MIGRATION_0009: Migration = {
  version: 9,
  name: 'corpus-roots',
  statements: [
    'ALTER TABLE corpus_hashes ADD COLUMN root TEXT',
    'ALTER TABLE corpus_hashes ADD COLUMN scope TEXT',
    'ALTER TABLE corpus_hashes ADD COLUMN refused INTEGER NOT NULL DEFAULT 0',
    'CREATE INDEX idx_corpus_hashes_root ON corpus_hashes(corpus_id, root) WHERE root IS NOT NULL',
  ],
};

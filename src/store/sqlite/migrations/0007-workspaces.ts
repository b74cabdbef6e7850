/**
 * Schema v7: named workspaces (KOAS §4) mapping a name to a scope and corpus id. The protected
 * `default` workspace always exists and maps to the `project` scope.
 */
import type { Migration } from './migration.js';

export const MIGRATION_0007: Migration = {
  version: 7,
  name: 'workspaces',
  statements: [
    `CREATE TABLE workspaces (
      name TEXT PRIMARY KEY,
      scope TEXT NOT NULL,
      corpus_id TEXT NOT NULL DEFAULT '',
      description TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT`,
    `INSERT INTO workspaces (name, scope, corpus_id, description, created_at, updated_at)
     VALUES ('default', 'project', '', 'The default workspace (protected)', strftime('%Y-%m-%dT%H:%M:%fZ'), strftime('%Y-%m-%dT%H:%M:%fZ'))`,
  ],
};

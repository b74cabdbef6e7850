/** Workspaces and store-wide settings: the synchronous SQLite side of their repositories. */
import type { Workspace } from '../../types.js';
import type { MetaRepository } from '../contract/meta.js';
import type { WorkspaceRepository } from '../contract/workspaces.js';
import type { SqliteDatabase } from './open.js';
import type { Sync } from './promised.js';
import { lazyStatements } from './lazy-statements.js';

export function sqliteWorkspaces(db: SqliteDatabase): Sync<WorkspaceRepository> {
  const statements = lazyStatements({
    list: () => db.prepare('SELECT * FROM workspaces ORDER BY name'),
    get: () => db.prepare('SELECT * FROM workspaces WHERE name = ?'),
    put: () => db.prepare(
      `INSERT INTO workspaces (name, scope, corpus_id, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET scope = excluded.scope, corpus_id = excluded.corpus_id,
       description = excluded.description, updated_at = excluded.updated_at`,
    ),
    remove: () => db.prepare('DELETE FROM workspaces WHERE name = ?'),
  });
  return {
    list: () => statements.list.all() as Workspace[],
    get: (name) => statements.get.get(name) as Workspace | undefined,
    put: (w) => {
      const existed = statements.get.get(w.name) !== undefined;
      statements.put.run(w.name, w.scope, w.corpus_id, w.description, w.created_at, w.updated_at);
      return !existed;
    },
    remove: (name) => statements.remove.run(name).changes === 1,
  };
}

export function sqliteMeta(db: SqliteDatabase): Sync<MetaRepository> {
  const get = db.prepare('SELECT value FROM schema_meta WHERE key = ?').pluck();
  const set = db.prepare(
    'INSERT INTO schema_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  );
  return {
    get: (key) => get.get(key) as string | undefined,
    set: (key, value) => void set.run(key, value),
  };
}

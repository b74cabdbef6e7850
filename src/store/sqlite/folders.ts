/** Folders kept in sync: the synchronous SQLite side of {@link FolderRepository}. */
import type { SyncedFolder } from '../../types.js';
import type { FolderRepository } from '../contract/folders.js';
import type { SqliteDatabase } from './open.js';
import type { Sync } from './promised.js';
import { lazyStatements } from './lazy-statements.js';

/** The ingest options of a folder, kept together as JSON in the `options` column. */
type FolderOptions = Pick<SyncedFolder, 'include' | 'exclude' | 'tags' | 'format'>;

interface FolderRow {
  name: string;
  path: string;
  scope: string;
  corpus_id: string;
  options: string;
  added_at: string;
  synced_at: string | null;
}

function toFolder({ options, ...row }: FolderRow): SyncedFolder {
  const parsed = JSON.parse(options) as Partial<FolderOptions>;
  return {
    ...row,
    include: parsed.include ?? [],
    exclude: parsed.exclude ?? [],
    tags: parsed.tags ?? [],
    format: parsed.format ?? 'text',
  };
}

export function sqliteFolders(db: SqliteDatabase): Sync<FolderRepository> {
  const statements = lazyStatements({
    list: () => db.prepare('SELECT * FROM synced_folders ORDER BY name'),
    get: () => db.prepare('SELECT * FROM synced_folders WHERE name = ?'),
    put: () => db.prepare(
      `INSERT INTO synced_folders (name, path, scope, corpus_id, options, added_at, synced_at)
       VALUES (@name, @path, @scope, @corpus_id, @options, @added_at, @synced_at)
       ON CONFLICT(name) DO UPDATE SET path = excluded.path, scope = excluded.scope, corpus_id = excluded.corpus_id,
         options = excluded.options, added_at = excluded.added_at, synced_at = excluded.synced_at`,
    ),
    remove: () => db.prepare('DELETE FROM synced_folders WHERE name = ?'),
  });
  return {
    list: () => (statements.list.all() as FolderRow[]).map(toFolder),
    get: (name) => {
      const row = statements.get.get(name) as FolderRow | undefined;
      return row === undefined ? undefined : toFolder(row);
    },
    put: (folder) => {
      const existed = statements.get.get(folder.name) !== undefined;
      const { include, exclude, tags, format, ...row } = folder;
      statements.put.run({ ...row, options: JSON.stringify({ include, exclude, tags, format }) });
      return !existed;
    },
    remove: (name) => statements.remove.run(name).changes === 1,
  };
}

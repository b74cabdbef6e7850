/**
 * The SQLite implementation of {@link Store}: prepared statements over one better-sqlite3
 * connection. Every write the facade makes runs inside `transaction()`, i.e. `BEGIN IMMEDIATE`.
 */
import { normalisedHash } from '../util/hash.js';
import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type {
  LogicalKey,
  MemoryEvent,
  MemoryItem,
  MemoryLink,
  Revision,
  StoreStats,
  Workspace,
} from '../types.js';
import { readSchemaVersion } from './sqlite/migrate.js';
import { LIVE_MEMORY } from './sqlite/migrations/0008-live-memories.js';
import { openDatabase, type SqliteDatabase, type SqliteOptions } from './sqlite/open.js';
import { ITEM_COLUMNS, type ItemRow, itemToParams, rowToItem } from './sqlite/row-mapping.js';
import { toStoreError, withBusyRetry } from './sqlite/errors.js';

export type { SqliteOptions } from './sqlite/open.js';

import type { CorpusFile, DeleteCounts, IndexText, ListFilter, ListPage, ListSort, ScoredItem, Store } from './store.js';

const ITEM_FIELDS = `i.*,
  (SELECT json_group_array(tag) FROM (SELECT tag FROM memory_tags WHERE item_id = i.id ORDER BY position)) AS tags_json,
  (SELECT json_group_array(entity) FROM (SELECT entity FROM memory_entities WHERE item_id = i.id ORDER BY position)) AS entities_json`;

const SELECT_ITEM = `SELECT ${ITEM_FIELDS} FROM memory_items i`;

/** The item's columns plus the derived ones the store keeps up to date itself. */
const WRITE_COLUMNS = [...ITEM_COLUMNS, 'normalised_hash'] as const;

const INSERT_ITEM = `INSERT INTO memory_items (${WRITE_COLUMNS.join(', ')})
  VALUES (${WRITE_COLUMNS.map((c) => `@${c}`).join(', ')})`;

const UPDATE_ITEM = `UPDATE memory_items SET ${WRITE_COLUMNS.filter((c) => c !== 'id')
  .map((c) => `${c} = @${c}`)
  .join(', ')} WHERE id = @id`;

const EXPORT_PAGE = 500;

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Builds the FROM and WHERE clauses of a list query; values are always bound, never interpolated.
 * With a tag filter the query is driven from the tag index (CROSS JOIN fixes that join order),
 * which keeps tag lists fast on large stores whether or not ANALYZE has run.
 */
function listQuery(filter: ListFilter, driveFromTags = true): { from: string; where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const tags = filter.tags ?? [];
  const [firstTag, ...otherTags] = driveFromTags ? tags : [undefined, ...tags];
  let from = 'memory_items i';
  if (firstTag !== undefined) {
    from = 'memory_tags t0 CROSS JOIN memory_items i ON i.id = t0.item_id';
    clauses.push('t0.tag = ?');
    params.push(firstTag);
  }
  for (const tag of otherTags) {
    clauses.push('i.id IN (SELECT item_id FROM memory_tags WHERE tag = ?)');
    params.push(tag);
  }
  /** A clause with one bound value, added only when the value is given. */
  const bound = (sql: string, value: string | undefined) => {
    if (value === undefined) return;
    clauses.push(sql);
    params.push(value);
  };
  const equal = (column: string, value: string | undefined) => bound(`i.${column} = ?`, value);
  equal('layer', filter.layer);
  equal('type', filter.type);
  equal('tier', filter.tier);
  equal('task_id', filter.task_id);
  equal('step_id', filter.step_id);
  equal('key', filter.key);
  equal('scope', filter.scope);
  if (filter.key_prefix !== undefined) {
    clauses.push('i.key LIKE ? ESCAPE \'\\\'');
    params.push(`${escapeLike(filter.key_prefix)}%`);
  }
  const archived = filter.archived ?? 'exclude';
  if (archived === 'exclude') clauses.push('i.archived = 0');
  if (archived === 'only') clauses.push('i.archived = 1');
  const quarantined = filter.quarantined ?? 'include';
  if (quarantined === 'exclude') clauses.push('i.quarantined = 0');
  if (quarantined === 'only') clauses.push('i.quarantined = 1');
  if (filter.injectable !== undefined) clauses.push(`i.injectable = ${filter.injectable ? 1 : 0}`);
  if (filter.chunks === 'exclude') clauses.push(`coalesce(instr(i.provenance, '"chunk_index":'), 0) = 0`);
  if (filter.recallable) {
    clauses.push(
      `i.validation != 'contradicted' AND NOT EXISTS (SELECT 1 FROM memory_links l WHERE l.dst_id = i.id AND l.type = 'supersedes')`,
    );
  }
  bound('(i.expires_at IS NULL OR i.expires_at > ?)', filter.live_at);
  bound('i.expires_at <= ?', filter.expires_before);
  equal('validation', filter.validation);
  bound('i.updated_at >= ?', filter.since);
  bound('i.updated_at < ?', filter.until);
  return { from, where: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`, params };
}

const LIST_ORDER: Readonly<Record<ListSort, string>> = {
  updated: 'i.updated_at DESC, i.id DESC',
  created: 'i.created_at DESC, i.id DESC',
  expires: 'i.expires_at ASC, i.id ASC',
};

/** FTS5 column weights for bm25(): title, content, tags, entities, segmented. */
const BM25_WEIGHTS = '10.0, 1.0, 5.0, 3.0, 1.0';

/** LIKE fallback: an item scores one point per term found in its title, content or tags. */
function likeScore(terms: readonly string[]): { sql: string; params: string[] } {
  const parts = terms.map(
    () =>
      '(CASE WHEN i.title LIKE ? ESCAPE \'\\\' OR i.content LIKE ? ESCAPE \'\\\' OR EXISTS (SELECT 1 FROM memory_tags t WHERE t.item_id = i.id AND t.tag LIKE ? ESCAPE \'\\\') THEN 1 ELSE 0 END)',
  );
  const params = terms.flatMap((t) => {
    const pattern = `%${escapeLike(t)}%`;
    return [pattern, pattern, pattern];
  });
  return { sql: parts.join(' + '), params };
}

function countBy(db: SqliteDatabase, column: string): Record<string, number> {
  const rows = db
    .prepare(
      `SELECT coalesce(${column}, '(none)') AS k, count(*) AS n FROM memory_items WHERE archived = 0 GROUP BY k ORDER BY k`,
    )
    .all() as { k: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.k, r.n]));
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * Opens (creating and migrating if needed) a SQLite store.
 *
 * @example
 * const store = createSqliteStore('.engram/memory.db');
 * const item = store.getItem('MEM-0123456789ab');
 * store.close();
 */
export function createSqliteStore(path: string, options: SqliteOptions = {}): Store {
  const db = openDatabase(path, options);
  const statements = {
    getItem: db.prepare(`${SELECT_ITEM} WHERE i.id = ?`),
    pageItems: db.prepare(
      `${SELECT_ITEM} WHERE i.created_at > ? OR (i.created_at = ? AND i.id > ?)
       ORDER BY i.created_at, i.id LIMIT ${EXPORT_PAGE}`,
    ),
    findByKey: db.prepare(
      `${SELECT_ITEM} WHERE i.layer = ? AND i.key = ? AND i.task_id IS ? AND i.step_id IS ? AND i.archived = 0
       ORDER BY i.updated_at DESC, i.id DESC LIMIT 1`,
    ),
    insertItem: db.prepare(INSERT_ITEM),
    updateItem: db.prepare(UPDATE_ITEM),
    deleteTags: db.prepare('DELETE FROM memory_tags WHERE item_id = ?'),
    insertTag: db.prepare('INSERT INTO memory_tags (item_id, tag, position) VALUES (?, ?, ?)'),
    deleteEntities: db.prepare('DELETE FROM memory_entities WHERE item_id = ?'),
    insertEntity: db.prepare(
      'INSERT INTO memory_entities (item_id, entity, position) VALUES (?, ?, ?)',
    ),
    addRevision: db.prepare(
      `INSERT OR IGNORE INTO memory_revisions (item_id, version, changed_at, actor, reason, snapshot)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    listRevisions: db.prepare('SELECT * FROM memory_revisions WHERE item_id = ? ORDER BY version'),
    countRevisions: db.prepare('SELECT count(*) FROM memory_revisions WHERE item_id = ?').pluck(),
    addEvent: db.prepare(
      'INSERT INTO memory_events (item_id, action, actor, at, details) VALUES (?, ?, ?, ?, ?)',
    ),
    addLink: db.prepare(
      'INSERT OR IGNORE INTO memory_links (src_id, dst_id, type, created_at) VALUES (?, ?, ?, ?)',
    ),
    listLinks: db.prepare(
      'SELECT * FROM memory_links WHERE src_id = ? OR dst_id = ? ORDER BY created_at, src_id, dst_id, type',
    ),
    rowidOf: db.prepare('SELECT rowid FROM memory_items WHERE id = ?').pluck(),
    byNormalisedHash: db.prepare(
      `${SELECT_ITEM} WHERE i.scope = ? AND i.normalised_hash = ? AND i.archived = 0 AND i.quarantined = 0
         AND i.type = ? AND i.injectable = ? AND i.key IS NULL AND i.validation != 'contradicted'
         AND i.title = ? AND i.source IS ? AND i.task_id IS ? AND i.step_id IS ? AND i.expires_at IS ?
         AND coalesce(instr(i.provenance, '"chunk_index":'), 0) = 0
         AND NOT EXISTS (SELECT 1 FROM memory_links l WHERE l.dst_id = i.id AND l.type = 'supersedes')
       ORDER BY i.created_at, i.id LIMIT 1`,
    ),
    reinforce: db.prepare(
      'UPDATE memory_items SET usage_count = usage_count + 1, last_used_at = ?, weight = round(weight + ?, 6) WHERE id = ?',
    ),
    byContentHash: db.prepare(
      `${SELECT_ITEM} WHERE i.content_hash = ? AND i.scope = ? AND i.archived = 0 ORDER BY i.updated_at DESC LIMIT 1`,
    ),
    corpusFile: db.prepare('SELECT * FROM corpus_hashes WHERE corpus_id = ? AND path = ?'),
    corpusChunks: db.prepare('SELECT item_id FROM corpus_chunks WHERE file_id = ? ORDER BY position').pluck(),
    upsertCorpusFile: db.prepare(
      `INSERT INTO corpus_hashes (corpus_id, path, sha256, size_bytes, chunks, ingested_at, root, scope, refused)
       VALUES (@corpus_id, @path, @sha256, @size_bytes, @chunks, @ingested_at, @root, @scope, @refused)
       ON CONFLICT (corpus_id, path) DO UPDATE SET sha256 = excluded.sha256, size_bytes = excluded.size_bytes,
         chunks = excluded.chunks, ingested_at = excluded.ingested_at, root = coalesce(excluded.root, root),
         scope = excluded.scope, refused = excluded.refused
       RETURNING id`,
    ),
    corpusFilesUnder: db.prepare('SELECT * FROM corpus_hashes WHERE corpus_id = ? AND root = ? AND scope = ? ORDER BY path'),
    removeCorpusFile: db.prepare('DELETE FROM corpus_hashes WHERE corpus_id = ? AND path = ?'),
    setCorpusRoot: db.prepare('UPDATE corpus_hashes SET root = ?, scope = ? WHERE corpus_id = ? AND path = ?'),
    clearCorpusChunks: db.prepare('DELETE FROM corpus_chunks WHERE file_id = ?'),
    addCorpusChunk: db.prepare('INSERT INTO corpus_chunks (file_id, position, item_id) VALUES (?, ?, ?)'),
    chunkShared: db.prepare(
      `SELECT 1 FROM corpus_chunks c JOIN corpus_hashes f ON f.id = c.file_id
       WHERE c.item_id = ? AND NOT (f.corpus_id = ? AND f.path = ?) LIMIT 1`,
    ),
    countLiveMemories: db.prepare(`SELECT count(*) FROM memory_items WHERE tier = ? AND ${LIVE_MEMORY}`).pluck(),
    listWorkspaces: db.prepare('SELECT * FROM workspaces ORDER BY name'),
    getWorkspace: db.prepare('SELECT * FROM workspaces WHERE name = ?'),
    putWorkspace: db.prepare(
      `INSERT INTO workspaces (name, scope, corpus_id, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET scope = excluded.scope, corpus_id = excluded.corpus_id,
       description = excluded.description, updated_at = excluded.updated_at`,
    ),
    removeWorkspace: db.prepare('DELETE FROM workspaces WHERE name = ?'),
    getMeta: db.prepare('SELECT value FROM schema_meta WHERE key = ?').pluck(),
    setMeta: db.prepare(
      'INSERT INTO schema_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ),
    touch: db.prepare('UPDATE memory_items SET usage_count = usage_count + 1, last_used_at = ? WHERE id = ?'),
  };

  // Search and list build their SQL from the filters given; the few shapes in use are prepared once.
  const prepared = new Map<string, Database.Statement>();
  const prepare = (sql: string): Database.Statement => {
    let statement = prepared.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      prepared.set(sql, statement);
    }
    return statement;
  };

  const guard = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      throw toStoreError(error, path);
    }
  };

  const writeTerms = (item: MemoryItem) => {
    statements.deleteTags.run(item.id);
    for (const [i, tag] of item.tags.entries()) statements.insertTag.run(item.id, tag, i);
    statements.deleteEntities.run(item.id);
    for (const [i, entity] of item.entities.entries())
      statements.insertEntity.run(item.id, entity, i);
  };

  const fullText
    = (db.prepare('SELECT count(*) FROM sqlite_master WHERE name = \'memory_fts\'').pluck().get() as number) === 1;
  const fts = fullText
    ? {
        remove: db.prepare('DELETE FROM memory_fts WHERE rowid = ?'),
        insert: db.prepare(
          'INSERT INTO memory_fts (rowid, title, content, tags, entities, segmented) VALUES (?, ?, ?, ?, ?, ?)',
        ),
      }
    : undefined;

  // The index row shares the item's rowid, so it is replaced in the same transaction as the item.
  const writeIndex = (rowid: number | bigint, item: MemoryItem, index: IndexText) => {
    if (fts === undefined) return;
    fts.remove.run(rowid);
    fts.insert.run(rowid, item.title, item.content, item.tags.join(' '), item.entities.join(' '), index.segmented);
  };

  /**
   * BM25 ranking on the FTS table alone (fast), then the item filters and fields on the best
   * rowids only; when the filters drop too many, it fetches a larger slice and tries again.
   */
  const searchFullText = (match: string, where: ReturnType<typeof listQuery>, limit: number): ScoredItem[] => {
    const ranked = prepare(
      `SELECT rowid AS rid, -bm25(memory_fts, ${BM25_WEIGHTS}) AS score FROM memory_fts
       WHERE memory_fts MATCH ? ORDER BY score DESC LIMIT ?`,
    );
    const filterSql = where.where === '' ? '' : `AND ${where.where.slice('WHERE '.length)}`;
    // CROSS JOIN fixes the join order: the few ranked rowids drive the lookups. Left to itself the
    // planner may prefer an index on a filter column (archived = 0) and scan every live item.
    const fetch = prepare(
      `SELECT ${ITEM_FIELDS}, i.rowid AS rid FROM json_each(?) AS ranked CROSS JOIN memory_items i
       ON i.rowid = ranked.value WHERE 1 ${filterSql}`,
    );
    for (let size = Math.max(limit * 2, 64); ; size *= 4) {
      const top = ranked.all(match, size) as { rid: number; score: number }[];
      const rows = fetch.all(JSON.stringify(top.map((r) => r.rid)), ...where.params) as (ItemRow & { rid: number })[];
      if (rows.length >= limit || top.length < size) {
        const byRowid = new Map(rows.map((row) => [row.rid, row]));
        const hits: ScoredItem[] = [];
        for (const { rid, score } of top) {
          const row = byRowid.get(rid);
          if (row !== undefined) hits.push({ item: rowToItem(row), score });
        }
        hits.sort((a, b) => b.score - a.score || (a.item.updated_at < b.item.updated_at ? 1 : -1));
        return hits.slice(0, limit);
      }
    }
  };

  const deleteCount = (sql: string, id: string): number => db.prepare(sql).run(id).changes;
  type CorpusRow = Omit<CorpusFile, 'item_ids'> & { id: number; chunks: number };
  const corpusFile = (row: CorpusRow): CorpusFile => {
    const { id, chunks: _chunks, ...file } = row;
    return { ...file, item_ids: statements.corpusChunks.all(id) as string[] };
  };

  return {
    path,
    transaction: (fn) =>
      guard(() => withBusyRetry(() => db.transaction(fn).immediate(), options.busyRetries)),

    getItem: (id) =>
      guard(() => {
        const row = statements.getItem.get(id) as ItemRow | undefined;
        return row === undefined ? undefined : rowToItem(row);
      }),
    findByKey: (key: LogicalKey) =>
      guard(() => {
        const row = statements.findByKey.get(key.layer, key.key, key.task_id, key.step_id) as
          | ItemRow
          | undefined;
        return row === undefined ? undefined : rowToItem(row);
      }),
    insertItem: (item, index) =>
      guard(() => {
        const { lastInsertRowid } = statements.insertItem.run(itemToParams(item));
        writeTerms(item);
        writeIndex(lastInsertRowid, item, index);
      }),
    updateItem: (item, index) =>
      guard(() => {
        statements.updateItem.run(itemToParams(item));
        writeTerms(item);
        const rowid = statements.rowidOf.get(item.id) as number | undefined;
        if (index !== undefined && rowid !== undefined) writeIndex(rowid, item, index);
      }),
    deleteItem: (id) =>
      guard((): DeleteCounts => {
        const counts: DeleteCounts = {
          memory_tags: deleteCount('DELETE FROM memory_tags WHERE item_id = ?', id),
          memory_entities: deleteCount('DELETE FROM memory_entities WHERE item_id = ?', id),
          memory_revisions: deleteCount('DELETE FROM memory_revisions WHERE item_id = ?', id),
          corpus_chunks: deleteCount('DELETE FROM corpus_chunks WHERE item_id = ?', id),
          memory_links: db
            .prepare('DELETE FROM memory_links WHERE src_id = ? OR dst_id = ?')
            .run(id, id).changes,
        };
        const rowid = statements.rowidOf.get(id) as number | undefined;
        if (fts !== undefined && rowid !== undefined) counts.memory_fts = fts.remove.run(rowid).changes;
        counts.memory_items = deleteCount('DELETE FROM memory_items WHERE id = ?', id);
        return counts;
      }),
    listItems: (filter: ListFilter): ListPage =>
      guard(() => {
        const query = listQuery(filter);
        const order = LIST_ORDER[filter.sort ?? 'updated'];
        const total = db
          .prepare(`SELECT count(*) FROM ${query.from} ${query.where}`)
          .pluck()
          .get(...query.params) as number;
        const rows = db
          .prepare(
            `SELECT ${ITEM_FIELDS} FROM ${query.from} ${query.where} ORDER BY ${order} LIMIT ? OFFSET ?`,
          )
          .all(...query.params, filter.limit ?? -1, filter.offset ?? 0) as ItemRow[];
        return { items: rows.map(rowToItem), total };
      }),
    hasFullText: () => fullText,
    newestMatches: (match, limit) =>
      guard((): MemoryItem[] => {
        if (fts === undefined) return [];
        // Rowids grow with creation; FTS5 walks its postings newest first and stops at the limit.
        const rows = prepare(
          `SELECT ${ITEM_FIELDS} FROM memory_items i WHERE i.rowid IN
             (SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rowid DESC LIMIT ?)
           ORDER BY i.rowid DESC`,
        ).all(match, limit) as ItemRow[];
        return rows.map(rowToItem);
      }),
    searchItems: (query, filter, limit) =>
      guard((): ScoredItem[] => {
        const where = listQuery(filter, false);
        type ScoredRow = ItemRow & { score: number };
        let rows: ScoredRow[];
        if ('match' in query) {
          if (fts === undefined) return [];
          return searchFullText(query.match, where, limit);
        } else {
          if (query.like.length === 0) return [];
          const score = likeScore(query.like);
          rows = db
            .prepare(
              `SELECT * FROM (SELECT ${ITEM_FIELDS}, ${score.sql} AS score FROM memory_items i ${where.where})
               WHERE score > 0 ORDER BY score DESC, updated_at DESC, id DESC LIMIT ?`,
            )
            .all(...score.params, ...where.params, limit) as ScoredRow[];
        }
        return rows.map((row) => ({ item: rowToItem(row), score: row.score }));
      }),
    iterateItems: () => ({
      // Keyset pages, so no cursor stays open while the caller uses the connection in between.
      * [Symbol.iterator]() {
        let after = { created_at: '', id: '' };
        for (;;) {
          const rows = guard(
            () =>
              statements.pageItems.all(after.created_at, after.created_at, after.id) as ItemRow[],
          );
          for (const row of rows) yield rowToItem(row);
          const last = rows[rows.length - 1];
          if (last === undefined || rows.length < EXPORT_PAGE) return;
          after = { created_at: last.created_at as string, id: last.id as string };
        }
      },
    }),

    addRevision: (revision: Revision) =>
      guard(
        () =>
          statements.addRevision.run(
            revision.item_id,
            revision.version,
            revision.changed_at,
            revision.actor,
            revision.reason,
            JSON.stringify(revision.item),
          ).changes === 1,
      ),
    listRevisions: (itemId) =>
      guard(() =>
        (statements.listRevisions.all(itemId) as Record<string, unknown>[]).map(
          (row): Revision => ({
            item_id: row.item_id as string,
            version: row.version as number,
            changed_at: row.changed_at as string,
            actor: row.actor as string | null,
            reason: row.reason as string,
            item: JSON.parse(row.snapshot as string) as MemoryItem,
          }),
        ),
      ),
    countRevisions: (itemId) => guard(() => statements.countRevisions.get(itemId) as number),

    addEvent: (event) =>
      guard(
        () =>
          void statements.addEvent.run(
            event.item_id,
            event.action,
            event.actor,
            event.at,
            JSON.stringify(event.details),
          ),
      ),
    listEvents: (itemId) =>
      guard(() => {
        const rows = (
          itemId === undefined
            ? db.prepare('SELECT * FROM memory_events ORDER BY id').all()
            : db.prepare('SELECT * FROM memory_events WHERE item_id = ? ORDER BY id').all(itemId)
        ) as Record<string, unknown>[];
        return rows.map(
          (row): MemoryEvent => ({
            id: row.id as number,
            item_id: row.item_id as string | null,
            action: row.action as string,
            actor: row.actor as string | null,
            at: row.at as string,
            details: JSON.parse(row.details as string) as Record<string, unknown>,
          }),
        );
      }),

    addLink: (link: MemoryLink) =>
      guard(
        () =>
          statements.addLink.run(link.src_id, link.dst_id, link.type, link.created_at).changes
          === 1,
      ),
    touchItems: (ids, at) =>
      guard(() => {
        for (const id of ids) statements.touch.run(at, id);
      }),
    findDuplicate: (content, target) =>
      guard(() => {
        const hash = normalisedHash(content);
        const { scope, type, injectable, title, source, task_id: task, step_id: step, expires_at: expires } = target;
        const params = [scope, hash, type, injectable ? 1 : 0, title, source, task, step, expires];
        const row = statements.byNormalisedHash.get(...params) as ItemRow | undefined;
        return row === undefined ? undefined : rowToItem(row);
      }),
    reinforce: (id, at, weight) => guard(() => void statements.reinforce.run(at, weight, id)),
    countLiveMemories: (tier) => guard(() => statements.countLiveMemories.get(tier) as number),
    countGroups: (group, filter) =>
      guard(() => {
        const query = listQuery(filter, false);
        const from = group === 'tag' ? `${query.from} JOIN memory_tags g ON g.item_id = i.id` : query.from;
        const key = group === 'tag' ? 'g.tag' : `i.${group}`;
        const rows = db
          .prepare(`SELECT ${key} AS k, count(*) AS n FROM ${from} ${query.where} GROUP BY k ORDER BY k`)
          .all(...query.params) as { k: string; n: number }[];
        return Object.fromEntries(rows.map((r) => [r.k, r.n]));
      }),
    listWorkspaces: () => guard(() => statements.listWorkspaces.all() as Workspace[]),
    getWorkspace: (name) => guard(() => statements.getWorkspace.get(name) as Workspace | undefined),
    putWorkspace: (w) =>
      guard(() => {
        const existed = statements.getWorkspace.get(w.name) !== undefined;
        statements.putWorkspace.run(w.name, w.scope, w.corpus_id, w.description, w.created_at, w.updated_at);
        return !existed;
      }),
    removeWorkspace: (name) => guard(() => statements.removeWorkspace.run(name).changes === 1),
    getMeta: (key) => guard(() => statements.getMeta.get(key) as string | undefined),
    setMeta: (key, value) => guard(() => void statements.setMeta.run(key, value)),
    findByContentHash: (hash, scope) =>
      guard(() => {
        const row = statements.byContentHash.get(hash, scope) as ItemRow | undefined;
        return row === undefined ? undefined : rowToItem(row);
      }),
    getCorpusFile: (corpusId, path) =>
      guard((): CorpusFile | undefined => {
        const row = statements.corpusFile.get(corpusId, path) as CorpusRow | undefined;
        return row === undefined ? undefined : corpusFile(row);
      }),
    listCorpusFilesUnder: (corpusId, root, scope) =>
      guard(() => (statements.corpusFilesUnder.all(corpusId, root, scope) as CorpusRow[]).map(corpusFile)),
    setCorpusRoot: (corpusId, path, root, scope) =>
      guard(() => void statements.setCorpusRoot.run(root, scope, corpusId, path)),
    removeCorpusFile: (corpusId, path) => guard(() => statements.removeCorpusFile.run(corpusId, path).changes > 0),
    putCorpusFile: (file) =>
      guard(() => {
        const { item_ids: itemIds, ...record } = file;
        const { id } = statements.upsertCorpusFile.get({ ...record, chunks: itemIds.length }) as { id: number };
        statements.clearCorpusChunks.run(id);
        itemIds.forEach((itemId, position) => statements.addCorpusChunk.run(id, position, itemId));
      }),
    isChunkShared: (itemId, corpusId, path) =>
      guard(() => statements.chunkShared.get(itemId, corpusId, path) !== undefined),
    listLinks: (itemId) => guard(() => statements.listLinks.all(itemId, itemId) as MemoryLink[]),

    stats: (): StoreStats =>
      guard(() => {
        const counts = db
          .prepare(
            `SELECT count(*) AS total, coalesce(sum(archived), 0) AS archived,
               coalesce(sum(quarantined AND NOT archived), 0) AS quarantined FROM memory_items`,
          )
          .get() as { total: number; archived: number; quarantined: number };
        return {
          path,
          schema_version: readSchemaVersion(db),
          size_bytes: path === ':memory:' ? 0 : fileSize(path) + fileSize(`${path}-wal`),
          total: counts.total,
          active: counts.total - counts.archived,
          archived: counts.archived,
          quarantined: counts.quarantined,
          by_tier: countBy(db, 'tier'),
          by_type: countBy(db, 'type'),
          by_layer: countBy(db, 'layer'),
          by_scope: countBy(db, 'scope'),
        };
      }),
    rebuildFullText: (entries) =>
      guard(() => {
        if (fts === undefined) return 0;
        let count = 0;
        withBusyRetry(() =>
          db
            .transaction(() => {
              count = 0;
              // Removing every row one by one in secure-delete mode rewrites the index at each row;
              // instead they are dropped as usual and the final merge leaves none of their terms.
              db.exec('INSERT INTO memory_fts (memory_fts, rank) VALUES (\'secure-delete\', 0); DELETE FROM memory_fts');
              for (const { item, index } of entries) {
                const rowid = statements.rowidOf.get(item.id) as number | undefined;
                if (rowid === undefined) continue;
                writeIndex(rowid, item, index);
                count++;
              }
              db.exec(`INSERT INTO memory_fts (memory_fts) VALUES ('optimize');
                INSERT INTO memory_fts (memory_fts, rank) VALUES ('secure-delete', 1)`);
            })
            .immediate(),
        );
        return count;
      }),
    health: () =>
      guard(() => ({
        schema_version: readSchemaVersion(db),
        integrity: (db.pragma('integrity_check') as Record<string, unknown>[]).map((r) => String(r.integrity_check)),
        full_text: fts !== undefined,
        items: db.prepare('SELECT count(*) FROM memory_items').pluck().get() as number,
        indexed:
          fts === undefined ? 0 : (db.prepare('SELECT count(*) FROM memory_fts').pluck().get() as number),
      })),
    close: () => {
      if (db.open) db.close();
    },
  };
}

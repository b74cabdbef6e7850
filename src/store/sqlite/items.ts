/** Items, their tags and entities: the synchronous SQLite side of {@link ItemRepository}. */
import type Database from 'better-sqlite3';
import type { MemoryItem } from '../../types.js';
import { normalisedHash } from '../../util/hash.js';
import type { AdjacentItem, DeleteCounts, ItemRepository, ListFilter, ListPage } from '../contract/items.js';
import { ITEM_FIELDS, LIST_ORDER, type ListQuery, listQuery, SELECT_ITEM } from './list-query.js';
import { LIVE_MEMORY } from './migrations/0008-live-memories.js';
import type { SqliteDatabase } from './open.js';
import type { Sync } from './promised.js';
import { ITEM_COLUMNS, type ItemRow, itemToParams, rowToItem } from './row-mapping.js';
import { lazyStatements } from './lazy-statements.js';

/** The item's columns plus the derived ones the store keeps up to date itself. */
const WRITE_COLUMNS = [...ITEM_COLUMNS, 'normalised_hash'] as const;

const INSERT_ITEM = `INSERT INTO memory_items (${WRITE_COLUMNS.join(', ')})
  VALUES (${WRITE_COLUMNS.map((c) => `@${c}`).join(', ')})`;

const UPDATE_ITEM = `UPDATE memory_items SET ${WRITE_COLUMNS.filter((c) => c !== 'id')
  .map((c) => `${c} = @${c}`)
  .join(', ')} WHERE id = @id`;

/** Items per page of {@link SyncItems.page}. */
export const ITEM_PAGE = 500;

/** The position after the last item of a page. */
export interface PageCursor {
  created_at: string;
  id: string;
}

export type SyncItems = Sync<Omit<ItemRepository, 'iterate'>> & {
  /** The next page of items in export order after `after` (from the start when omitted), matching `filter`. */
  page(after?: PageCursor, filter?: ListFilter): MemoryItem[];
};

/** What the item repository keeps in step with the items: the vectors (derived data). */
export interface VectorUpkeep {
  /** Drops the vector of the item with this id; the rows removed. */
  removeById(id: string): number;
  /** Drops the item's vector when the new version's title or content differs from the stored one. */
  invalidate(next: Pick<MemoryItem, 'id' | 'title' | 'content'>): void;
}

/**
 * @param removeIndexEntry drops an item's full-text row (derived data) when the item is deleted;
 *   returns the rows removed, or undefined without a full-text index.
 * @param vectors the vector index, when the store has one: an item's vector goes with the item,
 *   and with its old text. Without it the list of rows with a vector is still kept right.
 */
export function sqliteItems(
  db: SqliteDatabase,
  prepare: (sql: string) => Database.Statement,
  removeIndexEntry: (id: string) => number | undefined,
  vectors?: VectorUpkeep,
): SyncItems {
  const statements = lazyStatements({
    get: () => db.prepare(`${SELECT_ITEM} WHERE i.id = ?`),
    // A row value: the index on (created_at, id) seeks to the cursor (an OR of the two columns
    // scanned the index from its start, every page).
    page: () => db.prepare(
      `${SELECT_ITEM} WHERE (i.created_at, i.id) > (?, ?) ORDER BY i.created_at, i.id LIMIT ${ITEM_PAGE}`,
    ),
    findByKey: () => db.prepare(
      `${SELECT_ITEM} WHERE i.layer = ? AND i.key = ? AND i.task_id IS ? AND i.step_id IS ? AND i.archived = 0
       ORDER BY i.updated_at DESC, i.id DESC LIMIT 1`,
    ),
    insert: () => db.prepare(INSERT_ITEM),
    update: () => db.prepare(UPDATE_ITEM),
    deleteTags: () => db.prepare('DELETE FROM memory_tags WHERE item_id = ?'),
    insertTag: () => db.prepare('INSERT INTO memory_tags (item_id, tag, position) VALUES (?, ?, ?)'),
    deleteEntities: () => db.prepare('DELETE FROM memory_entities WHERE item_id = ?'),
    insertEntity: () => db.prepare('INSERT INTO memory_entities (item_id, entity, position) VALUES (?, ?, ?)'),
    byNormalisedHash: () => db.prepare(
      `${SELECT_ITEM} WHERE i.scope = ? AND i.normalised_hash = ? AND i.archived = 0 AND i.quarantined = 0
         AND i.type = ? AND i.injectable = ? AND i.key IS NULL AND i.validation != 'contradicted'
         AND i.title = ? AND i.source IS ? AND i.task_id IS ? AND i.step_id IS ? AND i.expires_at IS ?
         AND coalesce(instr(i.provenance, '"chunk_index":'), 0) = 0
         AND NOT EXISTS (SELECT 1 FROM memory_links l WHERE l.dst_id = i.id AND l.type = 'supersedes')
       ORDER BY i.created_at, i.id LIMIT 1`,
    ),
    reinforce: () => db.prepare(
      'UPDATE memory_items SET usage_count = usage_count + 1, last_used_at = ?, weight = round(weight + ?, 6) WHERE id = ?',
    ),
    // Named index: without statistics the planner walks the live items in `updated_at` order
    // instead (one lookup per ingested chunk read the whole store).
    byContentHash: () => db.prepare(
      `SELECT ${ITEM_FIELDS} FROM memory_items i INDEXED BY idx_items_content_hash
       WHERE i.content_hash = ? AND i.scope = ? AND i.archived = 0 ORDER BY i.updated_at DESC LIMIT 1`,
    ),
    countLive: () => db.prepare(`SELECT count(*) FROM memory_items WHERE tier = ? AND ${LIVE_MEMORY}`).pluck(),
    touch: () => db.prepare('UPDATE memory_items SET usage_count = usage_count + 1, last_used_at = ? WHERE id = ?'),
    dropVectorRow: () => db.prepare(
      'DELETE FROM memory_vector_rows WHERE item_rowid = (SELECT rowid FROM memory_items WHERE id = ?)',
    ),
  });
  const one = (row: unknown): MemoryItem | undefined => (row === undefined ? undefined : rowToItem(row as ItemRow));
  const writeTerms = (item: MemoryItem) => {
    statements.deleteTags.run(item.id);
    for (const [i, tag] of item.tags.entries()) statements.insertTag.run(item.id, tag, i);
    statements.deleteEntities.run(item.id);
    for (const [i, entity] of item.entities.entries()) statements.insertEntity.run(item.id, entity, i);
  };
  const deleteCount = (sql: string, id: string): number => db.prepare(sql).run(id).changes;

  /** One page of a list query, in the filter's order. */
  const find = (filter: ListFilter, query: ListQuery): MemoryItem[] => {
    const order = LIST_ORDER[filter.sort ?? 'updated'];
    const rows = prepare(`SELECT ${ITEM_FIELDS} FROM ${query.from} ${query.where} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(...query.params, filter.limit ?? -1, filter.offset ?? 0) as ItemRow[];
    return rows.map(rowToItem);
  };

  return {
    get: (id) => one(statements.get.get(id)),
    findByKey: (key) => one(statements.findByKey.get(key.layer, key.key, key.task_id, key.step_id)),
    insert: (item) => {
      statements.insert.run(itemToParams(item));
      writeTerms(item);
    },
    update: (item) => {
      vectors?.invalidate(item);
      statements.update.run(itemToParams(item));
      writeTerms(item);
    },
    delete: (id): DeleteCounts => {
      const counts: DeleteCounts = {
        memory_tags: deleteCount('DELETE FROM memory_tags WHERE item_id = ?', id),
        memory_entities: deleteCount('DELETE FROM memory_entities WHERE item_id = ?', id),
        memory_revisions: deleteCount('DELETE FROM memory_revisions WHERE item_id = ?', id),
        corpus_chunks: deleteCount('DELETE FROM corpus_chunks WHERE item_id = ?', id),
        memory_links: db.prepare('DELETE FROM memory_links WHERE src_id = ? OR dst_id = ?').run(id, id).changes,
      };
      const indexRows = removeIndexEntry(id);
      if (indexRows !== undefined) counts.memory_fts = indexRows;
      const vectorRows = vectors === undefined ? undefined : vectors.removeById(id);
      const rows = vectorRows ?? statements.dropVectorRow.run(id).changes;
      if (rows > 0) counts.memory_vectors = rows;
      counts.memory_items = deleteCount('DELETE FROM memory_items WHERE id = ?', id);
      return counts;
    },
    list: (filter: ListFilter): ListPage => {
      const query = listQuery(filter);
      const total = prepare(`SELECT count(*) FROM ${query.from} ${query.where}`).pluck().get(...query.params) as number;
      return { items: find(filter, query), total };
    },
    find: (filter: ListFilter) => find(filter, listQuery(filter)),
    findDuplicate: (content, target) => {
      const { scope, type, injectable, title, source, task_id: task, step_id: step, expires_at: expires } = target;
      const hash = normalisedHash(content);
      const params = [scope, hash, type, injectable ? 1 : 0, title, source, task, step, expires];
      return one(statements.byNormalisedHash.get(...params));
    },
    reinforce: (id, at, weight) => void statements.reinforce.run(at, weight, id),
    touch: (ids, at) => {
      for (const id of ids) statements.touch.run(at, id);
    },
    findByContentHash: (hash, scope) => one(statements.byContentHash.get(hash, scope)),
    countLive: (tier) => statements.countLive.get(tier) as number,
    countGroups: (group, filter) => {
      const query = listQuery(filter, false);
      const from = group === 'tag' ? `${query.from} JOIN memory_tags g ON g.item_id = i.id` : query.from;
      const key = group === 'tag' ? 'g.tag' : `i.${group}`;
      const rows = prepare(`SELECT ${key} AS k, count(*) AS n FROM ${from} ${query.where} GROUP BY k ORDER BY k`)
        .all(...query.params) as { k: string; n: number }[];
      return Object.fromEntries(rows.map((r) => [r.k, r.n]));
    },
    adjacent: (ids, filter): AdjacentItem[] => {
      if (ids.length === 0) return [];
      const where = listQuery(filter, false);
      const filterSql = where.where === '' ? '' : `AND ${where.where.slice('WHERE '.length)}`;
      // Storage order is rowid order: the rows on either side written from the same source.
      const rows = prepare(
        `SELECT ${ITEM_FIELDS}, h.id AS adjacent_of FROM json_each(?) AS q
           CROSS JOIN memory_items h ON h.id = q.value
           CROSS JOIN memory_items i ON i.rowid IN (h.rowid - 1, h.rowid + 1)
         WHERE h.source != '' AND i.source = h.source ${filterSql}`,
      ).all(JSON.stringify(ids), ...where.params) as (ItemRow & { adjacent_of: string })[];
      return rows.map((row) => ({ of: row.adjacent_of, item: rowToItem(row) }));
    },
    page: (after = { created_at: '', id: '' }, filter) => {
      if (filter === undefined) return (statements.page.all(after.created_at, after.id) as ItemRow[]).map(rowToItem);
      const query = listQuery({ ...filter, limit: undefined, offset: undefined }, false);
      const where = query.where === '' ? 'WHERE' : `${query.where} AND`;
      const sql = `SELECT ${ITEM_FIELDS} FROM ${query.from} ${where} (i.created_at, i.id) > (?, ?)
        ORDER BY i.created_at, i.id LIMIT ${ITEM_PAGE}`;
      return (prepare(sql).all(...query.params, after.created_at, after.id) as ItemRow[]).map(rowToItem);
    },
  };
}

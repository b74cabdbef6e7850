/**
 * The full-text index on FTS5: the synchronous SQLite side of {@link TextIndex}. The index row
 * shares the item's rowid; ranking is BM25 with column weights, filters apply to the best rowids
 * only. Without FTS5 (a store created where it was missing) only substring queries answer.
 */
import type Database from 'better-sqlite3';
import type { MemoryItem } from '../../types.js';
import type { ListFilter } from '../contract/items.js';
import type { IndexText, ScoredItem, TextIndex, TextQuery } from '../contract/text-index.js';
import { ftsMatch } from './fts-match.js';
import { ITEM_FIELDS, likeScore, listQuery, type ListQuery } from './list-query.js';
import type { SqliteDatabase } from './open.js';
import type { Sync } from './promised.js';
import { type ItemRow, rowToItem } from './row-mapping.js';

/** FTS5 column weights for bm25(): title, content, tags, entities, segmented. */
const BM25_WEIGHTS = '10.0, 1.0, 5.0, 3.0, 1.0';

export type SyncTextIndex = Sync<Omit<TextIndex, 'rebuild'>> & {
  /** Drops an item's row; the rows removed, or undefined without FTS5 or without such an item. */
  remove(id: string): number | undefined;
  /** Empties the index so that no removed term stays in its pages (before a rebuild). */
  clear(): void;
  /** Merges the index's segments after a rebuild. */
  optimize(): void;
};

type Prepare = (sql: string) => Database.Statement;

export function sqliteTextIndex(db: SqliteDatabase, prepare: Prepare): SyncTextIndex {
  const ranked
    = (db.prepare('SELECT count(*) FROM sqlite_master WHERE name = \'memory_fts\'').pluck().get() as number) === 1;
  const rowidOf = db.prepare('SELECT rowid FROM memory_items WHERE id = ?').pluck();
  const fts = ranked
    ? {
        remove: db.prepare('DELETE FROM memory_fts WHERE rowid = ?'),
        insert: db.prepare(
          'INSERT INTO memory_fts (rowid, title, content, tags, entities, segmented) VALUES (?, ?, ?, ?, ?, ?)',
        ),
      }
    : undefined;

  /**
   * BM25 ranking on the FTS table alone (fast), then the item filters and fields on the best
   * rowids only; when the filters drop too many, it fetches a larger slice and tries again.
   */
  const searchFullText = (match: string, where: ListQuery, limit: number): ScoredItem[] => {
    const best = prepare(
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
      const top = best.all(match, size) as { rid: number; score: number }[];
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

  const searchSubstring = (terms: readonly string[], where: ListQuery, limit: number): ScoredItem[] => {
    if (terms.length === 0) return [];
    const score = likeScore(terms);
    const rows = prepare(
      `SELECT * FROM (SELECT ${ITEM_FIELDS}, ${score.sql} AS score FROM memory_items i ${where.where})
       WHERE score > 0 ORDER BY score DESC, updated_at DESC, id DESC LIMIT ?`,
    ).all(...score.params, ...where.params, limit) as (ItemRow & { score: number })[];
    return rows.map((row) => ({ item: rowToItem(row), score: row.score }));
  };

  return {
    ranked,
    put: (item: MemoryItem, index: IndexText) => {
      if (fts === undefined) return;
      const rowid = rowidOf.get(item.id) as number | undefined;
      if (rowid === undefined) return;
      fts.remove.run(rowid);
      fts.insert.run(rowid, item.title, item.content, item.tags.join(' '), item.entities.join(' '), index.segmented);
    },
    search: (query: TextQuery, filter: ListFilter, limit: number) => {
      const where = listQuery(filter, false);
      if (query.mode === 'substring') return searchSubstring(query.terms, where, limit);
      const match = ftsMatch(query);
      return fts === undefined || match === undefined ? [] : searchFullText(match, where, limit);
    },
    newest: (query: TextQuery, limit: number) => {
      const match = ftsMatch(query);
      if (fts === undefined || match === undefined) return [];
      // Rowids grow with creation; FTS5 walks its postings newest first and stops at the limit.
      const rows = prepare(
        `SELECT ${ITEM_FIELDS} FROM memory_items i WHERE i.rowid IN
           (SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rowid DESC LIMIT ?)
         ORDER BY i.rowid DESC`,
      ).all(match, limit) as ItemRow[];
      return rows.map(rowToItem);
    },
    remove: (id) => {
      if (fts === undefined) return undefined;
      const rowid = rowidOf.get(id) as number | undefined;
      return rowid === undefined ? undefined : fts.remove.run(rowid).changes;
    },
    clear: () => {
      // Removing every row one by one in secure-delete mode rewrites the index at each row;
      // instead they are dropped as usual and the final merge leaves none of their terms.
      if (fts !== undefined) db.exec('INSERT INTO memory_fts (memory_fts, rank) VALUES (\'secure-delete\', 0); DELETE FROM memory_fts');
    },
    optimize: () => {
      if (fts === undefined) return;
      db.exec(`INSERT INTO memory_fts (memory_fts) VALUES ('optimize');
        INSERT INTO memory_fts (memory_fts, rank) VALUES ('secure-delete', 1)`);
    },
  };
}

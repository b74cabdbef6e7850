/**
 * Schema v2: the FTS5 index over title, content, tags, entities and the CJK-segmented copy of the
 * text. Derived data: its rowid is the item's rowid, and `reindex` can always rebuild it. Rows
 * that exist before this migration are indexed without a segmented copy.
 */
import type { Migration } from './migration.js';

export const MIGRATION_0002: Migration = {
  version: 2,
  name: 'fulltext',
  statements: ({ ftsTokenizer, fts5 }) =>
    fts5
      ? [
          `CREATE VIRTUAL TABLE memory_fts USING fts5(title, content, tags, entities, segmented, tokenize = '${ftsTokenizer.spec}')`,
          `INSERT INTO memory_fts (rowid, title, content, tags, entities, segmented)
           SELECT i.rowid, i.title, i.content,
             coalesce((SELECT group_concat(tag, ' ') FROM memory_tags WHERE item_id = i.id), ''),
             coalesce((SELECT group_concat(entity, ' ') FROM memory_entities WHERE item_id = i.id), ''),
             ''
           FROM memory_items i`,
        ]
      : [],
  meta: ({ ftsTokenizer, fts5 }) => ({ fts_tokenizer: ftsTokenizer.name, fts: fts5 ? 'fts5' : 'off' }),
};

/** Links between items: the synchronous SQLite side of {@link LinkRepository}. */
import type { MemoryLink } from '../../types.js';
import type { LinkRepository } from '../contract/links.js';
import type { SqliteDatabase } from './open.js';
import type { Sync } from './promised.js';
import { lazyStatements } from './lazy-statements.js';

export function sqliteLinks(db: SqliteDatabase): Sync<LinkRepository> {
  const statements = lazyStatements({
    add: () => db.prepare('INSERT OR IGNORE INTO memory_links (src_id, dst_id, type, created_at) VALUES (?, ?, ?, ?)'),
    list: () => db.prepare(
      'SELECT * FROM memory_links WHERE src_id = ? OR dst_id = ? ORDER BY created_at, src_id, dst_id, type',
    ),
  });
  return {
    add: (link) => statements.add.run(link.src_id, link.dst_id, link.type, link.created_at).changes === 1,
    list: (itemId) => statements.list.all(itemId, itemId) as MemoryLink[],
  };
}

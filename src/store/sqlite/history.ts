/** Revisions and events: the synchronous SQLite side of {@link HistoryRepository}. */
import type { MemoryEvent, MemoryItem, Revision } from '../../types.js';
import type { HistoryRepository } from '../contract/history.js';
import type { SqliteDatabase } from './open.js';
import type { Sync } from './promised.js';
import { lazyStatements } from './lazy-statements.js';

export function sqliteHistory(db: SqliteDatabase): Sync<HistoryRepository> {
  const statements = lazyStatements({
    addRevision: () => db.prepare(
      `INSERT OR IGNORE INTO memory_revisions (item_id, version, changed_at, actor, reason, snapshot)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    listRevisions: () => db.prepare('SELECT * FROM memory_revisions WHERE item_id = ? ORDER BY version'),
    countRevisions: () => db.prepare('SELECT count(*) FROM memory_revisions WHERE item_id = ?').pluck(),
    addEvent: () => db.prepare('INSERT INTO memory_events (item_id, action, actor, at, details) VALUES (?, ?, ?, ?, ?)'),
    allEvents: () => db.prepare('SELECT * FROM memory_events ORDER BY id'),
    itemEvents: () => db.prepare('SELECT * FROM memory_events WHERE item_id = ? ORDER BY id'),
    lastEvent: () => db.prepare('SELECT * FROM memory_events WHERE action IN (SELECT value FROM json_each(?)) ORDER BY id DESC LIMIT 1'),
  });
  return {
    addRevision: (r) =>
      statements.addRevision.run(r.item_id, r.version, r.changed_at, r.actor, r.reason, JSON.stringify(r.item)).changes
      === 1,
    listRevisions: (itemId) =>
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
    countRevisions: (itemId) => statements.countRevisions.get(itemId) as number,
    addEvent: (event) =>
      void statements.addEvent.run(event.item_id, event.action, event.actor, event.at, JSON.stringify(event.details)),
    listEvents: (itemId) => {
      const rows = (
        itemId === undefined ? statements.allEvents.all() : statements.itemEvents.all(itemId)
      ) as Record<string, unknown>[];
      return rows.map(toEvent);
    },
    lastEvent: (actions) => {
      const row = statements.lastEvent.get(JSON.stringify(actions)) as Record<string, unknown> | undefined;
      return row === undefined ? undefined : toEvent(row);
    },
  };
}

function toEvent(row: Record<string, unknown>): MemoryEvent {
  return {
    id: row.id as number,
    item_id: row.item_id as string | null,
    action: row.action as string,
    actor: row.actor as string | null,
    at: row.at as string,
    details: JSON.parse(row.details as string) as Record<string, unknown>,
  };
}

/** History: immutable revisions (every version of an item) and the audit trail of events. */
import type { MemoryEvent, Revision } from '../../types.js';

export interface HistoryRepository {
  /** Stores a revision; resolves false when that (item, version) already exists. */
  addRevision(revision: Revision): Promise<boolean>;
  listRevisions(itemId: string): Promise<Revision[]>;
  countRevisions(itemId: string): Promise<number>;
  addEvent(event: Omit<MemoryEvent, 'id'>): Promise<void>;
  /** Events of one item, or every event, in the order they were written. */
  listEvents(itemId?: string): Promise<MemoryEvent[]>;
  /** The newest event whose action is one of `actions`. */
  lastEvent(actions: readonly string[]): Promise<MemoryEvent | undefined>;
}

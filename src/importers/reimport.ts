/**
 * The next state of an item imported before, when its record is imported again: the source wins
 * on what it states, engram keeps what only engram knows. A field the record leaves out (memtool
 * has no tier, basic-memory no weight) keeps the item's value, so a promotion, an archive or a
 * verification made in engram survives the re-import; usage and the creation time are engram's.
 * A text a person verified out of quarantine is not put back in quarantine for the same text.
 */
import type { MemoryItem } from '../types.js';
import type { SourceRecord } from './source.js';

/** Item fields a record may state, by the same name. */
const STATABLE = [
  'title', 'type', 'tier', 'layer', 'task_id', 'step_id', 'key', 'scope', 'corpus_id', 'tags', 'entities',
  'source', 'confidence', 'validation', 'weight', 'injectable', 'secrecy', 'expires_at', 'archived',
] as const satisfies readonly (keyof SourceRecord & keyof MemoryItem)[];

/** What the quarantine sets; kept when the text it held is the text a person let through. */
const QUARANTINE_FIELDS = ['quarantined', 'injectable', 'tier', 'validation', 'expires_at'] as const;

/** The fields `record` states (not undefined). */
export function statedFields(record: SourceRecord): ReadonlySet<string> {
  return new Set(STATABLE.filter((field) => record[field] !== undefined));
}

function copy<K extends keyof MemoryItem>(to: MemoryItem, from: MemoryItem, key: K): void {
  to[key] = from[key];
}

/** `incoming` (admitted) over `existing`, keeping what the record does not state. */
export function reimported(existing: MemoryItem, incoming: MemoryItem, stated: ReadonlySet<string>): MemoryItem {
  const { created_at, usage_count, last_used_at } = existing;
  const next: MemoryItem = { ...incoming, created_at, usage_count, last_used_at };
  for (const field of STATABLE) if (!stated.has(field)) copy(next, existing, field);
  const sameText = existing.content_hash === incoming.content_hash && existing.title === incoming.title;
  if (incoming.quarantined && !existing.quarantined && sameText) {
    for (const field of QUARANTINE_FIELDS) copy(next, existing, field);
  }
  return next;
}

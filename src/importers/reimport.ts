/**
 * The next state of an item imported before, when its record is imported again. Each import keeps
 * a hash of every field of the record (canonical JSON) in `provenance.import.record_fields`, and
 * one of them all in `record_hash`: a record whose hash is the stored one is `unchanged`, whatever
 * engram changed since (an edit, a promotion, an archive); a record that changed has the fields
 * it changed applied, the others keep engram's values (the source wins on what it changed).
 * An item imported before these hashes gets the older rule once: the source wins on what it
 * states. A field the record leaves out (memtool has no tier) keeps the item's value; usage and
 * the creation time are engram's. A text a person verified out of quarantine is not put back in
 * quarantine for the same text.
 */
import type { MemoryItem } from '../types.js';
import { sha256 } from '../util/hash.js';
import type { SourceRecord } from './source.js';

/** The provenance key an imported item carries: `{ from, source_id, path, …the source's own }`. */
export const IMPORT_KEY = 'import';

/** JSON with object keys sorted, typed arrays as arrays: the same record gives the same text. */
function canonicalJson(value: unknown): string {
  if (ArrayBuffer.isView(value)) return canonicalJson(Array.from(value as Float32Array));
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A record's fingerprint: a short hash of each field it states, and one of them all. */
export interface RecordHash {
  record_hash: string;
  record_fields: Record<string, string>;
}

export function recordHash(record: SourceRecord): RecordHash {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key !== 'sourceId' && value !== undefined) fields[key] = sha256(canonicalJson(value)).slice(0, 12);
  }
  return { record_hash: sha256(canonicalJson(fields)).slice(0, 16), record_fields: fields };
}

/** The fingerprint stored on an imported item; undefined for an item imported before them. */
export function storedHash(item: MemoryItem): Partial<RecordHash> {
  const mark = item.provenance?.[IMPORT_KEY];
  if (typeof mark !== 'object' || mark === null) return {};
  const { record_hash, record_fields } = mark as Record<string, unknown>;
  return {
    ...(typeof record_hash === 'string' ? { record_hash } : {}),
    ...(typeof record_fields === 'object' && record_fields !== null ? { record_fields: record_fields as Record<string, string> } : {}),
  };
}

/** The fields of the record that differ from the stored fingerprint's. */
export function changedFields(before: Record<string, string>, now: Record<string, string>): Set<string> {
  const keys = new Set([...Object.keys(before), ...Object.keys(now)]);
  return new Set([...keys].filter((key) => before[key] !== now[key]));
}

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

/**
 * `incoming` (admitted) over `existing`: with `changed` (the record's fields that changed since the
 * last import), only those; without, every field the record states.
 */
export function reimported(
  existing: MemoryItem,
  incoming: MemoryItem,
  stated: ReadonlySet<string>,
  changed?: ReadonlySet<string>,
): MemoryItem {
  if (changed !== undefined) return changedOnly(existing, incoming, stated, changed);
  const { created_at, usage_count, last_used_at } = existing;
  const next: MemoryItem = { ...incoming, created_at, usage_count, last_used_at };
  for (const field of STATABLE) if (!stated.has(field)) copy(next, existing, field);
  const sameText = existing.content_hash === incoming.content_hash && existing.title === incoming.title;
  if (incoming.quarantined && !existing.quarantined && sameText) {
    for (const field of QUARANTINE_FIELDS) copy(next, existing, field);
  }
  return next;
}

function changedOnly(
  existing: MemoryItem,
  incoming: MemoryItem,
  stated: ReadonlySet<string>,
  changed: ReadonlySet<string>,
): MemoryItem {
  // The import mark is the source's; the rest of the provenance is engram's.
  const provenance = { ...(existing.provenance ?? {}), [IMPORT_KEY]: incoming.provenance?.[IMPORT_KEY] };
  const next: MemoryItem = { ...existing, provenance };
  for (const field of STATABLE) if (stated.has(field) && changed.has(field)) copy(next, incoming, field);
  const newText = changed.has('content') || (changed.has('title') && stated.has('title'));
  if (changed.has('content')) {
    next.content = incoming.content;
    next.content_hash = incoming.content_hash;
    if (!stated.has('title')) next.title = incoming.title;
  }
  if (newText && incoming.quarantined && !existing.quarantined) {
    next.quarantined = true;
    for (const field of QUARANTINE_FIELDS) copy(next, incoming, field);
  }
  return next;
}

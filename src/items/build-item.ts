/**
 * Pure construction of item states: a new item from put fields, the next version of an existing
 * item, and a complete item from an import line. No I/O, no clock reads (the caller passes `now`).
 */

import type { z } from 'zod';
import type { MemoryItem } from '../types.js';
import { sha256 } from '../util/hash.js';
import { normaliseTerms } from '../util/terms.js';
import type { importItemSchema, itemFieldsSchema } from './schemas.js';

export type ItemFields = z.output<typeof itemFieldsSchema>;
export type ImportedItem = z.output<typeof importItemSchema>;

/** Defaults for a new item; the tier default is STM as in every seed. */
export const ITEM_DEFAULTS = Object.freeze({
  type: 'note',
  tier: 'stm',
  scope: 'project',
  confidence: 0.5,
  validation: 'unverified',
  weight: 1,
  injectable: true,
  secrecy: 'S3',
} as const);

/** A brand-new item (version 1) from the fields of a put. */
export function createItem(id: string, fields: ItemFields, now: string): MemoryItem {
  return {
    id,
    title: fields.title ?? '',
    content: fields.content,
    type: fields.type ?? ITEM_DEFAULTS.type,
    tier: fields.tier ?? ITEM_DEFAULTS.tier,
    layer: fields.layer ?? null,
    task_id: fields.task_id ?? null,
    step_id: fields.step_id ?? null,
    key: fields.key ?? null,
    scope: fields.scope ?? ITEM_DEFAULTS.scope,
    corpus_id: fields.corpus_id ?? null,
    tags: normaliseTerms(fields.tags ?? []),
    entities: normaliseTerms(fields.entities ?? []),
    source: fields.source ?? null,
    provenance: fields.provenance ?? null,
    confidence: fields.confidence ?? ITEM_DEFAULTS.confidence,
    validation: fields.validation ?? ITEM_DEFAULTS.validation,
    weight: fields.weight ?? ITEM_DEFAULTS.weight,
    injectable: fields.injectable ?? ITEM_DEFAULTS.injectable,
    secrecy: fields.secrecy ?? ITEM_DEFAULTS.secrecy,
    version: 1,
    usage_count: 0,
    last_used_at: null,
    content_hash: sha256(fields.content),
    created_at: now,
    updated_at: now,
    expires_at: fields.expires_at ?? null,
    archived: false,
    quarantined: false,
  };
}

/**
 * The provenance after an update: the given one, keeping the mark of an import (`import`, see
 * `importers/`) when the given one has none, since a re-import finds its item by that mark.
 */
function updatedProvenance(existing: MemoryItem['provenance'], given: ItemFields['provenance']): MemoryItem['provenance'] {
  if (given === undefined) return existing;
  const mark = existing?.import;
  if (mark === undefined || (given !== null && 'import' in given)) return given;
  return { ...given, import: mark };
}

/** The item with the given fields applied; fields left undefined keep their current value. */
export function mergeFields(existing: MemoryItem, fields: ItemFields): MemoryItem {
  const pick = <K extends keyof ItemFields & keyof MemoryItem>(key: K): MemoryItem[K] =>
    (fields[key] === undefined ? existing[key] : fields[key]) as MemoryItem[K];
  return {
    ...existing,
    title: pick('title'),
    content: fields.content,
    type: pick('type'),
    tier: pick('tier'),
    layer: pick('layer'),
    task_id: pick('task_id'),
    step_id: pick('step_id'),
    key: pick('key'),
    scope: pick('scope'),
    corpus_id: pick('corpus_id'),
    tags: fields.tags === undefined ? existing.tags : normaliseTerms(fields.tags),
    entities: fields.entities === undefined ? existing.entities : normaliseTerms(fields.entities),
    source: pick('source'),
    provenance: updatedProvenance(existing.provenance, fields.provenance),
    confidence: pick('confidence'),
    validation: pick('validation'),
    weight: pick('weight'),
    injectable: pick('injectable'),
    secrecy: pick('secrecy'),
    expires_at: pick('expires_at'),
    content_hash: sha256(fields.content),
  };
}

/** True when two item states differ in anything but bookkeeping (version, timestamps, usage). */
export function hasChanges(a: MemoryItem, b: MemoryItem): boolean {
  return canonicalContent(a) !== canonicalContent(b);
}

function canonicalContent(item: MemoryItem): string {
  const { version: _v, updated_at: _u, usage_count: _c, last_used_at: _l, ...rest } = item;
  return JSON.stringify(rest);
}

/** The stored form of the next version: content of `next`, version + 1, stamped `now`. */
export function nextVersion(previous: MemoryItem, next: MemoryItem, now: string): MemoryItem {
  return { ...next, version: previous.version + 1, updated_at: now };
}

/** A complete item from a validated import line, keeping every given field as it is. */
export function importedToItem(line: ImportedItem, id: string, now: string): MemoryItem {
  const created = line.created_at ?? line.updated_at ?? now;
  return {
    id,
    title: line.title,
    content: line.content,
    type: line.type,
    tier: line.tier,
    layer: line.layer,
    task_id: line.task_id,
    step_id: line.step_id,
    key: line.key,
    scope: line.scope,
    corpus_id: line.corpus_id,
    tags: normaliseTerms(line.tags),
    entities: normaliseTerms(line.entities),
    source: line.source,
    provenance: line.provenance,
    confidence: line.confidence,
    validation: line.validation,
    weight: line.weight,
    injectable: line.injectable,
    secrecy: line.secrecy,
    version: line.version,
    usage_count: line.usage_count,
    last_used_at: line.last_used_at,
    content_hash: sha256(line.content),
    created_at: created,
    updated_at: line.updated_at ?? created,
    expires_at: line.expires_at,
    archived: line.archived,
    quarantined: line.quarantined,
  };
}

/** Serialises an item (and optionally its revisions) as one export line, field order fixed. */
export function exportLine(item: MemoryItem, revisions?: readonly unknown[]): string {
  return JSON.stringify(revisions === undefined ? item : { ...item, revisions });
}

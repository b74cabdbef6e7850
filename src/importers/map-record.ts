/**
 * One source record onto engram's item: validated with the import schema (the same checks as
 * `engram import FILE`), its source id kept in `provenance.import`, its past versions made the
 * item's history, each passed through the write policy. Pure but for the admission hook.
 *
 * The item's id is the source's when that is already an engram id (memctl's `MEM-…`) and free, else
 * derived from the source name and the source id ({@link derivedId}): a re-import of the same
 * record lands on the same item, whatever ids the store holds besides.
 */
import { EngramError, toEngramError } from '../errors.js';
import { importedToItem } from '../items/build-item.js';
import { requireCleanFields } from '../items/field-policy.js';
import { parseInput } from '../items/parse-input.js';
import { importItemSchema } from '../items/schemas.js';
import type { MemoryItem, Revision } from '../types.js';
import { sha256 } from '../util/hash.js';
import { ITEM_ID_PATTERN } from '../util/ids.js';
import type { ImportRefusal } from './import-report.js';
import { IMPORT_KEY, recordHash, type RecordHash, statedFields } from './reimport.js';
import type { ImportSourceName, SourceLink, SourceRecord } from './source.js';

/** What the runner needs of one record once mapped and admitted. */
export interface MappedRecord {
  sourceId: string;
  /** Admitted; its id is set when it is written ({@link withId}). */
  item: MemoryItem;
  history: Omit<Revision, 'item_id'>[];
  links: SourceLink[];
  vector?: Float32Array;
  /** The item fields the record states: on a re-import, the others keep engram's values. */
  stated: ReadonlySet<string>;
  /** The record's fingerprint, also kept in `provenance.import`. */
  hash: RecordHash;
}

export interface MapContext {
  from: ImportSourceName;
  path: string;
  /** The store the source ids belong to, when they are unique only within it. */
  namespace?: string;
  now: string;
  /** The write policy: returns the item to store or throws (POLICY_REJECTED, EMPTY_INPUT). */
  admit: (item: MemoryItem, privileged: boolean) => MemoryItem;
}

export { IMPORT_KEY } from './reimport.js';

/**
 * The engram id derived from a source record's id (and the store it belongs to, for a source whose
 * ids are unique only within one store: see {@link ImportSource.namespace}): `MEM-` and 12 hex
 * digits of their hash.
 */
export function derivedId(from: ImportSourceName, sourceId: string, namespace?: string): string {
  const key = namespace === undefined ? `${from}\u0000${sourceId}` : `${from}\u0000${namespace}\u0000${sourceId}`;
  return `MEM-${sha256(key).slice(0, 12)}`;
}

/** The ids a record may have in engram, in order of preference. */
export function candidateIds(from: ImportSourceName, sourceId: string, namespace?: string): string[] {
  const derived = derivedId(from, sourceId, namespace);
  return ITEM_ID_PATTERN.test(sourceId) && sourceId !== derived ? [sourceId, derived] : [derived];
}

/** True when `item` was imported from that record of that source (and of that store of it). */
export function isImportOf(item: MemoryItem, from: ImportSourceName, sourceId: string, namespace?: string): boolean {
  const mark = item.provenance?.[IMPORT_KEY];
  if (typeof mark !== 'object' || mark === null) return false;
  const { from: f, source_id: s, namespace: n } = mark as Record<string, unknown>;
  return f === from && s === sourceId && n === namespace;
}

/** The record's item and history under their final id. */
export function withId(mapped: MappedRecord, id: string): MappedRecord {
  return {
    ...mapped,
    item: { ...mapped.item, id },
    history: mapped.history.map((r) => ({ ...r, item: { ...r.item, id } })),
  };
}

function toItem(
  record: SourceRecord,
  context: MapContext,
  version: number,
  over: Partial<SourceRecord>,
  hash: RecordHash,
): MemoryItem {
  const r = { ...record, ...over };
  const line = parseInput(importItemSchema, {
    title: r.title,
    content: r.content,
    type: r.type,
    tier: r.tier,
    layer: r.layer ?? undefined,
    task_id: r.task_id ?? undefined,
    step_id: r.step_id ?? undefined,
    key: r.key ?? undefined,
    scope: r.scope,
    corpus_id: r.corpus_id ?? undefined,
    tags: r.tags,
    entities: r.entities,
    source: r.source ?? undefined,
    provenance: {
      [IMPORT_KEY]: {
        from: context.from,
        source_id: record.sourceId,
        ...(context.namespace === undefined ? {} : { namespace: context.namespace }),
        path: context.path,
        ...record.provenance,
        ...hash,
      },
    },
    confidence: r.confidence,
    validation: r.validation,
    weight: r.weight,
    injectable: r.injectable,
    secrecy: r.secrecy,
    version,
    usage_count: r.usage_count,
    last_used_at: r.last_used_at ?? undefined,
    created_at: r.created_at,
    updated_at: r.updated_at,
    expires_at: r.expires_at ?? undefined,
    archived: r.archived,
  });
  // A placeholder id: the final one depends on what the store holds (see candidateIds).
  return importedToItem(line, derivedId(context.from, record.sourceId, context.namespace), context.now);
}

/** A refusal for the report: the error's code and message, and the policy's masked matches. */
export function refusalOf(where: string, error: unknown): ImportRefusal {
  const failure = toEngramError(error);
  const rules = failure.details.rules;
  return {
    where,
    error: failure.code,
    message: failure.message,
    ...(Array.isArray(rules) ? { rules: rules as ImportRefusal['rules'] } : {}),
  };
}

/**
 * Maps and admits one record; throws when the record itself is refused or invalid. A past version
 * the policy refuses is left out of the history and returned in `refused`.
 */
export function mapRecord(
  record: SourceRecord,
  context: MapContext,
): { mapped: MappedRecord; refused: ImportRefusal[] } {
  if (typeof record.sourceId !== 'string' || record.sourceId === '') {
    throw new EngramError('PARAM_ERROR', 'The record has no source id');
  }
  const revisions = record.revisions ?? [];
  const hash = recordHash(record);
  const item = context.admit(toItem(record, context, revisions.length + 1, {}, hash), false);
  const refused: ImportRefusal[] = [];
  const history: Omit<Revision, 'item_id'>[] = [];
  revisions.forEach((revision, index) => {
    const version = index + 1;
    try {
      requireCleanFields({ 'revision reason': revision.reason });
      const past = toItem(record, context, version, {
        content: revision.content,
        title: revision.title ?? record.title,
        updated_at: revision.changed_at,
      }, hash);
      // History passes admission too, privileged as in `engram import FILE`: what must never be
      // stored is refused, the quarantine rules (meant for new writes) are not applied.
      const admitted = context.admit(past, true);
      const reason = revision.reason ?? 'import';
      history.push({ version, changed_at: admitted.updated_at, actor: null, reason, item: admitted });
    } catch (error) {
      refused.push(refusalOf(`${record.sourceId} (version ${version})`, error));
    }
  });
  const { sourceId, links = [], vector } = record;
  return { mapped: { sourceId, item, history, links, vector, stated: statedFields(record), hash }, refused };
}

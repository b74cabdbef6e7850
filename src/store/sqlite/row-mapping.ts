/** Converts between SQLite rows and the plain MemoryItem shape. */
import type { MemoryItem } from '../../types.js';
import { normalisedHash } from '../../util/hash.js';

/** Columns of memory_items, in table order (tags and entities live in their own tables). */
export const ITEM_COLUMNS = [
  'id',
  'title',
  'content',
  'type',
  'tier',
  'layer',
  'task_id',
  'step_id',
  'key',
  'scope',
  'corpus_id',
  'source',
  'provenance',
  'confidence',
  'validation',
  'weight',
  'injectable',
  'secrecy',
  'version',
  'usage_count',
  'last_used_at',
  'content_hash',
  'created_at',
  'updated_at',
  'expires_at',
  'archived',
  'quarantined',
] as const;

export type ItemRow = Record<(typeof ITEM_COLUMNS)[number], unknown> & {
  tags_json: string;
  entities_json: string;
};

/** Row → item. Tag and entity arrays arrive as JSON aggregates from the select. */
export function rowToItem(row: ItemRow): MemoryItem {
  return {
    id: row.id as string,
    title: row.title as string,
    content: row.content as string,
    type: row.type as MemoryItem['type'],
    tier: row.tier as MemoryItem['tier'],
    layer: row.layer as MemoryItem['layer'],
    task_id: row.task_id as string | null,
    step_id: row.step_id as string | null,
    key: row.key as string | null,
    scope: row.scope as string,
    corpus_id: row.corpus_id as string | null,
    tags: JSON.parse(row.tags_json) as string[],
    entities: JSON.parse(row.entities_json) as string[],
    source: row.source as string | null,
    provenance:
      row.provenance === null
        ? null
        : (JSON.parse(row.provenance as string) as Record<string, unknown>),
    confidence: row.confidence as number,
    validation: row.validation as MemoryItem['validation'],
    weight: row.weight as number,
    injectable: row.injectable === 1,
    secrecy: row.secrecy as MemoryItem['secrecy'],
    version: row.version as number,
    usage_count: row.usage_count as number,
    last_used_at: row.last_used_at as string | null,
    content_hash: row.content_hash as string,
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
    expires_at: row.expires_at as string | null,
    archived: row.archived === 1,
    quarantined: row.quarantined === 1,
  };
}

/** Item → named parameters for the insert/update statements (derived columns included). */
export function itemToParams(item: MemoryItem): Record<string, unknown> {
  const { tags: _tags, entities: _entities, ...columns } = item;
  return {
    ...columns,
    normalised_hash: normalisedHash(item.content),
    provenance: item.provenance === null ? null : JSON.stringify(item.provenance),
    injectable: item.injectable ? 1 : 0,
    archived: item.archived ? 1 : 0,
    quarantined: item.quarantined ? 1 : 0,
  };
}

/**
 * SQL for item lists: the selected fields (tags and entities folded in as JSON) and the FROM and
 * WHERE clauses built from a {@link ListFilter}; values are always bound, never interpolated.
 */
import type { ListFilter, ListSort } from '../contract/items.js';

export const ITEM_FIELDS = `i.*,
  (SELECT json_group_array(tag) FROM (SELECT tag FROM memory_tags WHERE item_id = i.id ORDER BY position)) AS tags_json,
  (SELECT json_group_array(entity) FROM (SELECT entity FROM memory_entities WHERE item_id = i.id ORDER BY position)) AS entities_json`;

export const SELECT_ITEM = `SELECT ${ITEM_FIELDS} FROM memory_items i`;

export const LIST_ORDER: Readonly<Record<ListSort, string>> = {
  updated: 'i.updated_at DESC, i.id DESC',
  created: 'i.created_at DESC, i.id DESC',
  expires: 'i.expires_at ASC, i.id ASC',
};

export interface ListQuery {
  from: string;
  where: string;
  params: unknown[];
}

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Builds the FROM and WHERE clauses of a list query. With a tag filter the query is driven from
 * the tag index (CROSS JOIN fixes that join order), which keeps tag lists fast on large stores
 * whether or not ANALYZE has run.
 */
export function listQuery(filter: ListFilter, driveFromTags = true): ListQuery {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const tags = filter.tags ?? [];
  const [firstTag, ...otherTags] = driveFromTags ? tags : [undefined, ...tags];
  let from = 'memory_items i';
  if (firstTag !== undefined) {
    from = 'memory_tags t0 CROSS JOIN memory_items i ON i.id = t0.item_id';
    clauses.push('t0.tag = ?');
    params.push(firstTag);
  }
  for (const tag of otherTags) {
    clauses.push('i.id IN (SELECT item_id FROM memory_tags WHERE tag = ?)');
    params.push(tag);
  }
  /** A clause with one bound value, added only when the value is given. */
  const bound = (sql: string, value: string | undefined) => {
    if (value === undefined) return;
    clauses.push(sql);
    params.push(value);
  };
  const equal = (column: string, value: string | undefined) => bound(`i.${column} = ?`, value);
  equal('layer', filter.layer);
  equal('type', filter.type);
  equal('tier', filter.tier);
  equal('task_id', filter.task_id);
  equal('step_id', filter.step_id);
  equal('key', filter.key);
  equal('scope', filter.scope);
  if (filter.key_prefix !== undefined) {
    clauses.push('i.key LIKE ? ESCAPE \'\\\'');
    params.push(`${escapeLike(filter.key_prefix)}%`);
  }
  const archived = filter.archived ?? 'exclude';
  if (archived === 'exclude') clauses.push('i.archived = 0');
  if (archived === 'only') clauses.push('i.archived = 1');
  const quarantined = filter.quarantined ?? 'include';
  if (quarantined === 'exclude') clauses.push('i.quarantined = 0');
  if (quarantined === 'only') clauses.push('i.quarantined = 1');
  if (filter.injectable !== undefined) clauses.push(`i.injectable = ${filter.injectable ? 1 : 0}`);
  if (filter.chunks === 'exclude') clauses.push(`coalesce(instr(i.provenance, '"chunk_index":'), 0) = 0`);
  if (filter.recallable) {
    clauses.push(
      `i.validation != 'contradicted' AND NOT EXISTS (SELECT 1 FROM memory_links l WHERE l.dst_id = i.id AND l.type = 'supersedes')`,
    );
  }
  if (filter.derived !== undefined) {
    const exists = `EXISTS (SELECT 1 FROM memory_links l WHERE l.dst_id = i.id AND l.type = 'derived_from')`;
    clauses.push(filter.derived === 'only' ? exists : `NOT ${exists}`);
  }
  bound('(i.expires_at IS NULL OR i.expires_at > ?)', filter.live_at);
  bound('i.expires_at <= ?', filter.expires_before);
  equal('validation', filter.validation);
  bound('i.updated_at >= ?', filter.since);
  bound('i.updated_at < ?', filter.until);
  return { from, where: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`, params };
}

/**
 * The substring fallback: an item scores one point per term found in its title, content or tags.
 * The tags matching a term are read once per query (`IN`), not once per item (a correlated
 * `EXISTS`): a query matching nothing at 10,000 items took 21 ms with `EXISTS`, 15 ms with `IN`.
 */
export function likeScore(terms: readonly string[]): { sql: string; params: string[] } {
  const parts = terms.map(
    () =>
      '(CASE WHEN i.title LIKE ? ESCAPE \'\\\' OR i.content LIKE ? ESCAPE \'\\\' OR i.id IN (SELECT t.item_id FROM memory_tags t WHERE t.tag LIKE ? ESCAPE \'\\\') THEN 1 ELSE 0 END)',
  );
  const params = terms.flatMap((t) => {
    const pattern = `%${escapeLike(t)}%`;
    return [pattern, pattern, pattern];
  });
  return { sql: parts.join(' + '), params };
}

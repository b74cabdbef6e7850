/**
 * mem-context's JSON export (`mem-context export -o memories.json`): an object with `memories`
 * (and `relations`), or a bare array of memories. Its memory types are engram's tiers (episodic,
 * semantic, permanent → stm, mtm, ltm), a weight is divided by its type's default (0.5 / 0.7 /
 * 1.0: docs/forgetting.md), so a default weight is engram's 1; weight 0 (`forget`) is archived.
 * The multi-modal columns are kept: the diff and the error trace as fenced sections after the
 * content, the files, the project scope, the session and the metadata in `provenance.import`.
 * Relations become links; an embedding is handed to the runner, which keeps it only when its
 * dimension is the configured embedder's.
 */
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { EngramError } from '../../errors.js';
import { engramWeight } from '../../forgetting/curve.js';
import { LINK_TYPES, type LinkType, TIER_ALIASES, type Tier } from '../../types.js';
import { shownText } from '../shown-text.js';
import type { ImportSource, SourceEntry, SourceLink, SourceRecord, Unmapped } from '../source.js';
import { isObject, refusedTag, requirePath, shownField, timestampProblem, toTagList, toTimestamp } from '../source-values.js';

/** mem-context relation names that are engram link types under another name; the rest are `related`, and reported. */
const RELATION_ALIASES: Readonly<Record<string, LinkType>> = {
  replaces: 'supersedes',
  merged_into: 'supersedes',
  extracted_from: 'derived_from',
  merged_from: 'derived_from',
  related_to: 'related',
  relates_to: 'related',
};

const MAPPING = [
  ['id', 'provenance.import.source_id (the item gets an engram id)'],
  ['content', 'content'],
  ['type (episodic | semantic | permanent)', 'tier (stm | mtm | ltm)'],
  ['weight (default 0.5 | 0.7 | 1.0 by type; 0 = forgotten)', 'weight ÷ the type\'s default (1 = the default; 0 = archived)'],
  ['tags', 'tags'],
  ['title / summary', 'title'],
  ['diff, error_trace', 'content (fenced sections after the text)'],
  ['files, scope, session_id, metadata', 'provenance.import'],
  ['created_at, updated_at', 'created_at, updated_at (UTC)'],
  ['access_count, last_accessed', 'usage_count, last_used_at'],
  ['relations (source_id, target_id, relation_type)', 'links (other names: related, and listed under not_mapped)'],
  ['embedding / vector', 'the item\'s vector when its dimension is the embedder\'s, else dropped'],
] as const;

const KNOWN = new Set([
  'id', 'content', 'type', 'memory_type', 'weight', 'tags', 'title', 'summary', 'diff', 'error_trace', 'files',
  'scope', 'session_id', 'metadata', 'created_at', 'updated_at', 'access_count', 'last_accessed', 'archived',
  'embedding', 'vector',
]);

/** The engram link type of a relation name; `exact` is false when it fell back to `related`. */
function linkType(name: unknown): { type: LinkType; exact: boolean } | undefined {
  if (typeof name !== 'string') return undefined;
  const lower = name.toLowerCase();
  if ((LINK_TYPES as readonly string[]).includes(lower)) return { type: lower as LinkType, exact: true };
  const alias = RELATION_ALIASES[lower];
  return alias === undefined ? { type: 'related', exact: false } : { type: alias, exact: true };
}

function fenced(title: string, body: unknown, lang: string): string {
  if (typeof body !== 'string' || body.trim() === '') return '';
  const fence = body.includes('```') ? '~~~~' : '```';
  return `\n\n## ${title}\n\n${fence}${lang}\n${body}\n${fence}`;
}

function metadataOf(value: unknown): Record<string, unknown> | undefined {
  if (isObject(value)) return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : { text: value };
  } catch {
    return { text: value };
  }
}

/** One memory as a record with its links, and the fields of it that could not be mapped. */
export function memContextRecord(json: Record<string, unknown>, where: string, links: SourceLink[]): SourceEntry[] {
  if (typeof json.id !== 'string' || json.id === '') return [{ unmapped: { where, reason: 'no id' } }];
  const id = json.id;
  if (typeof json.content !== 'string') return [{ unmapped: { where: id, reason: 'no content' } }];
  const dropped: Unmapped[] = [];
  const drop = (field: string, reason: string) => dropped.push({ where: id, field, reason });
  const type = json.type ?? json.memory_type;
  const tier: Tier | undefined = typeof type === 'string' ? TIER_ALIASES[type.toLowerCase()] : undefined;
  if (tier === undefined && type !== undefined && type !== null) drop('type', 'not episodic, semantic or permanent');
  const provenance: Record<string, unknown> = {};
  for (const key of ['files', 'scope', 'session_id'] as const) {
    if (json[key] !== undefined && json[key] !== null) provenance[key] = json[key];
  }
  const metadata = metadataOf(json.metadata);
  if (metadata !== undefined) provenance.metadata = metadata;
  const record: SourceRecord = {
    sourceId: id,
    content: json.content + fenced('Diff', json.diff, 'diff') + fenced('Error trace', json.error_trace, ''),
    tier,
    provenance,
    links,
  };
  const title = json.title ?? json.summary;
  if (typeof title === 'string') record.title = title;
  // On mem-context's scale a type starts at its default weight (0.5 / 0.7 / 1.0), on engram's at 1.
  const weight = json.weight;
  if (typeof weight === 'number' && weight >= 0) record.weight = engramWeight(weight, tier ?? 'stm');
  else if (weight !== undefined && weight !== null) drop('weight', 'not a number of 0 or more');
  // Only a forgotten memory says so: an archive made in engram survives a re-import otherwise.
  if (json.archived === true || record.weight === 0) record.archived = true;
  const tags = toTagList(json.tags ?? []);
  if (tags === undefined) drop('tags', 'not a list of strings');
  else record.tags = tags.tags;
  for (const tag of tags?.refused ?? []) drop('tags', refusedTag(tag));
  for (const [from, to] of [['created_at', 'created_at'], ['updated_at', 'updated_at'], ['last_accessed', 'last_used_at']] as const) {
    const at = toTimestamp(json[from]);
    if (at !== undefined) record[to] = at;
    else if (json[from] !== undefined && json[from] !== null) drop(from, timestampProblem(json[from]));
  }
  if (typeof json.access_count === 'number' && Number.isInteger(json.access_count) && json.access_count >= 0) {
    record.usage_count = json.access_count;
  } else if (json.access_count !== undefined && json.access_count !== null) drop('access_count', 'not a whole number');
  const vector = json.embedding ?? json.vector;
  if (Array.isArray(vector) && vector.length > 0 && vector.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    record.vector = Float32Array.from(vector as number[]);
  } else if (vector !== undefined && vector !== null && !(Array.isArray(vector) && vector.length === 0)) {
    drop('embedding', 'not a list of numbers');
  }
  for (const field of Object.keys(json)) if (!KNOWN.has(field)) drop(shownField(field), 'no engram field');
  return [{ record }, ...dropped.map((unmapped) => ({ unmapped }))];
}

/** The relations by their source memory; those that name no memory, or no engram link type, are reported. */
function groupRelations(
  relations: unknown[],
  ids: ReadonlySet<string>,
): { bySource: Map<string, SourceLink[]>; notes: Unmapped[] } {
  const bySource = new Map<string, SourceLink[]>();
  const notes: Unmapped[] = [];
  relations.forEach((relation, index) => {
    const r = isObject(relation) ? relation : {};
    const from = r.source_id ?? r.from_id ?? r.source;
    const to = r.target_id ?? r.to_id ?? r.target;
    const name = r.relation_type ?? r.type ?? 'related';
    const type = linkType(name);
    if (typeof from !== 'string' || typeof to !== 'string' || type === undefined || !ids.has(from)) {
      notes.push({ where: `relation ${index + 1}`, field: 'relations', reason: 'its source is not a memory of the export' });
      return;
    }
    if (!type.exact) {
      notes.push({ where: from, field: 'relations', reason: `relation '${shownText(String(name))}' to ${shownText(to)} has no engram type; kept as related` });
    }
    bySource.set(from, [...(bySource.get(from) ?? []), { to, type: type.type }]);
  });
  return { bySource, notes };
}

async function* readExport(path: string, stdin: NodeJS.ReadableStream = process.stdin): AsyncIterable<SourceEntry> {
  if (path !== '-') requirePath(path, 'file', 'the JSON file mem-context export wrote (or - for standard input)');
  let json: unknown;
  try {
    const raw = path === '-' ? await text(stdin) : await readFile(path, 'utf8');
    json = JSON.parse(raw.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new EngramError('PARAM_ERROR', `${path} is not a mem-context export (not JSON)`, {
      hint: 'Give the file `mem-context export -o FILE` wrote.',
      details: { path },
      cause: error,
    });
  }
  const memories = Array.isArray(json) ? json : isObject(json) ? json.memories : undefined;
  if (!Array.isArray(memories)) {
    throw new EngramError('PARAM_ERROR', `${path} is not a mem-context export (no memories)`, {
      hint: 'A mem-context export is an object with a memories array, or an array of memories.',
      details: { path },
    });
  }
  const relations = isObject(json) && Array.isArray(json.relations) ? json.relations : [];
  const ids = new Set(memories.flatMap((m) => (isObject(m) && typeof m.id === 'string' ? [m.id] : [])));
  const { bySource, notes } = groupRelations(relations, ids);
  for (const [index, memory] of memories.entries()) {
    const where = `memory ${index + 1}`;
    if (!isObject(memory)) yield { unmapped: { where, reason: 'not a JSON object' } };
    else yield* memContextRecord(memory, where, typeof memory.id === 'string' ? (bySource.get(memory.id) ?? []) : []);
  }
  for (const unmapped of notes) yield { unmapped };
}

export const memContextSource: ImportSource = {
  name: 'mem-context',
  expects: 'the JSON file `mem-context export -o FILE` wrote',
  mapping: MAPPING,
  read: readExport,
};

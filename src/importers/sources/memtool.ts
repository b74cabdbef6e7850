/**
 * memtool's JSONL export (`memtool export`: one item a line: id, type, task_id, step_id, key,
 * content, tags, source, weight, version, created_at, updated_at). memtool's `type` (project,
 * feature, run) is engram's layer; its UUID id is kept as the source id (a legacy id in
 * `provenance.import`); its confidence levels become numbers as memtool scores them (high 1.0,
 * medium 0.6, low 0.3); `content_search` (content plus jieba tokens) is derived and left out.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { EngramError, FIX_HINTS } from '../../errors.js';
import { LAYERS, type Layer } from '../../types.js';
import type { ImportSource, SourceEntry, SourceRecord, Unmapped } from '../source.js';
import { isObject, refusedTag, requirePath, shownField, toTagList, toTimestamp } from '../source-values.js';

/** memtool's confidence scores (its design, §8.1). */
const CONFIDENCE: Readonly<Record<string, number>> = { high: 1.0, medium: 0.6, low: 0.3 };

const MAPPING = [
  ['id (UUID)', 'provenance.import.source_id (the item gets an engram id)'],
  ['type (project | feature | run)', 'layer'],
  ['task_id, step_id, key', 'task_id, step_id, key'],
  ['content', 'content'],
  ['tags / tags_json', 'tags'],
  ['source', 'source'],
  ['weight', 'weight'],
  ['confidence (high | medium | low, or 0..1)', 'confidence (1.0 | 0.6 | 0.3)'],
  ['version', 'provenance.import.version'],
  ['created_at, updated_at', 'created_at, updated_at (UTC)'],
  ['content_search', '(derived from content: not imported)'],
] as const;

/** Keys that are mapped, or derived and deliberately left out. */
const KNOWN = new Set([
  'id', 'type', 'task_id', 'step_id', 'key', 'content', 'tags', 'tags_json', 'source', 'weight',
  'confidence', 'confidence_level', 'version', 'created_at', 'updated_at', 'content_search',
]);

function optionalText(value: unknown): string | null | undefined {
  if (value === null || value === undefined || value === '') return value === undefined ? undefined : null;
  return typeof value === 'string' ? value : String(value);
}

/** One export line as a record, and the fields of it that could not be mapped. */
export function memtoolRecord(json: Record<string, unknown>, where: string): SourceEntry[] {
  if (typeof json.id !== 'string' || json.id === '') return [{ unmapped: { where, reason: 'no id' } }];
  const id = json.id;
  if (json.content === undefined || json.content === null) return [{ unmapped: { where: id, reason: 'no content' } }];
  const dropped: Unmapped[] = [];
  const drop = (field: string, reason: string) => dropped.push({ where: id, field, reason });
  const record: SourceRecord = {
    sourceId: id,
    content: typeof json.content === 'string' ? json.content : JSON.stringify(json.content),
    task_id: optionalText(json.task_id),
    step_id: optionalText(json.step_id),
    key: optionalText(json.key),
    source: optionalText(json.source),
    provenance: json.version === undefined ? {} : { version: json.version },
  };
  if (LAYERS.includes(json.type as Layer)) record.layer = json.type as Layer;
  else if (json.type !== undefined && json.type !== null) drop('type', 'not project, feature or run');
  const tags = toTagList(json.tags ?? json.tags_json ?? []);
  if (tags === undefined) drop('tags', 'not a list of strings');
  else record.tags = tags.tags;
  for (const tag of tags?.refused ?? []) drop('tags', refusedTag(tag));
  if (typeof json.weight === 'number' && json.weight >= 0) record.weight = json.weight;
  else if (json.weight !== undefined && json.weight !== null) drop('weight', 'not a number of 0 or more');
  const level = json.confidence ?? json.confidence_level;
  if (typeof level === 'number' && level >= 0 && level <= 1) record.confidence = level;
  else if (typeof level === 'string' && level.toLowerCase() in CONFIDENCE) record.confidence = CONFIDENCE[level.toLowerCase()];
  else if (level !== undefined && level !== null) drop('confidence', 'not high, medium, low or a number 0..1');
  for (const field of ['created_at', 'updated_at'] as const) {
    const at = toTimestamp(json[field]);
    if (at !== undefined) record[field] = at;
    else if (json[field] !== undefined && json[field] !== null) drop(field, 'not a date-time');
  }
  for (const field of Object.keys(json)) if (!KNOWN.has(field)) drop(shownField(field), 'no engram field');
  return [{ record }, ...dropped.map((unmapped) => ({ unmapped }))];
}

/** An object of `engram export` (an engram item has a tier and a content hash; memtool's none). */
function isEngramExport(json: unknown): boolean {
  return isObject(json) && 'content_hash' in json && 'tier' in json;
}

async function* readExport(path: string, stdin: NodeJS.ReadableStream = process.stdin): AsyncIterable<SourceEntry> {
  if (path !== '-') requirePath(path, 'file', 'the JSONL file memtool export wrote (or - for standard input)');
  const input = path === '-' ? stdin : createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  let seen = false;
  for await (const raw of lines) {
    number++;
    const text = number === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!seen && isEngramExport(json)) {
      throw new EngramError('PARAM_ERROR', `${path} is an engram export, not a memtool export`, {
        hint: FIX_HINTS.plain_import,
        fix: 'plain_import',
        details: { path, line: number },
      });
    }
    if (!seen && !(isObject(json) && 'content' in json)) {
      throw new EngramError('PARAM_ERROR', `${path} is not a memtool export (line ${number} is not a memtool item)`, {
        hint: 'memtool export writes one JSON object a line, with id, type and content.',
        details: { path, line: number },
      });
    }
    seen = true;
    if (!isObject(json)) yield { unmapped: { where: `line ${number}`, reason: 'not a JSON object' } };
    else yield* memtoolRecord(json, `line ${number}`);
  }
}

export const memtoolSource: ImportSource = {
  name: 'memtool',
  expects: 'the JSONL file `memtool export` wrote',
  mapping: MAPPING,
  read: readExport,
};

/**
 * memctl / RAGIX (`memory.db`, schema_version 1, identical in both): `memory_items` (tier, type,
 * title, content, tags and entities as JSON arrays, provenance JSON, confidence, validation,
 * scope, dates in ISO 8601) with `memory_revisions` (a JSON snapshot per write), `memory_links`,
 * `corpus_hashes` (ingested files and their chunk items), `memory_embeddings` and
 * `memory_palace_locations`. Read-only; older or trimmed schemas are read as far as they go, and
 * every gap is reported.
 *
 * Choices: the 8 types and 3 tiers are engram's own (memctl's fallbacks for other types apply);
 * validation `contested` and `retracted` become `contradicted` (the original kept in provenance);
 * `refines` links become `derived_from`, other unknown relations `related`; an item's
 * `superseded_by` becomes a `supersedes` link from the newer item; archived items (memctl's soft
 * delete, and the originals a consolidation merged) are imported archived; usage, `injectable`
 * and `corpus_id` are engram's own fields; the other memctl fields (rule id, corpus label, the
 * ingested file, palace location) go to provenance. `memory_events`, memctl's audit log of reads
 * and writes, holds no memory and is not read (the import writes engram's own events);
 * `memory_mounts` (memctl 0.3's synced folders) is read only as the ingested files' folder; another
 * table nobody maps is reported.
 */
import { EngramError } from '../../errors.js';
import type { ForeignDatabase, ForeignRow } from '../../store/store.js';
import { ITEM_TYPES, type ItemType, TIERS, type Tier, type Validation } from '../../types.js';
import type { ImportSource, SourceEntry, SourceRecord, Unmapped } from '../source.js';
import { refusedTag, timestampProblem } from '../source-values.js';
import {
  embeddingReader, loadCorpus, loadCorpusLabels, loadLinks, palaceReader, revisionReader,
} from './memctl-tables.js';
import { linksOf } from './sqlite-links.js';
import {
  contentOf, contentProblem, extraColumns, listOf, missingColumns, numberOf, parseJson, plain, text, toRfc3339,
  unreadTables,
} from './sqlite-fields.js';

/** memctl's own fallbacks for types outside its eight (memctl/types.py). */
const TYPE_FALLBACKS: Readonly<Record<string, ItemType>> = { process: 'pattern', rule: 'constraint', requirement: 'constraint' };
const VALIDATIONS: Readonly<Record<string, Validation>> = {
  unverified: 'unverified',
  verified: 'verified',
  contested: 'contradicted',
  retracted: 'contradicted',
};
/** Columns mapped onto engram fields: a database without one gets a note. */
const MAPPED = ['title', 'type', 'tier', 'tags', 'entities', 'provenance_json', 'confidence', 'validation', 'scope', 'expires_at', 'created_at', 'updated_at'];
const KNOWN = new Set([
  ...MAPPED, 'id', 'content', 'links_json', 'usage_count', 'last_used_at', 'rule_id', 'superseded_by', 'archived',
  'content_hash', 'corpus_id', 'injectable',
]);
/** Tables read, or memctl's own bookkeeping that holds no memory. */
const READ = [
  'memory_items', 'memory_revisions', 'memory_links', 'corpus_hashes', 'corpus_metadata', 'memory_embeddings',
  'memory_palace_locations', 'schema_meta', 'memory_events', 'memory_mounts',
];

/** engram's own `memory_items` (secrecy and layer, no provenance_json); another extra column is kept. */
const isEngramStore = (columns: readonly string[]) =>
  columns.includes('secrecy') && columns.includes('layer') && !columns.includes('provenance_json');

function notMemctl(db: ForeignDatabase): EngramError {
  const columns = db.columns('memory_items');
  if (isEngramStore(columns)) {
    return new EngramError('PARAM_ERROR', `${db.path} is an engram store, not a memctl / RAGIX one`, {
      hint: 'Copy items between engram stores with an export and an import of its lines.',
      details: { path: db.path },
    });
  }
  const other = db.columns('memories').includes('content_hash')
    ? ' It looks like an mcp-memory-service database: import it as that source.'
    : '';
  return new EngramError('PARAM_ERROR', `${db.path} is a SQLite database but not a memctl / RAGIX one (no memory_items table with id and content)`, {
    hint: `memctl keeps its store in .memory/memory.db (or where MEMCTL_DB points).${other}`,
    details: { path: db.path },
  });
}

interface Context {
  revisions: ReturnType<typeof revisionReader>;
  embeddings: ReturnType<typeof embeddingReader>;
  palace: ReturnType<typeof palaceReader>;
  links: Map<string, { to: string; rel: string }[]>;
  files: Map<string, Record<string, unknown>>;
  labels: Map<string, string>;
  absent: (id: string) => string | undefined;
}

function setIf<K extends keyof SourceRecord>(record: SourceRecord, key: K, value: SourceRecord[K] | undefined): void {
  if (value !== undefined) record[key] = value;
}

function listField(row: ForeignRow, column: string, id: string, notes: Unmapped[]): string[] | undefined {
  if (!(column in row)) return undefined;
  const { values, ok, refused } = listOf(row[column], { tags: column === 'tags' });
  if (!ok) notes.push({ where: id, field: column, reason: `not a JSON array of strings: ${String(row[column]).slice(0, 60)}` });
  for (const tag of refused) notes.push({ where: id, field: column, reason: refusedTag(tag) });
  return values;
}

type Provenance = Record<string, unknown>;

function enumFields(row: ForeignRow, record: SourceRecord, provenance: Provenance, notes: Unmapped[]): void {
  const id = record.sourceId;
  const type = text(row.type)?.toLowerCase();
  if (type !== undefined) {
    const mapped = (ITEM_TYPES as readonly string[]).includes(type) ? (type as ItemType) : (TYPE_FALLBACKS[type] ?? 'note');
    record.type = mapped;
    if (mapped !== type) {
      provenance.type = type;
      if (TYPE_FALLBACKS[type] === undefined) notes.push({ where: id, field: 'type', reason: `type '${type}' has no engram type; imported as note` });
    }
  }
  const tier = text(row.tier)?.toLowerCase();
  if (tier !== undefined && (TIERS as readonly string[]).includes(tier)) record.tier = tier as Tier;
  else if (tier !== undefined) notes.push({ where: id, field: 'tier', reason: `tier '${tier}' is not stm, mtm or ltm; engram's default applies` });
  const validation = text(row.validation)?.toLowerCase();
  if (validation !== undefined) {
    const mapped = VALIDATIONS[validation];
    if (mapped === undefined) notes.push({ where: id, field: 'validation', reason: `validation '${validation}' is unknown; engram's default applies` });
    else record.validation = mapped;
    if (mapped !== undefined && mapped !== validation) provenance.validation = validation;
  }
  const confidence = numberOf(row.confidence);
  if (confidence !== undefined && confidence >= 0 && confidence <= 1) record.confidence = confidence;
  else if (row.confidence !== undefined && row.confidence !== null) {
    notes.push({ where: id, field: 'confidence', reason: `confidence ${String(row.confidence)} is not between 0 and 1; engram's default applies` });
  }
}

/** Usage, the archived flag (memctl's soft delete), injectable and the corpus: engram's own fields. */
function usageFields(row: ForeignRow, record: SourceRecord): void {
  const usage = numberOf(row.usage_count);
  if (usage !== undefined && Number.isInteger(usage) && usage >= 0) record.usage_count = usage;
  if (numberOf(row.archived) === 1) record.archived = true;
  if (numberOf(row.injectable) === 0) record.injectable = false;
  setIf(record, 'corpus_id', text(row.corpus_id));
}

function dateFields(row: ForeignRow, record: SourceRecord, notes: Unmapped[]): void {
  for (const column of ['created_at', 'updated_at', 'expires_at', 'last_used_at'] as const) {
    const value = row[column];
    if (value === undefined || value === null || value === '') continue;
    const options = { future: column === 'expires_at' };
    const date = toRfc3339(value, options);
    const reason = `${timestampProblem(typeof value === 'bigint' ? Number(value) : value, options)}; engram's default applies`;
    if (date === undefined) notes.push({ where: record.sourceId, field: column, reason });
    else record[column] = date;
  }
}

function provenanceOf(
  row: ForeignRow,
  ctx: Context,
  record: SourceRecord,
  provenance: Provenance,
  notes: Unmapped[],
): void {
  const id = record.sourceId;
  const own = parseJson(row.provenance_json);
  if (own !== null && typeof own === 'object' && !Array.isArray(own)) {
    for (const [key, value] of Object.entries(own as Record<string, unknown>)) {
      if (key === 'source_id') continue;
      const empty = value === '' || value === null || (Array.isArray(value) && value.length === 0);
      if (!empty) provenance[key] = key === 'created_at' ? (toRfc3339(value) ?? value) : value;
    }
    setIf(record, 'source', text((own as Record<string, unknown>).source_id));
  } else if (text(row.provenance_json) !== undefined) {
    notes.push({ where: id, field: 'provenance_json', reason: 'not a JSON object; left out' });
  }
  const file = ctx.files.get(id);
  if (file !== undefined) {
    provenance.file = file;
    if (record.source === undefined) setIf(record, 'source', file.path as string | undefined);
  }
  for (const column of ['rule_id', 'content_hash']) {
    const value = text(row[column]);
    if (value !== undefined) provenance[column] = value;
  }
  const label = ctx.labels.get(text(row.corpus_id) ?? '');
  if (label !== undefined) provenance.corpus_label = label;
  const palace = ctx.palace?.(id);
  if (palace !== undefined) provenance.palace = palace;
  const extra = extraColumns(row, KNOWN);
  if (extra !== undefined) provenance.columns = extra;
}

function recordOf(row: ForeignRow, ctx: Context, position: number): { record?: SourceRecord; notes: Unmapped[] } {
  const raw = plain(row.id);
  const id = text(row.id) ?? (typeof raw === 'number' ? String(raw) : undefined);
  if (id === undefined) return { notes: [{ where: `row ${position}`, reason: 'no usable id' }] };
  const notes: Unmapped[] = [];
  const content = contentOf(row.content) ?? '';
  if (content.trim() === '') return { notes: [{ where: id, reason: contentProblem(row.content) }] };
  const record: SourceRecord = { sourceId: id, content };
  const provenance: Record<string, unknown> = {};
  setIf(record, 'title', text(row.title));
  enumFields(row, record, provenance, notes);
  setIf(record, 'scope', text(row.scope));
  setIf(record, 'tags', listField(row, 'tags', id, notes));
  setIf(record, 'entities', listField(row, 'entities', id, notes));
  dateFields(row, record, notes);
  usageFields(row, record);
  provenanceOf(row, ctx, record, provenance, notes);
  const revisions = ctx.revisions?.(id, { content, title: record.title, updated_at: record.updated_at }, notes);
  if (revisions !== undefined && revisions.length > 0) record.revisions = revisions;
  const links = linksOf(id, ctx.links.get(id) ?? [], ctx.absent, notes);
  if (links.length > 0) record.links = links;
  const embedding = ctx.embeddings?.(id, notes);
  if (embedding !== undefined) {
    record.vector = embedding.vector;
    if (embedding.model !== undefined) provenance.embedding_model = embedding.model;
  }
  if (Object.keys(provenance).length > 0) record.provenance = provenance;
  return { record, notes };
}

function schemaNotes(db: ForeignDatabase, columns: readonly string[]): Unmapped[] {
  const notes = missingColumns('memory_items', columns, MAPPED);
  for (const table of ['memory_revisions', 'memory_links', 'corpus_hashes']) {
    if (!db.tables().includes(table)) notes.push({ where: table, field: table, reason: 'no such table in this database; nothing of it to import' });
  }
  for (const table of unreadTables(db, READ)) {
    const count = numberOf(db.prepare(`SELECT count(*) AS n FROM "${table.replace(/"/g, '""')}"`).get()?.n) ?? 0;
    notes.push({ where: table, field: table, reason: `${count} rows not imported: not a memctl table engram maps` });
  }
  return notes;
}

function* entries(db: ForeignDatabase): Generator<SourceEntry> {
  const columns = db.columns('memory_items');
  if (!columns.includes('id') || !columns.includes('content') || isEngramStore(columns)) throw notMemctl(db);
  for (const unmapped of schemaNotes(db, columns)) yield { unmapped };
  const ids = new Set<string>();
  for (const row of db.prepare('SELECT id FROM memory_items').iterate()) {
    const id = text(row.id);
    if (id !== undefined) ids.add(id);
  }
  const ctx: Context = {
    revisions: revisionReader(db),
    embeddings: embeddingReader(db),
    palace: palaceReader(db),
    links: loadLinks(db, columns),
    files: loadCorpus(db),
    labels: loadCorpusLabels(db),
    absent: (id) => (ids.has(id) ? undefined : 'is not in the database'),
  };
  let position = 0;
  for (const row of db.prepare('SELECT * FROM memory_items ORDER BY rowid').iterate()) {
    const { record, notes } = recordOf(row, ctx, ++position);
    for (const unmapped of notes) yield { unmapped };
    if (record !== undefined) yield { record };
  }
}

export const memctlSource: ImportSource = {
  name: 'memctl',
  expects: 'a memctl or RAGIX SQLite database (memory.db, MEMCTL_DB)',
  mapping: [
    ['memory_items.id', 'provenance (source id; a re-import updates)'],
    ['title, content, type, tier, scope', 'title, content, type, tier, scope'],
    ['tags, entities (JSON arrays)', 'tags, entities'],
    ['confidence', 'confidence'],
    ['validation (contested, retracted → contradicted)', 'validation'],
    ['created_at, updated_at, expires_at', 'created_at, updated_at, expires_at (RFC 3339)'],
    ['provenance_json.source_id, corpus_hashes.file_path', 'source'],
    ['usage_count, last_used_at, archived, injectable, corpus_id', 'the same fields'],
    ['provenance_json, rule_id, corpus_label, corpus_hashes, palace', 'provenance'],
    ['memory_revisions.snapshot', 'history (past versions)'],
    ['memory_links, links_json, superseded_by', 'links (refines → derived_from)'],
    ['memory_embeddings.vector', 'vector (when the dimension matches the embedder)'],
    ['memory_events (the audit log)', 'not imported (the import writes its own events)'],
  ],
  async* read(path: string): AsyncIterable<SourceEntry> {
    const { openForeignDatabase } = await import('../../store/sqlite/foreign.js');
    const db = openForeignDatabase(path, { expected: 'a memctl or RAGIX database' });
    try {
      yield* entries(db);
    } finally {
      db.close();
    }
  },
};

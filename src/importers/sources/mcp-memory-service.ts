/**
 * mcp-memory-service's SQLite-vec database (`sqlite_vec.db`): `memories` (content, content_hash,
 * tags as comma-separated text or a JSON array, memory_type, metadata JSON, created_at and
 * updated_at as epoch seconds with `*_iso` twins, deleted_at for tombstones), the `vec0` table
 * `memory_embeddings` (keyed by the memory's rowid) and, from its knowledge-graph versions on,
 * `memory_graph` (typed edges between content hashes). Read-only.
 *
 * Choices: the content hash is the source id (stable across the source's own rewrites, and what
 * its graph refers to; the integer id goes to provenance). memory_type maps onto type and tier
 * by its ontology's base type (`TYPE_MAP`; subtypes with their base), the original kept in
 * provenance; access_count and last_accessed_at (in metadata) are engram's usage; the metadata
 * object and the columns engram has no field for go to provenance;
 * `valid_until` becomes expires_at; memory evolution's lineage (`superseded_by`, `parent_id`)
 * becomes supersedes / derived_from links, a superseded version archived; tombstones are not
 * imported and are reported.
 */
import { EngramError } from '../../errors.js';
import type { ForeignDatabase, ForeignRow } from '../../store/store.js';
import type { ItemType, Tier } from '../../types.js';
import type { ImportSource, SourceEntry, SourceRecord, Unmapped } from '../source.js';
import { refusedTag, timestampProblem } from '../source-values.js';
import { contentOf, contentProblem, float32Of, extraColumns, listOf, missingColumns, numberOf, parseJson, plain, text, toRfc3339, unreadTables } from './sqlite-fields.js';
import { linksOf } from './sqlite-links.js';

/**
 * memory_type → engram type and tier. Observations are raw events (short-term); learnings,
 * errors and patterns are distilled knowledge (medium-term); decisions are long-term, as in
 * memctl's tiers. Types from before the ontology (note, reference, todo, …) keep their meaning.
 */
export const TYPE_MAP: Readonly<Record<string, { type: ItemType; tier?: Tier }>> = {
  ...Object.fromEntries(
    ['observation', 'code_edit', 'file_access', 'search', 'command', 'conversation', 'session'].map((t) => [t, { type: 'note', tier: 'stm' }]),
  ),
  ...Object.fromEntries(['decision', 'architecture', 'tool_choice', 'approach', 'configuration'].map((t) => [t, { type: 'decision', tier: 'ltm' }])),
  ...Object.fromEntries(['learning', 'insight', 'gotcha', 'error', 'bug', 'failure', 'exception', 'timeout'].map((t) => [t, { type: 'fact', tier: 'mtm' }])),
  ...Object.fromEntries(
    ['pattern', 'best_practice', 'recurring_issue', 'code_smell', 'design_pattern', 'workflow'].map((t) => [t, { type: 'pattern', tier: 'mtm' }]),
  ),
  anti_pattern: { type: 'constraint', tier: 'mtm' },
  note: { type: 'note' },
  document: { type: 'note' },
  fact: { type: 'fact' },
  definition: { type: 'definition' },
  constraint: { type: 'constraint' },
  rule: { type: 'constraint' },
  todo: { type: 'todo' },
  task: { type: 'todo' },
  reminder: { type: 'todo' },
  reference: { type: 'pointer' },
  link: { type: 'pointer' },
};

const MAPPED = ['tags', 'memory_type', 'metadata', 'created_at', 'updated_at'];
const KNOWN = new Set([
  ...MAPPED, 'id', 'content', 'content_hash', 'created_at_iso', 'updated_at_iso', 'deleted_at', 'valid_until', 'last_accessed_at',
  'last_accessed', 'confidence', 'superseded_by', 'parent_id',
]);
const READ = ['memories', 'memory_embeddings', 'memory_graph', 'metadata'];

function notMcpMemory(db: ForeignDatabase): EngramError {
  const other = db.tables().includes('memory_items') ? ' It looks like a memctl / RAGIX database: import it as that source.' : '';
  return new EngramError('PARAM_ERROR', `${db.path} is a SQLite database but not an mcp-memory-service one (no memories table with content and content_hash)`, {
    hint: `mcp-memory-service keeps it in sqlite_vec.db (or where MCP_MEMORY_SQLITE_PATH points).${other}`,
    details: { path: db.path },
  });
}

function vectorReader(db: ForeignDatabase, notes: Unmapped[]) {
  if (!db.tables().includes('memory_embeddings')) return undefined;
  const schema = db.schemaOf('memory_embeddings') ?? '';
  if (/USING\s+vec0/i.test(schema) && !db.vectors) {
    notes.push({ where: 'memory_embeddings', field: 'memory_embeddings', reason: 'the sqlite-vec extension is not available here; vectors left out' });
    return undefined;
  }
  if (!db.columns('memory_embeddings').includes('content_embedding')) return undefined;
  const dimension = numberOf(/FLOAT\[(\d+)\]/i.exec(schema)?.[1]);
  const statement = db.prepare('SELECT content_embedding FROM memory_embeddings WHERE rowid = ?');
  return (rowid: unknown) => float32Of(statement.get(rowid)?.content_embedding, dimension);
}

type Graph = Map<string, { to: string; rel: string }[]>;

function addEdge(graph: Graph, from: string | undefined, to: string | undefined, rel: string): void {
  if (from === undefined || to === undefined) return;
  const list = graph.get(from) ?? [];
  if (!list.some((edge) => edge.to === to && edge.rel === rel)) list.push({ to, rel });
  graph.set(from, list);
}

/**
 * Outgoing edges by content hash: `memory_graph`, and the lineage of memory evolution
 * (`superseded_by` B: B supersedes this one; `parent_id` P: this one derives from P, unless P
 * says it is superseded by this one, which the supersedes link already says).
 */
function graphOf(db: ForeignDatabase, memoryColumns: readonly string[]): Graph {
  const graph: Graph = new Map();
  const columns = db.columns('memory_graph');
  if (columns.includes('source_hash') && columns.includes('target_hash')) {
    const rel = columns.includes('relationship_type') ? 'relationship_type' : '\'related\'';
    for (const row of db.prepare(`SELECT source_hash, target_hash, ${rel} AS rel FROM memory_graph`).iterate()) {
      addEdge(graph, text(row.source_hash), text(row.target_hash), text(row.rel) ?? 'related');
    }
  }
  const lineage = ['superseded_by', 'parent_id'].filter((c) => memoryColumns.includes(c));
  if (lineage.length === 0) return graph;
  const rows = db.prepare(`SELECT content_hash, ${lineage.join(', ')} FROM memories`).all();
  const newer = new Map(rows.map((row) => [text(row.content_hash), text(row.superseded_by)]));
  for (const row of rows) {
    const hash = text(row.content_hash);
    addEdge(graph, text(row.superseded_by), hash, 'supersedes');
    const parent = text(row.parent_id);
    if (parent !== undefined && newer.get(parent) !== hash) addEdge(graph, hash, parent, 'derived_from');
  }
  return graph;
}

type Provenance = Record<string, unknown>;

function typeFields(row: ForeignRow, record: SourceRecord, provenance: Provenance, notes: Unmapped[]): void {
  const memoryType = text(row.memory_type);
  if (memoryType === undefined) return;
  provenance.memory_type = memoryType;
  const mapped = TYPE_MAP[memoryType.toLowerCase()];
  if (mapped === undefined) {
    record.type = 'note';
    notes.push({ where: record.sourceId, field: 'memory_type', reason: `memory_type '${memoryType}' has no engram type; imported as note` });
    return;
  }
  record.type = mapped.type;
  if (mapped.tier !== undefined) record.tier = mapped.tier;
}

/** Access tracking: `metadata.access_count`, and `last_accessed_at` (a column, or in metadata). */
function usageFields(row: ForeignRow, metadata: Provenance, record: SourceRecord, notes: Unmapped[]): void {
  const count = numberOf(metadata.access_count);
  if (count !== undefined && Number.isInteger(count) && count >= 0) record.usage_count = count;
  const values = [row.last_accessed_at, row.last_accessed, metadata.last_accessed_at].filter((v) => v !== undefined && v !== null && v !== '');
  const last = values.map((v) => toRfc3339(v)).find((v) => v !== undefined);
  if (last !== undefined) record.last_used_at = last;
  else if (values.length > 0) notes.push({ where: record.sourceId, field: 'last_accessed_at', reason: `${timestampProblem(plain(values[0]))}; left out` });
}

/** Memory evolution's columns: a confidence, and a superseded version is kept archived. */
function evolutionFields(row: ForeignRow, record: SourceRecord, notes: Unmapped[]): void {
  const confidence = numberOf(row.confidence);
  if (confidence !== undefined && confidence >= 0 && confidence <= 1) record.confidence = confidence;
  else if (row.confidence !== undefined && row.confidence !== null) {
    notes.push({ where: record.sourceId, field: 'confidence', reason: `confidence ${String(row.confidence)} is not between 0 and 1; engram's default applies` });
  }
  if (text(row.superseded_by) !== undefined) record.archived = true;
}

/** The epoch column, else its ISO twin; a note when one holds something and neither is a date. */
function dateOf(row: ForeignRow, column: string, record: SourceRecord, notes: Unmapped[]): string | undefined {
  const values = [row[column], row[`${column}_iso`]].filter((v) => v !== undefined && v !== null && v !== '');
  for (const value of values) {
    const date = toRfc3339(value);
    if (date !== undefined) return date;
  }
  if (values.length > 0) notes.push({ where: record.sourceId, field: column, reason: `${timestampProblem(plain(values[0]))}; engram's default applies` });
  return undefined;
}

type VectorOf = ((rowid: unknown) => Float32Array | undefined) | undefined;

function recordOf(row: ForeignRow, vectorOf: VectorOf): { record: SourceRecord; notes: Unmapped[] } {
  const hash = text(row.content_hash);
  const sourceId = hash ?? `id:${String(plain(row.id))}`;
  const notes: Unmapped[] = [];
  const record: SourceRecord = { sourceId, content: row.content as string };
  const provenance: Record<string, unknown> = {};
  if (row.id !== undefined && row.id !== null) provenance.id = plain(row.id);
  if ('tags' in row) {
    const { values, ok, refused } = listOf(row.tags, { tags: true });
    if (!ok) notes.push({ where: sourceId, field: 'tags', reason: `neither comma-separated text nor a JSON array: ${String(row.tags).slice(0, 60)}` });
    for (const tag of refused) notes.push({ where: sourceId, field: 'tags', reason: refusedTag(tag) });
    record.tags = values;
  }
  typeFields(row, record, provenance, notes);
  const parsed = parseJson(row.metadata);
  const metadata = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Provenance) : undefined;
  usageFields(row, metadata ?? {}, record, notes);
  evolutionFields(row, record, notes);
  if (metadata !== undefined) {
    if (Object.keys(metadata).length > 0) provenance.metadata = metadata;
  } else if (text(row.metadata) !== undefined) {
    provenance.metadata_text = row.metadata;
    notes.push({ where: sourceId, field: 'metadata', reason: 'not a JSON object; kept as text in provenance' });
  }
  const created = dateOf(row, 'created_at', record, notes);
  if (created !== undefined) record.created_at = created;
  const updated = dateOf(row, 'updated_at', record, notes);
  if (updated !== undefined) record.updated_at = updated;
  if (row.valid_until !== undefined && row.valid_until !== null && row.valid_until !== '') {
    const until = toRfc3339(row.valid_until, { future: true });
    const reason = timestampProblem(plain(row.valid_until), { future: true });
    if (until === undefined) notes.push({ where: sourceId, field: 'valid_until', reason });
    else record.expires_at = until;
  }
  const extra = extraColumns(row, KNOWN);
  if (extra !== undefined) provenance.columns = extra;
  const vector = vectorOf?.(row.id);
  if (vector !== undefined) record.vector = vector;
  record.provenance = provenance;
  return { record, notes };
}

function* entries(db: ForeignDatabase): Generator<SourceEntry> {
  const columns = db.columns('memories');
  if (!columns.includes('content') || !columns.includes('content_hash')) throw notMcpMemory(db);
  const schema = missingColumns('memories', columns, MAPPED);
  const vectorOf = columns.includes('id') ? vectorReader(db, schema) : undefined;
  for (const table of unreadTables(db, READ)) {
    const count = numberOf(db.prepare(`SELECT count(*) AS n FROM "${table.replace(/"/g, '""')}"`).get()?.n) ?? 0;
    schema.push({ where: table, field: table, reason: `${count} rows not imported: not an mcp-memory-service table engram maps` });
  }
  for (const unmapped of schema) yield { unmapped };
  const deleted = columns.includes('deleted_at') ? 'deleted_at' : 'NULL';
  const live = new Set<string>();
  for (const row of db.prepare(`SELECT content_hash FROM memories WHERE ${deleted} IS NULL`).iterate()) {
    const hash = text(row.content_hash);
    if (hash !== undefined) live.add(hash);
  }
  const graph = graphOf(db, columns);
  const absent = (hash: string) => (live.has(hash) ? undefined : 'is not in the database (or deleted there)');
  const order = columns.includes('id') ? 'id' : 'rowid';
  for (const row of db.prepare(`SELECT *, ${deleted} AS engram_deleted FROM memories ORDER BY ${order}`).iterate()) {
    const where = text(row.content_hash) ?? `id:${String(plain(row.id))}`;
    if (row.engram_deleted !== null && row.engram_deleted !== undefined) {
      yield { unmapped: { where, reason: 'deleted in mcp-memory-service (a tombstone); not imported' } };
      continue;
    }
    delete row.engram_deleted;
    const content = contentOf(row.content);
    if (content === undefined || content.trim() === '') {
      yield { unmapped: { where, reason: contentProblem(row.content) } };
      continue;
    }
    row.content = content;
    const { record, notes } = recordOf(row, vectorOf);
    const links = linksOf(record.sourceId, graph.get(record.sourceId) ?? [], absent, notes);
    if (links.length > 0) record.links = links;
    for (const unmapped of notes) yield { unmapped };
    yield { record };
  }
}

export const mcpMemoryServiceSource: ImportSource = {
  name: 'mcp-memory-service',
  expects: 'mcp-memory-service\'s SQLite-vec database (sqlite_vec.db)',
  mapping: [
    ['content_hash', 'provenance (source id; a re-import updates)'],
    ['content', 'content'],
    ['tags (comma-separated or JSON)', 'tags'],
    ['memory_type', 'type and tier (observation → note/stm, learning and error → fact/mtm, pattern → pattern/mtm, decision → decision/ltm)'],
    ['created_at, updated_at (or *_iso)', 'created_at, updated_at (RFC 3339)'],
    ['valid_until', 'expires_at'],
    ['metadata.access_count, last_accessed_at', 'usage_count, last_used_at'],
    ['metadata, id, memory_type, other columns', 'provenance'],
    ['memory_embeddings (vec0)', 'vector (when the dimension matches the embedder)'],
    ['memory_graph', 'links (causes, fixes, follows → related)'],
    ['superseded_by, parent_id, confidence (memory evolution)', 'supersedes / derived_from links, archived, confidence'],
    ['deleted_at (tombstones)', 'not imported (reported)'],
  ],
  async* read(path: string): AsyncIterable<SourceEntry> {
    const { openForeignDatabase } = await import('../../store/sqlite/foreign.js');
    const db = openForeignDatabase(path, { vectors: true, expected: 'an mcp-memory-service database' });
    try {
      yield* entries(db);
    } finally {
      db.close();
    }
  },
};

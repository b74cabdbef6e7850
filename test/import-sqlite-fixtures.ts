/**
 * Generated databases of the two SQLite sources `engram import` reads, built at run time in the
 * sources' documented schemas (no third-party data is committed): a memctl / RAGIX `memory.db`
 * (schema 2: items, revisions, links, corpus hashes and mounts, embeddings, palace, events, FTS5) and an
 * mcp-memory-service `sqlite_vec.db` (memories, a vec0 embeddings table, the knowledge graph).
 * Every field kind occurs, with the odd values a real store collects (other date forms, unknown
 * types, broken JSON, tombstones). Secrets, when asked for, are assembled from pieces here.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const WORDS = ['cache', 'schema', 'deploy', 'index', 'queue', 'token budget', 'retry', 'migration', 'parser', 'release'];
const DIGITS = '0123456789';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALNUM = `${UPPER}abcdefghijklmnopqrstuvwxyz${DIGITS}`;

/** A deterministic string of `n` characters of `alphabet`, varied by `seed`. */
function chars(seed: number, n: number, alphabet: string): string {
  let out = '';
  let x = seed * 2654435761;
  for (let i = 0; i < n; i += 1) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet[x % alphabet.length];
  }
  return out;
}

/** A credential the write policy refuses, assembled from pieces; `value` is what must never be stored. */
export function plantedSecret(seed: number): { text: string; value: string } {
  if (seed % 2 === 0) {
    const value = `AK${'IA'}${chars(seed, 16, UPPER + DIGITS)}`;
    return { text: `the deploy user's access key id is ${value} for the staging bucket`, value };
  }
  const value = `gh${'p_'}${chars(seed, 36, ALNUM)}`;
  return { text: `CI pushes tags with the personal token ${value} (rotate yearly)`, value };
}

/** Epoch seconds of 2026-01-01T00:00:00Z. */
export const BASE_EPOCH = 1_767_225_600;
const isoAt = (seconds: number) => new Date(seconds * 1000).toISOString();
const pythonIso = (seconds: number) => `${isoAt(seconds).slice(0, 19)}.123456+00:00`;
const naive = (seconds: number) => isoAt(seconds).slice(0, 19).replace('T', ' ');

export interface FixtureOptions {
  count?: number;
  /** Item indexes whose content carries a planted secret. */
  secretsAt?: readonly number[];
  /** memctl: items whose first past version (only) carries one. */
  draftSecretsAt?: readonly number[];
  /** mcp-memory-service: memories whose metadata carries one. */
  metadataSecretsAt?: readonly number[];
}

// ---------------------------------------------------------------------------------------------
// memctl / RAGIX
// ---------------------------------------------------------------------------------------------

const MEMCTL_SCHEMA = `
CREATE TABLE memory_items (
  id TEXT PRIMARY KEY, tier TEXT NOT NULL, type TEXT NOT NULL, title TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL DEFAULT '', tags TEXT NOT NULL DEFAULT '[]', entities TEXT NOT NULL DEFAULT '[]',
  links_json TEXT NOT NULL DEFAULT '[]', provenance_json TEXT NOT NULL DEFAULT '{}',
  confidence REAL NOT NULL DEFAULT 0.5, validation TEXT NOT NULL DEFAULT 'unverified',
  scope TEXT NOT NULL DEFAULT 'project', expires_at TEXT, usage_count INTEGER NOT NULL DEFAULT 0,
  last_used_at TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, rule_id TEXT, superseded_by TEXT,
  archived INTEGER NOT NULL DEFAULT 0, content_hash TEXT NOT NULL DEFAULT '', corpus_id TEXT,
  injectable INTEGER NOT NULL DEFAULT 1);
CREATE TABLE memory_revisions (revision_id TEXT PRIMARY KEY, item_id TEXT NOT NULL, revision_num INTEGER NOT NULL,
  snapshot TEXT NOT NULL, changed_at TEXT NOT NULL, reason TEXT NOT NULL DEFAULT 'update');
CREATE TABLE memory_embeddings (item_id TEXT PRIMARY KEY, model_name TEXT NOT NULL, dimension INTEGER NOT NULL,
  vector BLOB NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE memory_links (src_id TEXT NOT NULL, dst_id TEXT NOT NULL, rel TEXT NOT NULL, created_at TEXT NOT NULL,
  PRIMARY KEY (src_id, dst_id, rel));
CREATE TABLE memory_palace_locations (item_id TEXT PRIMARY KEY, domain TEXT NOT NULL DEFAULT 'default',
  room TEXT NOT NULL DEFAULT '', shelf TEXT NOT NULL DEFAULT '', card TEXT NOT NULL DEFAULT '', assigned_at TEXT NOT NULL);
CREATE TABLE memory_events (id TEXT PRIMARY KEY, action TEXT NOT NULL, item_id TEXT,
  details_json TEXT NOT NULL DEFAULT '{}', content_hash TEXT NOT NULL DEFAULT '', timestamp TEXT NOT NULL);
CREATE TABLE corpus_hashes (file_path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, chunk_count INTEGER NOT NULL DEFAULT 0,
  item_ids TEXT NOT NULL DEFAULT '[]', ingested_at TEXT NOT NULL, mount_id TEXT, rel_path TEXT, ext TEXT,
  size_bytes INTEGER, mtime_epoch INTEGER, lang_hint TEXT);
CREATE TABLE memory_mounts (mount_id TEXT PRIMARY KEY, path TEXT NOT NULL UNIQUE, name TEXT,
  ignore_json TEXT NOT NULL DEFAULT '[]', lang_hint TEXT, created_at TEXT NOT NULL, last_sync_at TEXT);
CREATE TABLE corpus_metadata (corpus_id TEXT PRIMARY KEY, corpus_label TEXT NOT NULL DEFAULT '', parent_corpus_id TEXT,
  doc_count INTEGER NOT NULL DEFAULT 0, item_count INTEGER NOT NULL DEFAULT 0, scope TEXT NOT NULL DEFAULT 'project',
  ingested_at TEXT NOT NULL);
CREATE TABLE schema_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE team_bookmarks (url TEXT PRIMARY KEY, label TEXT);
INSERT INTO team_bookmarks VALUES ('https://example.org/a', 'a'), ('https://example.org/b', 'b'), ('https://example.org/c', 'c');
CREATE VIRTUAL TABLE memory_items_fts USING fts5(title, content, tags, entities, content='memory_items',
  content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER memory_items_fts_ai AFTER INSERT ON memory_items BEGIN
  INSERT INTO memory_items_fts(rowid, title, content, tags, entities) VALUES (new.rowid, new.title, new.content, new.tags, new.entities);
END;
`;

export const MEMCTL_TYPES = ['fact', 'decision', 'definition', 'constraint', 'pattern', 'todo', 'pointer', 'note'];

/** One generated memctl item, as written to `memory_items` (plus what the side tables hold for it). */
export interface MemctlItem {
  index: number;
  id: string;
  tier: string;
  type: string;
  title: string;
  content: string;
  tags: string;
  entities: string;
  links_json: string;
  provenance_json: string;
  confidence: number;
  validation: string;
  scope: string;
  expires_at: string | null;
  usage_count: number;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
  rule_id: string | null;
  superseded_by: string | null;
  archived: number;
  content_hash: string;
  corpus_id: string | null;
  injectable: number;
  /** Past contents, oldest first (the current state is the last revision written). */
  drafts: string[];
  badRevision: boolean;
  links: { to: string; rel: string }[];
  vector?: number[];
  badVector: boolean;
  palace?: { domain: string; room: string; shelf: string; card: string };
  file?: string;
}

export const memctlId = (i: number) => `MEM-${(0xa00000000000 + i).toString(16)}`;

function memctlItem(i: number, count: number, options: FixtureOptions): MemctlItem {
  const secretsAt = options.secretsAt ?? [];
  const id = memctlId(i);
  const created = BASE_EPOCH + i * 3600;
  const word = WORDS[i % WORDS.length] ?? 'cache';
  let content = `Memory ${i}: the ${word} step ${i % 2 === 0 ? 'runs before' : 'follows'} the build (${sha256(String(i)).slice(0, 8)}).`;
  if (secretsAt.includes(i)) content = `Memory ${i}: ${plantedSecret(i).text}`;
  const created_at = i % 400 === 11 ? 'sometime last spring' : [pythonIso, naive, isoAt][i % 3]!(created);
  const links: { to: string; rel: string }[] = [];
  if (i % 15 === 2 && i + 1 < count) links.push({ to: memctlId(i + 1), rel: 'refines' });
  if (i % 15 === 4 && i >= 2) links.push({ to: memctlId(i - 2), rel: 'contradicts' });
  if (i % 100 === 50 && i >= 1) links.push({ to: memctlId(i - 1), rel: 'blocks' });
  if (i % 300 === 150) links.push({ to: 'MEM-missing00000', rel: 'supports' });
  const file = i % 4 === 0 ? `docs/file${i % 9}.md` : undefined;
  return {
    index: i,
    id,
    tier: ['stm', 'mtm', 'ltm'][i % 3]!,
    type: i % 50 === 7 ? 'process' : i % 97 === 13 ? 'hunch' : MEMCTL_TYPES[i % 8]!,
    title: i % 10 === 0 ? '' : `Title ${i}: ${word}`,
    content,
    tags: i % 333 === 5 ? '{"bad":1}' : i % 40 === 3 ? '[]' : JSON.stringify([`t${i % 7}`, `group-${i % 3}`]),
    entities: JSON.stringify(i % 2 === 0 ? [`Entity${i % 5}`] : []),
    links_json: i % 20 === 1 ? JSON.stringify([{ rel: 'supports', to: memctlId(i - 1) }]) : '[]',
    provenance_json: JSON.stringify({
      source_kind: file === undefined ? 'chat' : 'doc',
      source_id: file ?? '',
      chunk_ids: file === undefined ? [] : [`chunk-${i}`],
      content_hashes: [],
      created_at: pythonIso(created),
    }),
    confidence: i % 250 === 9 ? 1.7 : (i % 10) / 10,
    validation: ['unverified', 'verified', 'contested', 'retracted'][i % 4]!,
    scope: i % 5 === 0 ? 'team' : 'project',
    expires_at: i % 25 === 0 ? isoAt(created + 86400 * 90) : null,
    usage_count: i % 6,
    last_used_at: i % 6 > 0 ? pythonIso(created + 600) : null,
    created_at,
    updated_at: pythonIso(created + 60 * (i % 50)),
    rule_id: i % 30 === 0 ? `RIE-RHEL-${i}` : null,
    superseded_by: i % 60 === 59 ? memctlId(i - 1) : null,
    archived: i % 60 === 59 || i % 150 === 100 ? 1 : 0,
    content_hash: `sha256:${sha256(content)}`,
    corpus_id: file === undefined ? null : 'corp_q1',
    injectable: i % 90 === 45 ? 0 : 1,
    drafts: Array.from({ length: i % 3 }, (_, k) =>
      k === 0 && options.draftSecretsAt?.includes(i) === true ? `${content} ${plantedSecret(i + 1).text}` : `${content} (draft ${k + 1})`),
    badRevision: i % 200 === 17,
    links,
    vector: i % 5 === 0 ? Array.from({ length: 8 }, (_, k) => Math.fround(((i + k) % 13) / 13)) : undefined,
    badVector: i % 500 === 250,
    palace: i % 11 === 0 ? { domain: 'arch', room: `room-${i % 3}`, shelf: 's1', card: `card-${i}` } : undefined,
    file,
  };
}

/** A memctl database with `count` items (default 1200) at `dir/memory.db`, in WAL mode as memctl leaves it. */
export function makeMemctlDb(dir: string, options: FixtureOptions = {}): { path: string; items: MemctlItem[] } {
  const count = options.count ?? 1200;
  const path = join(dir, 'memory.db');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(MEMCTL_SCHEMA);
  const items = Array.from({ length: count }, (_, i) => memctlItem(i, count, options));
  const columns = ['id', 'tier', 'type', 'title', 'content', 'tags', 'entities', 'links_json', 'provenance_json', 'confidence',
    'validation', 'scope', 'expires_at', 'usage_count', 'last_used_at', 'created_at', 'updated_at', 'rule_id',
    'superseded_by', 'archived', 'content_hash', 'corpus_id', 'injectable'] as const;
  const insert = db.prepare(`INSERT INTO memory_items (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  const revision = db.prepare('INSERT INTO memory_revisions VALUES (?, ?, ?, ?, ?, ?)');
  const link = db.prepare('INSERT INTO memory_links VALUES (?, ?, ?, ?)');
  const embedding = db.prepare('INSERT INTO memory_embeddings VALUES (?, ?, ?, ?, ?)');
  const palace = db.prepare('INSERT INTO memory_palace_locations VALUES (?, ?, ?, ?, ?, ?)');
  const event = db.prepare('INSERT INTO memory_events VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const [n, item] of items.entries()) {
      insert.run(...columns.map((c) => item[c]));
      const snapshots = [...item.drafts, item.content];
      snapshots.forEach((content, k) => {
        const snapshot = item.badRevision && k === 0 ? '{not json' : JSON.stringify({ id: item.id, title: item.title, content, updated_at: item.updated_at });
        // Each version dated between the item's creation and its last update (the current version).
        const step = snapshots.length > 1 ? Math.floor((k * 60 * (n % 50)) / (snapshots.length - 1)) : 0;
        revision.run(`REV-${n}-${k}`, item.id, k + 1, snapshot, pythonIso(BASE_EPOCH + n * 3600 + step), k === 0 ? 'create' : 'update');
      });
      for (const l of item.links) link.run(item.id, l.to, l.rel, item.updated_at);
      if (item.vector !== undefined) {
        const blob = Buffer.from(new Float32Array(item.vector).buffer);
        embedding.run(item.id, 'nomic-embed-text', 8, item.badVector ? blob.subarray(0, 12) : blob, item.updated_at);
      }
      if (item.palace !== undefined) {
        const p = item.palace;
        palace.run(item.id, p.domain, p.room, p.shelf, p.card, item.updated_at);
      }
      event.run(`EVT-${n}-w`, 'write', item.id, '{"reason":"create"}', item.content_hash, item.created_at);
      event.run(`EVT-${n}-r`, 'read', item.id, '{}', '', item.updated_at);
    }
    const files = new Map<string, string[]>();
    for (const item of items) {
      if (item.file !== undefined) files.set(item.file, [...(files.get(item.file) ?? []), item.id]);
    }
    const corpus = db.prepare('INSERT INTO corpus_hashes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    db.prepare('INSERT INTO memory_mounts VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run('MNT-docs', '/srv/project/docs', 'docs', '[]', 'en', pythonIso(BASE_EPOCH), null);
    for (const [file, ids] of files) {
      corpus.run(file, sha256(file), ids.length, JSON.stringify(ids), pythonIso(BASE_EPOCH), 'MNT-docs', file.slice(5), '.md',
        1000 + ids.length, BASE_EPOCH - 86400, 'en');
    }
    db.prepare('INSERT INTO corpus_metadata VALUES (?, ?, ?, ?, ?, ?, ?)').run('corp_q1', 'Q1 corpus', null, files.size, 0, 'project', pythonIso(BASE_EPOCH));
    db.prepare('INSERT INTO schema_meta VALUES (?, ?), (?, ?)').run('schema_version', '2', 'created_by', 'memctl');
  })();
  db.close();
  return { path, items };
}

// ---------------------------------------------------------------------------------------------
// mcp-memory-service (SQLite-vec backend)
// ---------------------------------------------------------------------------------------------

export const MCP_TYPES = [
  'observation', 'code_edit', 'decision', 'architecture', 'learning', 'gotcha', 'error', 'bug', 'pattern', 'workflow',
  'anti_pattern', 'note', 'reference', 'todo', null, 'whimsy',
] as const;

export interface McpMemory {
  id: number;
  content: string;
  content_hash: string;
  tags: string;
  memory_type: string | null;
  metadata: string;
  created_at: number | null;
  updated_at: number;
  created_at_iso: string;
  updated_at_iso: string;
  deleted_at: number | null;
  last_accessed_at: number | null;
  /** Memory evolution (migration 011): lineage, version, confidence, last access in whole seconds. */
  parent_id: string | null;
  superseded_by: string | null;
  version: number;
  confidence: number | null;
  last_accessed: number | null;
  strength: number;
  valid_until: string | null;
  vector: number[];
  graph: { to: string; rel: string }[];
}

function mcpMemory(i: number, options: FixtureOptions): McpMemory {
  const secretsAt = options.secretsAt ?? [];
  const word = WORDS[(i * 3) % WORDS.length] ?? 'cache';
  const content = secretsAt.includes(i) ? `Session note ${i}: ${plantedSecret(i).text}` : `Session note ${i}: ${word} behaves differently under load (${sha256(`m${i}`).slice(0, 8)}).`;
  const created = BASE_EPOCH + i * 60.5;
  return {
    id: i + 1,
    content,
    content_hash: sha256(content),
    tags: i % 200 === 7 ? '{"k":1}' : [`${word},load, session-${i % 4}`, JSON.stringify(['x', `y${i % 5}`]), ''][i % 3]!,
    memory_type: MCP_TYPES[i % MCP_TYPES.length] ?? null,
    metadata: i % 150 === 3
      ? 'not json at all'
      : i % 4 === 0
        ? '{}'
        : JSON.stringify({
            source: 'claude-code',
            session: `s${i % 10}`,
            quality_score: 0.5,
            ...(options.metadataSecretsAt?.includes(i) === true ? { note: plantedSecret(i).text } : {}),
            ...(i % 4 === 1 ? { access_count: i % 7, last_accessed_at: created + 500 } : {}),
          }),
    created_at: i % 5 === 0 ? null : created,
    updated_at: created + 30,
    created_at_iso: isoAt(created),
    updated_at_iso: isoAt(created + 30),
    deleted_at: i % 100 === 99 ? created + 100 : null,
    last_accessed_at: i % 9 === 0 ? created + 900 : null,
    parent_id: null,
    superseded_by: null,
    version: 1,
    confidence: i === 777 ? 1.5 : i % 7 === 0 ? (i % 10) / 10 : null,
    last_accessed: i % 11 === 0 ? Math.floor(created) + 1200 : null,
    strength: 1 + (i % 3) / 10,
    valid_until: i % 30 === 0 ? isoAt(created + 86400 * 30) : null,
    vector: Array.from({ length: 8 }, (_, k) => Math.fround(((i * 7 + k) % 17) / 17)),
    graph: [],
  };
}

/** An mcp-memory-service database with `count` memories (default 1100) at `dir/sqlite_vec.db`. */
export function makeMcpMemoryDb(dir: string, options: FixtureOptions = {}): { path: string; memories: McpMemory[] } {
  const count = options.count ?? 1100;
  const path = join(dir, 'sqlite_vec.db');
  const db = new Database(path);
  sqliteVec.load(db);
  db.pragma('journal_mode = WAL');
  db.exec(`
    CREATE TABLE metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE memories (id INTEGER PRIMARY KEY AUTOINCREMENT, content_hash TEXT UNIQUE NOT NULL, content TEXT NOT NULL,
      tags TEXT, memory_type TEXT, metadata TEXT, created_at REAL, updated_at REAL, created_at_iso TEXT,
      updated_at_iso TEXT, deleted_at REAL DEFAULT NULL, strength REAL DEFAULT 1.0, valid_until TEXT DEFAULT NULL,
      last_accessed_at REAL DEFAULT NULL, parent_id TEXT, version INTEGER DEFAULT 1, confidence REAL DEFAULT 1.0,
      last_accessed INTEGER, superseded_by TEXT);
    CREATE VIRTUAL TABLE memory_embeddings USING vec0(content_embedding FLOAT[8] distance_metric=cosine);
    CREATE VIRTUAL TABLE memory_content_fts USING fts5(content, content='memories', content_rowid='id', tokenize='trigram');
    CREATE TABLE memory_graph (source_hash TEXT NOT NULL, target_hash TEXT NOT NULL, similarity REAL NOT NULL,
      connection_types TEXT NOT NULL DEFAULT '[]', metadata TEXT, created_at REAL NOT NULL,
      relationship_type TEXT DEFAULT 'related', PRIMARY KEY (source_hash, target_hash));
    CREATE TABLE memory_conflicts (id INTEGER PRIMARY KEY, a TEXT, b TEXT);
    INSERT INTO metadata VALUES ('distance_metric', 'cosine');
    INSERT INTO memory_conflicts (a, b) VALUES ('x', 'y'), ('y', 'z');
  `);
  const memories = Array.from({ length: count }, (_, i) => mcpMemory(i, options));
  const edge = (from: McpMemory | undefined, to: McpMemory | undefined, rel: string) => {
    if (from === undefined || to === undefined) return;
    from.graph.push({ to: to.content_hash, rel });
  };
  memories.forEach((m, i) => {
    if (i % 10 === 1) edge(m, memories[i - 1], 'supports');
    if (i % 10 === 2) {
      edge(m, memories[i - 2], 'related');
      edge(memories[i - 2], m, 'related');
    }
    if (i % 25 === 3) edge(m, memories[i - 3], 'causes');
    if (i % 100 === 98) edge(m, memories[i + 1], 'follows');
    // Memory evolution: a new version of the one before, which it supersedes; a derived memory.
    const before = memories[i - 1];
    if (i % 50 === 10 && before !== undefined) {
      m.parent_id = before.content_hash;
      m.version = 2;
      before.superseded_by = m.content_hash;
    }
    if (i % 50 === 30) m.parent_id = memories[i - 5]?.content_hash ?? null;
  });
  const insert = db.prepare(`INSERT INTO memories (id, content_hash, content, tags, memory_type, metadata, created_at, updated_at,
    created_at_iso, updated_at_iso, deleted_at, strength, valid_until, last_accessed_at, parent_id, version, confidence,
    last_accessed, superseded_by) VALUES (${Array.from({ length: 19 }, () => '?').join(', ')})`);
  const vector = db.prepare('INSERT INTO memory_embeddings (rowid, content_embedding) VALUES (?, ?)');
  const graph = db.prepare('INSERT INTO memory_graph VALUES (?, ?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const m of memories) {
      insert.run(m.id, m.content_hash, m.content, m.tags, m.memory_type, m.metadata, m.created_at, m.updated_at,
        m.created_at_iso, m.updated_at_iso, m.deleted_at, m.strength, m.valid_until, m.last_accessed_at, m.parent_id,
        m.version, m.confidence, m.last_accessed, m.superseded_by);
      vector.run(BigInt(m.id), Buffer.from(new Float32Array(m.vector).buffer));
      for (const g of m.graph) graph.run(m.content_hash, g.to, 0.8, '["semantic"]', null, m.updated_at, g.rel);
    }
  })();
  db.close();
  return { path, memories };
}

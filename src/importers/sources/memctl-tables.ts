/**
 * The side tables of a memctl / RAGIX database, read per item: revisions (`memory_revisions`,
 * full JSON snapshots), links (`memory_links` and the item's own `links_json`, plus
 * `superseded_by`), ingested files (`corpus_hashes`), vectors (`memory_embeddings`) and palace
 * locations. Each loader tolerates a missing table or column: it then returns nothing and the
 * reader reports the gap once.
 */
import type { ForeignDatabase, ForeignRow, ForeignStatement } from '../../store/store.js';
import type { SourceRevision, Unmapped } from '../source.js';
import { timestampProblem } from '../source-values.js';
import { float32Of, numberOf, parseJson, plain, text, toRfc3339 } from './sqlite-fields.js';

const has = (db: ForeignDatabase, table: string, columns: readonly string[]) => {
  const present = db.columns(table);
  return columns.every((column) => present.includes(column));
};

/** Revisions of one item, oldest first, without the last one when it is the current state. */
export function revisionReader(db: ForeignDatabase) {
  if (!has(db, 'memory_revisions', ['item_id', 'snapshot'])) return undefined;
  const order = db.columns('memory_revisions').includes('revision_num') ? 'revision_num' : 'rowid';
  const statement = db.prepare(`SELECT * FROM memory_revisions WHERE item_id = ? ORDER BY ${order}`);
  type Current = { content: string; title?: string; updated_at?: string };
  return (id: string, current: Current, notes: Unmapped[]): SourceRevision[] => {
    const revisions: SourceRevision[] = [];
    const numbers = new Map<SourceRevision, string>();
    for (const row of statement.all(id)) {
      const snapshot = parseJson(row.snapshot) as Record<string, unknown> | undefined;
      const content = typeof snapshot?.content === 'string' ? snapshot.content : undefined;
      const changedAt = toRfc3339(row.changed_at) ?? toRfc3339(snapshot?.updated_at);
      const which = `revision ${String(plain(row.revision_num) ?? plain(row.revision_id) ?? '?')}`;
      if (content === undefined || changedAt === undefined) {
        const date = row.changed_at ?? snapshot?.updated_at;
        const why = content === undefined ? 'no readable snapshot' : `no date engram accepts (${timestampProblem(plain(date))})`;
        notes.push({ where: id, field: 'memory_revisions', reason: `${which} has ${why}; left out` });
        continue;
      }
      const revision: SourceRevision = { content, changed_at: changedAt };
      const title = text(snapshot?.title);
      if (title !== undefined) revision.title = title;
      const reason = text(row.reason);
      if (reason !== undefined) revision.reason = reason;
      revisions.push(revision);
      numbers.set(revision, which);
    }
    const last = revisions.at(-1);
    if (last !== undefined && last.content === current.content && (last.title ?? '') === (current.title ?? '')) {
      revisions.pop();
    }
    // A past version cannot be newer than the current one: it is dated as the current, and said.
    const until = current.updated_at ?? '9999';
    for (const revision of revisions.filter((r) => r.changed_at > until)) {
      const reason = `${numbers.get(revision) ?? 'a revision'} is dated ${revision.changed_at}, after the item's updated_at ${until}; dated as the item`;
      notes.push({ where: id, field: 'memory_revisions', reason });
      revision.changed_at = until;
    }
    return revisions;
  };
}

/** Outgoing links per item id: `memory_links`, every item's `links_json`, and `superseded_by`. */
export function loadLinks(db: ForeignDatabase, columns: readonly string[]): Map<string, { to: string; rel: string }[]> {
  const links = new Map<string, { to: string; rel: string }[]>();
  const add = (from: string, to: string, rel: string) => {
    const list = links.get(from) ?? [];
    if (!list.some((l) => l.to === to && l.rel === rel)) list.push({ to, rel });
    links.set(from, list);
  };
  if (has(db, 'memory_links', ['src_id', 'dst_id'])) {
    const relColumn = db.columns('memory_links').includes('rel') ? 'rel' : '\'related\'';
    for (const row of db.prepare(`SELECT src_id, dst_id, ${relColumn} AS rel FROM memory_links`).iterate()) {
      const from = text(row.src_id);
      const to = text(row.dst_id);
      if (from !== undefined && to !== undefined) add(from, to, text(row.rel) ?? 'related');
    }
  }
  const inline = ['links_json', 'superseded_by'].filter((c) => columns.includes(c));
  if (inline.length > 0) {
    for (const row of db.prepare(`SELECT id, ${inline.join(', ')} FROM memory_items`).iterate()) {
      const id = text(row.id);
      if (id === undefined) continue;
      const parsed = parseJson(row.links_json);
      for (const link of Array.isArray(parsed) ? parsed : []) {
        const entry = link as { to?: unknown; rel?: unknown };
        const to = text(entry.to);
        if (to !== undefined) add(id, to, text(entry.rel) ?? 'related');
      }
      // B superseded_by A: A supersedes B.
      const newer = text(row.superseded_by);
      if (newer !== undefined) add(newer, id, 'supersedes');
    }
  }
  return links;
}

/** Mounted folders (`memory_mounts`, memctl 0.3) by mount id: their path and name. */
function loadMounts(db: ForeignDatabase): Map<string, Record<string, unknown>> {
  const mounts = new Map<string, Record<string, unknown>>();
  if (!has(db, 'memory_mounts', ['mount_id', 'path'])) return mounts;
  for (const row of db.prepare('SELECT * FROM memory_mounts').iterate()) {
    const id = text(row.mount_id);
    if (id === undefined) continue;
    const mount: Record<string, unknown> = { path: text(row.path) };
    if (text(row.name) !== undefined) mount.name = text(row.name);
    mounts.set(id, mount);
  }
  return mounts;
}

/**
 * The ingested file of each chunk item (`corpus_hashes.item_ids`): path, hash, date, and from
 * memctl 0.3 on its mount (folder), relative path, extension, size, mtime and language hint.
 */
export function loadCorpus(db: ForeignDatabase): Map<string, Record<string, unknown>> {
  const files = new Map<string, Record<string, unknown>>();
  if (!has(db, 'corpus_hashes', ['file_path', 'item_ids'])) return files;
  const mounts = loadMounts(db);
  for (const row of db.prepare('SELECT * FROM corpus_hashes').iterate()) {
    const ids = parseJson(row.item_ids);
    const file: Record<string, unknown> = { path: text(row.file_path) };
    for (const [column, value] of Object.entries(row)) {
      if (['file_path', 'item_ids', 'chunk_count', 'mount_id'].includes(column)) continue;
      const kept = column === 'ingested_at' ? toRfc3339(value) : column === 'mtime_epoch' ? undefined : plain(value);
      if (kept !== undefined && kept !== null && kept !== '') file[column] = kept;
    }
    const mtime = toRfc3339(row.mtime_epoch);
    if (mtime !== undefined) file.mtime = mtime;
    const mount = mounts.get(text(row.mount_id) ?? '');
    if (mount !== undefined) file.mount = mount;
    for (const id of Array.isArray(ids) ? ids : []) if (typeof id === 'string') files.set(id, file);
  }
  return files;
}

/** Corpus labels (`corpus_metadata`) by corpus id. */
export function loadCorpusLabels(db: ForeignDatabase): Map<string, string> {
  const labels = new Map<string, string>();
  if (!has(db, 'corpus_metadata', ['corpus_id', 'corpus_label'])) return labels;
  for (const row of db.prepare('SELECT corpus_id, corpus_label FROM corpus_metadata').iterate()) {
    const id = text(row.corpus_id);
    const label = text(row.corpus_label);
    if (id !== undefined && label !== undefined) labels.set(id, label);
  }
  return labels;
}

/** One statement per item for a table keyed by `item_id`, or undefined when it is absent. */
function byItem(db: ForeignDatabase, table: string, columns: readonly string[]): ForeignStatement | undefined {
  return has(db, table, ['item_id', ...columns]) ? db.prepare(`SELECT * FROM ${table} WHERE item_id = ?`) : undefined;
}

/** The item's stored vector (float32 BLOB) and its model, when `memory_embeddings` holds one. */
export function embeddingReader(db: ForeignDatabase) {
  const statement = byItem(db, 'memory_embeddings', ['vector']);
  if (statement === undefined) return undefined;
  return (id: string, notes: Unmapped[]): { vector: Float32Array; model?: string } | undefined => {
    const row = statement.get(id);
    if (row === undefined) return undefined;
    const vector = float32Of(row.vector, numberOf(row.dimension));
    if (vector === undefined) {
      notes.push({ where: id, field: 'memory_embeddings', reason: 'vector length does not match its dimension; left out' });
      return undefined;
    }
    const model = text(row.model_name);
    return model === undefined ? { vector } : { vector, model };
  };
}

/** The item's palace location (RAGIX), without the key. */
export function palaceReader(db: ForeignDatabase) {
  const statement = byItem(db, 'memory_palace_locations', []);
  if (statement === undefined) return undefined;
  return (id: string): Record<string, unknown> | undefined => {
    const row: ForeignRow | undefined = statement.get(id);
    if (row === undefined) return undefined;
    const location: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row)) {
      if (key === 'item_id') continue;
      const kept = key.endsWith('_at') ? (toRfc3339(value) ?? plain(value)) : plain(value);
      if (kept !== undefined && kept !== null && kept !== '') location[key] = kept;
    }
    return location;
  };
}

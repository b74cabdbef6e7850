/**
 * The writes of one ingested file, each in its caller's transaction: its new chunks (an identical
 * chunk already stored in the scope is reused), the archiving of its old ones (linked `supersedes`
 * from the new chunks covering their lines) and its SHA-256 record; and the smaller changes an
 * unchanged file can still bring (its root, chunks made injectable, tags its chunks lack).
 */
import { isEngramError } from '../errors.js';
import { admitWrite, rejectedRules } from '../items/admission.js';
import { nextVersion } from '../items/build-item.js';
import type { WriteAccess } from '../items/writer.js';
import type { CorpusFile } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import type { Planned } from './plan-chunks.js';
import type { FileReport } from './report.js';

/** Where a file's chunks are recorded: the store and writer, the corpus and the scope. */
export interface CorpusTarget extends WriteAccess {
  corpus: string;
  scope: string;
}

/** What the corpus record of a written file says besides its chunks. */
export interface FileRecord {
  key: string;
  fileHash: string;
  size: number;
  root: string | null;
  refused: number;
}

function overlaps(a: { line_start: number; line_end: number }, b: Record<string, unknown> | null): boolean {
  const start = Number(b?.line_start);
  const end = Number(b?.line_end);
  return Number.isFinite(start) && Number.isFinite(end) && a.line_start <= end && start <= a.line_end;
}

/** Writes a file's planned chunks in place of `oldIds`, and its record; returns the chunk ids. */
export async function writeFile(
  { store, writer, corpus, scope }: CorpusTarget,
  { key, fileHash, size, root, refused }: FileRecord,
  planned: readonly Planned[],
  oldIds: readonly string[],
  at: string,
): Promise<{ ids: string[]; counts: Pick<FileReport, 'deduplicated' | 'archived'> }> {
  // Old chunks go first, so that the new ones carry this version's provenance.
  const archived: MemoryItem[] = [];
  for (const id of new Set(oldIds)) {
    const old = await store.items.get(id);
    if (old === undefined || old.archived || await store.corpus.isChunkShared(id, corpus, key)) continue;
    await writer.archive(old, at, 'archive', { reason: 'superseded by re-ingest', source: old.source });
    archived.push(old);
  }
  const ids: string[] = [];
  let deduplicated = 0;
  const supersede = (src: string, dst: string) =>
    writer.link({ src_id: src, dst_id: dst, type: 'supersedes', created_at: at }, { recorded: false });
  for (const { item, chunk, rules } of planned) {
    const existing = await store.items.findByContentHash(item.content_hash, item.scope);
    if (existing !== undefined) {
      ids.push(existing.id);
      deduplicated++;
      continue;
    }
    await writer.insert(item, 'ingest', { source: item.source, ...rules });
    ids.push(item.id);
    for (const old of archived) {
      if (overlaps(chunk, old.provenance)) await supersede(item.id, old.id);
    }
  }
  // An old chunk that no new range overlaps (the file shrank) is superseded by the last new chunk.
  const last = ids[ids.length - 1];
  for (const old of archived) {
    const linked = planned.some((p) => overlaps(p.chunk, old.provenance));
    if (!linked && last !== undefined && last !== old.id) await supersede(last, old.id);
  }
  await store.corpus.put({
    corpus_id: corpus,
    path: key,
    sha256: fileHash,
    size_bytes: size,
    ingested_at: at,
    item_ids: ids,
    root,
    scope,
    refused,
  });
  return { ids, counts: { deduplicated, archived: archived.length } };
}

/**
 * An unchanged file found by walking `root` belongs to it from now on (so does a file recorded
 * before roots were kept, with the scope its chunks are in): a later re-ingest of `root` prunes it.
 */
export async function adopt({ store, corpus, scope }: CorpusTarget, record: CorpusFile, root: string): Promise<void> {
  if (record.root === root && record.scope !== null) return;
  const first = record.item_ids[0] === undefined ? undefined : await store.items.get(record.item_ids[0]);
  const recordScope = record.scope ?? first?.scope ?? scope;
  await store.transaction((tx) => tx.corpus.setRoot(corpus, record.path, root, recordScope));
}

/** True when `ids` are live items holding exactly the planned chunks, in order. */
export async function sameChunks(
  { store }: WriteAccess,
  ids: readonly string[],
  planned: readonly Planned[],
): Promise<boolean> {
  if (ids.length !== planned.length) return false;
  for (const [i, id] of ids.entries()) {
    const item = await store.items.get(id);
    if (item === undefined || item.archived || item.content_hash !== planned[i]?.item.content_hash) return false;
  }
  return true;
}

/** `push --source` wants its chunks in recall: an unchanged file's chunks become injectable. */
export async function makeInjectable(
  { store, writer }: WriteAccess,
  ids: readonly string[],
  file: FileReport,
  at: () => string,
): Promise<void> {
  const changed = await store.transaction(async () => {
    let count = 0;
    const now = at();
    for (const id of new Set(ids)) {
      const item = await store.items.get(id);
      if (item === undefined || item.injectable || item.quarantined || item.archived) continue;
      const reason = 'made injectable by push --source';
      await writer.amend(nextVersion(item, { ...item, injectable: true }, now), 'update', { reason });
      count++;
    }
    return count;
  });
  if (changed > 0) file.note = `${changed} chunk${changed === 1 ? '' : 's'} made injectable`;
}

/** What retagging an unchanged file's chunks needs besides the store: the tags, the actor, the clock. */
export interface Retag {
  tags: readonly string[];
  actor: string | null;
  now: () => string;
  admit?: Parameters<typeof admitWrite>[2];
  /** Count the chunks that would be retagged, write nothing. */
  dryRun?: boolean;
}

/**
 * `ingest --tags` (and `push --source --tags`) on an unchanged file: its live chunks that lack one
 * of the tags get them, as a new version admitted by the policy like any write. Returns how many
 * chunks were retagged; a refused tag leaves the chunks as they were and says so in `file.reason`.
 */
export async function retag(
  { store, writer }: WriteAccess,
  ids: readonly string[],
  file: FileReport,
  { tags, actor, now, admit, dryRun }: Retag,
): Promise<number> {
  const wanted = [...new Set(tags.map((t) => t.trim().toLowerCase()).filter((t) => t !== ''))];
  if (wanted.length === 0) return 0;
  const at = now();
  const changes: MemoryItem[] = [];
  for (const id of new Set(ids)) {
    const item = await store.items.get(id);
    if (item === undefined || item.archived || wanted.every((t) => item.tags.includes(t))) continue;
    const tagged = [...item.tags, ...wanted.filter((t) => !item.tags.includes(t))];
    const next = nextVersion(item, { ...item, tags: tagged }, at);
    try {
      changes.push(admitWrite(next, { operation: 'ingest', actor, now: at }, admit).item);
    } catch (error) {
      if (!isEngramError(error)) throw error;
      file.reason = `tags not added (${(rejectedRules(error) ?? [error.code]).join(', ')})`;
      return 0;
    }
  }
  if (changes.length === 0 || dryRun === true) return changes.length;
  await writer.prepare(...changes);
  await store.transaction(async () => {
    for (const item of changes) await writer.update(item, 'update', { reason: `tagged ${wanted.join(',')} by ingest --tags` });
  });
  file.note = [file.note, `${changes.length} chunk${changes.length === 1 ? '' : 's'} tagged ${wanted.join(',')}`]
    .filter((x) => x !== undefined)
    .join('; ');
  return changes.length;
}

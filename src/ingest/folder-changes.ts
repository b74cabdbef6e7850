/**
 * What changed in a synced folder since its last sync, from the file system's metadata alone (no
 * file is read): files not recorded yet and modified since (`added`), recorded files modified
 * since or of another size (`changed`), recorded files gone (`removed`). A file the last sync
 * skipped (empty, binary) is not recorded and not counted until it is modified again. The same
 * walk as the sync (globs, `.gitignore`, dotfiles skipped), so it counts what a sync would look at.
 */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Store } from '../store/store.js';
import type { SyncedFolder } from '../types.js';
import { isGone } from './prune.js';
import { resolveSources } from './sources.js';

/** How far a folder is behind the store. */
export interface FolderChanges {
  /** Files the walk found. */
  files: number;
  added: number;
  changed: number;
  removed: number;
  /** False when the folder is not there (nothing is counted as removed then). */
  present: boolean;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Counts the files of `folder` added, changed and removed since its last sync.
 *
 * @example
 * const { added, changed, removed } = await folderChanges(store, folder);
 */
export async function folderChanges(store: Store, folder: SyncedFolder): Promise<FolderChanges> {
  if (!isDirectory(folder.path)) return { files: 0, added: 0, changed: 0, removed: 0, present: false };
  const since = folder.synced_at === null ? -Infinity : Date.parse(folder.synced_at);
  const { entries } = resolveSources([folder.path], {
    cwd: dirname(folder.path),
    include: folder.include,
    exclude: folder.exclude,
  });
  const records = await store.corpus.listUnder(folder.corpus_id, folder.path, folder.scope);
  const recorded = new Map(records.map((f) => [f.path, f]));
  const counts = { files: 0, added: 0, changed: 0, removed: 0, present: true };
  const seen = new Set<string>();
  for (const entry of entries) {
    if (entry.kind !== 'file') continue;
    counts.files++;
    seen.add(entry.path);
    const record = recorded.get(entry.path);
    if (record === undefined) {
      if (entry.mtimeMs > since) counts.added++;
      continue;
    }
    // Before the first sync, a file ingested earlier is behind when modified after that ingest.
    const after = folder.synced_at === null ? Date.parse(record.ingested_at) : since;
    if (entry.mtimeMs > after || record.size_bytes !== entry.size) counts.changed++;
  }
  for (const path of recorded.keys()) if (!seen.has(path) && isGone(path)) counts.removed++;
  return counts;
}

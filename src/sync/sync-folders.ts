/**
 * `sync`: each synced folder re-ingested as a directory, which is incremental by construction —
 * an unchanged file (same SHA-256) writes nothing, a changed one has its chunks replaced (the old
 * ones archived, linked `supersedes`), a new one is ingested, and the chunks of a file gone are
 * archived (a chunk another file still lists stays). Files gone are pruned first, so a renamed
 * file is a removal and an addition: its chunks are stored again under its new path, the old ones
 * archived with their history. Nothing is deleted.
 *
 * Paths are shown relative to the folder's parent (`docs/guide.md`) wherever the sync runs from,
 * so a chunk says the same source whichever directory `engram sync` was started in.
 */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { OperationContext } from '../context.js';
import { type IngestProgress, type IngestReport, ingestSources } from '../ingest/ingest.js';
import type { SyncedFolder } from '../types.js';
import { requireFolder } from './folders.js';

/** One folder's sync: its ingest report (`missing` when the directory is not there: nothing pruned). */
export interface FolderSync {
  name: string;
  path: string;
  missing: boolean;
  report: IngestReport;
}

export interface SyncReport {
  folders: FolderSync[];
  /** The folders' ingest totals added up. */
  totals: IngestReport['totals'];
}

export interface SyncOptions {
  /** The folders to sync (default: every one). */
  names?: readonly string[];
  onProgress?: (progress: IngestProgress & { folder: string }) => void;
}

function emptyTotals(): IngestReport['totals'] {
  return {
    files: 0, ingested: 0, unchanged: 0, retagged: 0, partial: 0, removed: 0, skipped: 0, failed: 0,
    chunks: 0, bytes: 0,
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The folders called `names` (NOT_FOUND for an unknown one), or every folder. */
export async function selectFolders(ctx: OperationContext, names?: readonly string[]): Promise<SyncedFolder[]> {
  if (names === undefined || names.length === 0) return ctx.store.folders.list();
  return Promise.all([...new Set(names)].map((name) => requireFolder(ctx, name)));
}

/**
 * Brings the store in step with the folders: each one ingested as a directory with its own options
 * and pruned, then marked synced at the time its sync began. A folder that is not there is
 * reported (`missing`, its files left as they are) and not marked.
 *
 * @example
 * const { totals } = await syncFolders(ctx, { names: ['docs'] });
 */
export async function syncFolders(ctx: OperationContext, options: SyncOptions = {}): Promise<SyncReport> {
  const folders = await selectFolders(ctx, options.names);
  const result: SyncReport = { folders: [], totals: emptyTotals() };
  for (const folder of folders) {
    const at = ctx.now();
    const missing = !isDirectory(folder.path);
    const report = await ingestSources(
      {
        sources: [folder.path],
        cwd: dirname(folder.path),
        include: folder.include,
        exclude: folder.exclude,
        tags: folder.tags,
        format: folder.format,
        scope: folder.scope,
        ...(folder.corpus_id === '' ? {} : { corpus: folder.corpus_id }),
        pruneFirst: true,
        onProgress: options.onProgress && ((p) => options.onProgress?.({ ...p, folder: folder.name })),
      },
      { store: ctx.store, writer: ctx.writer, actor: ctx.actor, now: ctx.now, admit: ctx.admit },
    );
    if (!missing) {
      await ctx.store.transaction(async (tx) => {
        // Removed or re-registered while the sync ran: what is stored now wins.
        const current = await tx.folders.get(folder.name);
        if (current?.path === folder.path) await tx.folders.put({ ...current, synced_at: at });
      });
    }
    result.folders.push({ name: folder.name, path: folder.path, missing, report });
    for (const key of Object.keys(result.totals) as (keyof IngestReport['totals'])[]) result.totals[key] += report.totals[key];
  }
  return result;
}

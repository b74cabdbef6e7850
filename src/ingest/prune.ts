/**
 * The other half of re-ingesting a directory: files an earlier ingest of that same directory
 * (corpus and scope) recorded and that are gone from disk have their chunks archived — a new
 * version and an `archive` event each, one transaction per file — and their record forgotten, so
 * a file that comes back is ingested anew. A chunk another file shares stays; a file that still
 * exists (now excluded by a glob or `.gitignore`) is not gone.
 */
import { statSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { ItemWriter } from '../items/writer.js';
import type { CorpusFile, Store } from '../store/store.js';
import type { FileReport } from './ingest.js';

export interface PruneOptions {
  store: Store;
  writer: ItemWriter;
  now: () => string;
  cwd: string;
  corpus: string;
  scope: string;
  /** The directories named as sources (absolute). */
  roots: readonly string[];
  /** Files this run found (absolute paths): never gone. */
  present: ReadonlySet<string>;
  dryRun: boolean;
}

/** True when nothing is at `path` any more (a permission error is not "gone"). */
export function isGone(path: string): boolean {
  try {
    return !statSync(path).isFile();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** Archives the chunks of the files gone from `roots`; one `removed` report per file. */
export async function pruneRemoved(options: PruneOptions): Promise<FileReport[]> {
  const { store, writer, corpus, dryRun } = options;
  const archive = async (gone: CorpusFile) => {
    let count = 0;
    const at = options.now();
    for (const id of new Set(gone.item_ids)) {
      const old = await store.items.get(id);
      if (old === undefined || old.archived || await store.corpus.isChunkShared(id, corpus, gone.path)) continue;
      count++;
      if (dryRun) continue;
      await writer.archive(old, at, 'archive', { reason: 'source file removed', source: old.source });
    }
    if (!dryRun) await store.corpus.remove(corpus, gone.path);
    return count;
  };
  const reports: FileReport[] = [];
  for (const root of options.roots) {
    for (const gone of await store.corpus.listUnder(corpus, root, options.scope)) {
      if (options.present.has(gone.path) || !gone.path.startsWith(root + sep) || !isGone(gone.path)) continue;
      reports.push({
        path: toPosix(relative(options.cwd, gone.path)),
        status: 'removed',
        chunks: 0,
        deduplicated: 0,
        archived: dryRun ? await archive(gone) : await store.transaction(() => archive(gone)),
        bytes: 0,
      });
    }
  }
  return reports;
}

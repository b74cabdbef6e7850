/** Text views of `engram sync` (each folder's ingest report), `sync --watch` and the folder listings. */
import type { FolderState, IngestReport, SyncReport } from '../../engram.js';
import type { SyncedFolder } from '../../types.js';
import { ingestView } from './ingest.js';
import type { Palette } from './palette.js';
import { age } from './status.js';

/** What `sync --watch` did between its start and the signal that stopped it. */
export interface WatchSummary {
  watched: string[];
  runs: number;
  totals: IngestReport['totals'];
}

/** `sync add`, `sync list`, `sync remove`: the folders, with their lag when listed. */
export interface FoldersView {
  folders: (SyncedFolder | FolderState)[];
  created?: boolean;
  removed?: true;
}

export function syncView(d: SyncReport, p: Palette): string {
  if (d.folders.length === 0) return p.dim('no folder is synced yet');
  return d.folders
    .map((f) => `${p.bold(f.name)} ${p.dim(f.path)}${f.missing ? `\n${p.red('missing')}   folder not found; nothing changed` : ''}\n${ingestView(f.report, p)}`)
    .join('\n\n');
}

export function watchView(d: WatchSummary, p: Palette): string {
  const t = d.totals;
  return `watched ${d.watched.join(', ')}: ${d.runs} sync${d.runs === 1 ? '' : 's'}; ${p.dim(`${t.ingested} ingested, ${t.removed} removed, ${t.failed} failed`)}`;
}

/** `docs  /abs/docs  synced 5 min ago · 2 added, 1 changed, 0 removed`. */
export function folderLine(f: SyncedFolder | FolderState, p: Palette, now = new Date().toISOString()): string {
  const synced = f.synced_at === null ? p.yellow('never synced') : `synced ${age(f.synced_at, now)}`;
  const options = [
    f.include.length > 0 ? `include ${f.include.join(',')}` : '',
    f.exclude.length > 0 ? `exclude ${f.exclude.join(',')}` : '',
    f.scope === 'project' ? '' : `scope ${f.scope}`,
    f.corpus_id === '' ? '' : `corpus ${f.corpus_id}`,
  ].filter((x) => x !== '');
  let lag = '';
  if ('changes' in f) {
    const c = f.changes;
    const behind = c.added + c.changed + c.removed > 0;
    lag = c.present
      ? ` · ${(behind ? p.yellow : p.dim)(`${c.added} added, ${c.changed} changed, ${c.removed} removed since`)}`
      : ` · ${p.red('folder not found')}`;
  }
  return `${p.bold(f.name)}  ${f.path}  ${synced}${lag}${options.length > 0 ? `  ${p.dim(options.join('; '))}` : ''}`;
}

export function foldersView(d: FoldersView, p: Palette): string {
  if (d.folders.length === 0) return p.dim('no folder is synced yet: engram sync add PATH');
  const verb = d.removed ? 'removed ' : d.created === true ? 'added ' : d.created === false ? 'updated ' : '';
  return d.folders.map((f) => `${verb}${folderLine(f, p)}`).join('\n');
}

/** Text views of `engram ingest` (a line per file, then the totals) and `engram pull` (a line per proposal). */
import type { IngestReport, PullEntry, PullResult } from '../../engram.js';
import type { FileReport } from '../../ingest/ingest.js';
import type { Paint, Palette } from './palette.js';
import { plural } from '../plural.js';

function fileLine(f: FileReport, p: Palette): string {
  const mark: Record<string, Paint> = {
    failed: p.red, partial: p.red, skipped: p.yellow, unchanged: p.dim,
  };
  const detail = [
    f.chunks > 0 ? plural(f.chunks, 'chunk') : '',
    f.status === 'removed' ? `${plural(f.archived, 'chunk')} archived` : '',
    f.reason ?? '',
    f.note ?? '',
  ]
    .filter((x) => x !== '')
    .join('; ');
  return `${(mark[f.status] ?? String)(f.status.padEnd(9))} ${f.path}${detail ? `  ${p.dim(detail)}` : ''}`;
}

export function ingestView(d: IngestReport, p: Palette): string {
  const t = d.totals;
  const lines = d.files.map((f) => fileLine(f, p));
  const more = `${t.retagged ? `, ${t.retagged} retagged` : ''}${t.partial ? `, ${t.partial} partial` : ''}${t.removed ? `, ${t.removed} removed` : ''}`;
  const summary = `${d.dry_run ? 'dry run: ' : ''}${plural(t.files, 'file')}: ${t.ingested} ingested, ${t.unchanged} unchanged${more}, ${t.skipped} skipped, ${t.failed} failed; ${plural(t.chunks, 'chunk')}, ${plural(t.bytes, 'byte')}`;
  return [...lines, p.bold(summary)].join('\n');
}

export function pullView(d: PullResult, p: Palette): string {
  const note = (i: PullEntry) => (i.reason ? `  ${p.dim(i.reason)}` : i.deduplicated ? `  ${p.dim('(already stored: reinforced)')}` : '');
  return [
    ...d.items.map((i) => `${i.status.padEnd(11)} ${i.id ? p.id(i.id) : '-'.padEnd(16)}  ${i.title || p.dim('(untitled)')}${note(i)}`),
    p.dim(`${d.proposals} proposal(s) as ${d.format}: ${d.stored} stored, ${d.quarantined} quarantined, ${d.rejected} rejected`),
  ].join('\n');
}

/** Text view of `engram status`: one screen, a labelled line per concern. */
import type { StatusReport } from '../../engram.js';
import type { Palette } from './palette.js';

const MINUTE = 60_000;

/** How long before `now` `at` was, for people: `just now`, `5 min ago`, `3 h ago`, `2 days ago`. */
export function age(at: string, now: string): string {
  const ms = Date.parse(now) - Date.parse(at);
  if (!Number.isFinite(ms)) return at;
  if (ms < MINUTE) return 'just now';
  if (ms < 60 * MINUTE) return `${Math.floor(ms / MINUTE)} min ago`;
  if (ms < 48 * 60 * MINUTE) return `${Math.floor(ms / (60 * MINUTE))} h ago`;
  return `${Math.floor(ms / (24 * 60 * MINUTE))} days ago`;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const counts = (by: Record<string, number>) => Object.entries(by).map(([k, n]) => `${k} ${n}`).join(' · ') || '-';

export function statusView(d: StatusReport, p: Palette): string {
  const label = (name: string) => p.dim(name.padEnd(14));
  const r = d.review;
  const waiting = r.quarantined + r.contradicted + r.possible_contradictions;
  const possible = `${r.possible_contradictions}${r.possible_contradictions_capped ? '+' : ''} possible contradictions`;
  const lines = [
    `${label('store')}${d.store.path} (${size(d.store.size_bytes)}, schema ${d.store.schema_version})`,
    `${label('items')}${d.items.active} active, ${d.items.archived} archived`,
    `${label('  by tier')}${counts(d.items.by_tier)}`,
    `${label('  by type')}${counts(d.items.by_type)}`,
    `${label('review')}${(waiting > 0 ? p.yellow : String)(`${r.quarantined} quarantined · ${r.contradicted} contradicted · ${possible}`)}${waiting > 0 ? p.dim('  (engram review)') : ''}`,
  ];
  const v = d.vectors;
  if (v !== null && (v.model !== null || v.embedder !== null)) {
    const model = v.model ?? v.embedder ?? '';
    lines.push(`${label('vectors')}${v.vectors} stored, ${(v.pending > 0 ? p.yellow : String)(`${v.pending} pending`)} (${model})${v.pending > 0 ? p.dim('  (engram embed)') : ''}`);
  }
  lines.push(`${label('consolidated')}${d.last_consolidation === null ? 'never' : `${d.last_consolidation} (${age(d.last_consolidation, d.at)})`}`);
  if (d.folders.length === 0) lines.push(`${label('folders')}${p.dim('none (engram sync add PATH)')}`);
  for (const [i, f] of d.folders.entries()) {
    const c = f.changes;
    const synced = f.synced_at === null ? p.yellow('never synced') : `synced ${age(f.synced_at, d.at)}`;
    const behind = c.added + c.changed + c.removed;
    const lag = !c.present
      ? p.red('folder not found')
      : (behind > 0 ? p.yellow : p.dim)(`${c.added} added, ${c.changed} changed, ${c.removed} removed since`);
    lines.push(`${label(i === 0 ? 'folders' : '')}${p.bold(f.name)} ${f.path}  ${synced} · ${lag}`);
  }
  if (d.clients !== undefined) {
    const wired = d.clients.filter((c) => c.wired);
    const other = d.clients.filter((c) => !c.wired);
    const name = (c: (typeof d.clients)[number]) => `${c.client} (${c.scope}${c.problem ? `: ${c.problem}` : ''})`;
    lines.push(`${label('clients')}${wired.length === 0 ? p.yellow('none wired') : wired.map(name).join(', ')}`);
    if (other.length > 0) lines.push(`${label('')}${p.dim(`not wired: ${other.map(name).join(', ')}`)}`);
  }
  return lines.join('\n');
}

/** Text views of the store's reports: stats and reindex, import, doctor, workspaces. */
import type { DoctorReport, EmbedResult, ImportReport, ReindexResult } from '../../engram.js';
import type { StoreStats, Workspace } from '../../types.js';
import { keyValues } from './key-values.js';
import type { Palette } from './palette.js';

/** `engram workspace …`: the workspaces listed, or the one added (`created`) or removed. */
export interface WorkspacesView {
  workspaces: Workspace[];
  /** True when `add` registered it, false when it updated it; absent for a listing. */
  created?: boolean;
  removed?: true;
}

export function statsView(d: StoreStats | ReindexResult, p: Palette): string {
  return keyValues(d, p);
}

export function importView(d: ImportReport, p: Palette): string {
  const lines = d.errors.map((e) => `${p.red(`line ${e.line}`)} ${e.error}: ${e.message}`);
  return [keyValues(d, p), ...lines].join('\n');
}

export function doctorView(d: DoctorReport, p: Palette): string {
  const hashes = d.content_hashes;
  const lines = [
    `${p.dim('schema version'.padEnd(16))}${d.schema_version}`,
    `${p.dim('full text'.padEnd(16))}${d.full_text ? 'FTS5' : 'unavailable (LIKE)'}`,
    `${p.dim('tokenizer'.padEnd(16))}${d.fts_tokenizer ?? 'unknown'}`,
    `${p.dim('items / indexed'.padEnd(16))}${d.items} / ${d.indexed}`,
    `${p.dim('integrity'.padEnd(16))}${d.integrity.join('; ')}`,
    `${p.dim('content hashes'.padEnd(16))}${hashes.checked} checked, ${hashes.mismatched.length} mismatched`,
  ];
  const v = d.vectors;
  // Shown once vectors are in use: a store that has never had an embedder stays as it was.
  if (v !== undefined && (v.model !== null || v.embedder !== null)) {
    const model = v.model === null ? 'no model yet' : `${v.model} (${v.dimensions} dimensions)`;
    lines.push(`${p.dim('vectors'.padEnd(16))}${v.vectors} stored, ${v.pending} pending, ${model}`);
  }
  const e = d.embedder;
  if (e !== undefined) {
    const dims = e.dimensions === null ? '' : ` (${e.dimensions} dimensions)`;
    const why = e.error === undefined ? '' : `: ${e.error}`;
    lines.push(`${p.dim('embedder'.padEnd(16))}${e.id}${dims}, ${e.status === 'mismatch' || e.status === 'invalid' ? p.red(e.status) : e.status}${why}`);
  }
  const verdict = d.problems.length === 0 ? 'ok' : d.problems.map((m) => `${p.red('problem')} ${m}`).join('\n');
  return `${lines.join('\n')}\n${verdict}`;
}

export function embedView(d: EmbedResult, p: Palette): string {
  const done = `${d.rebuilt ? 'rebuilt: ' : ''}${d.embedded} embedded with ${d.embedder}`;
  const dims = d.dimensions === null ? '' : ` (${d.dimensions} dimensions)`;
  return [`${done}${dims}`, `${p.dim('vectors'.padEnd(16))}${d.vectors}`, `${p.dim('pending'.padEnd(16))}${d.pending}`].join('\n');
}

export function workspacesView(d: WorkspacesView, p: Palette): string {
  const verb = d.removed ? 'removed ' : d.created === true ? 'created ' : d.created === false ? 'updated ' : '';
  return d.workspaces
    .map((w) => `${verb}${p.bold(w.name)}  scope=${w.scope}${w.corpus_id ? ` corpus=${w.corpus_id}` : ''}${w.description ? `  ${p.dim(w.description)}` : ''}`)
    .join('\n');
}

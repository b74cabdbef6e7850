/** Text views of `engram setup` / `engram teardown` (the files touched) and `engram setup --list`. */
import type { FileReport } from '../../setup/apply.js';
import type { ClientStatus } from '../../setup/detect.js';
import type { Palette } from './palette.js';

/** What setup or teardown did (or, with --dry-run, would do). */
export interface SetupResult {
  action: 'setup' | 'teardown';
  client: string;
  scope: string;
  dry_run: boolean;
  /** True when a file was (or would be) written, created or removed. */
  changed: boolean;
  files: FileReport[];
  notes: string[];
  /** The unified diff of every change ('' when none). */
  diff: string;
}

export interface ClientsView {
  clients: ClientStatus[];
}

export function setupView(d: SetupResult, p: Palette): string {
  const done = d.action === 'setup' ? 'Set up' : 'Tore down';
  const head = d.changed
    ? `${d.dry_run ? `Would ${d.action === 'setup' ? 'set up' : 'tear down'}` : done} ${p.bold(d.client)} (${d.scope})`
    : `${p.bold(d.client)} (${d.scope}): nothing to change`;
  const files = d.files.map((f) => {
    const backup = f.backup === undefined ? '' : `; backup ${d.action === 'setup' ? '' : 'removed '}${f.backup}`;
    return `  ${p.dim(f.action.padEnd(9))} ${f.path} (${f.parts.join(', ')}${backup})`;
  });
  const notes = d.notes.map((n) => p.dim(`  note: ${n}`));
  return [head, ...files, ...notes].join('\n');
}

export function clientsView(d: ClientsView, p: Palette): string {
  const rows = d.clients.map((c) => {
    const scopes = Object.entries(c.scopes).map(([scope, s]) => `${scope}: ${s.wired ? p.bold('wired') : s.state === 'absent' ? 'not wired' : s.state}`);
    const installed = c.installed ? `installed (${c.found.join(', ')})` : p.dim('not found');
    return `${p.bold(c.client.padEnd(15))} ${installed}\n${' '.repeat(16)}${scopes.join('  ')}  ${p.dim(`default --${c.default_scope}`)}`;
  });
  return rows.join('\n');
}

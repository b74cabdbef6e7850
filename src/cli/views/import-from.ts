/** The text of `engram import --from`: the counts, the mapping of a dry run, what was left out. */
import type { SourceImportReport } from '../../engram.js';
import type { Palette } from './palette.js';

const row = (p: Palette, name: string, value: string) => `${p.dim(name.padEnd(16))}${value}`;

export function importFromView(d: SourceImportReport, p: Palette): string {
  const reasons = Object.entries(d.vectors.reasons).map(([why, n]) => `${n} ${why}`);
  const lines = [
    row(p, 'from', `${d.from} ${d.path}${d.dry_run ? p.yellow(' (dry run: nothing written)') : ''}${d.interrupted === true ? p.yellow(' (interrupted)') : ''}`),
    row(p, 'read', String(d.read)),
    row(p, 'created', String(d.created)),
    row(p, 'updated', String(d.updated)),
    row(p, 'unchanged', String(d.unchanged)),
    row(p, 'refused', String(d.refused)),
    row(p, 'invalid', String(d.invalid)),
    row(p, 'unmapped', String(d.unmapped)),
    row(p, 'quarantined', String(d.quarantined)),
    row(p, 'revisions', `${d.revisions.stored} stored, ${d.revisions.refused} refused`),
    row(p, 'links', `${d.links.created} created, ${d.links.existing} existing, ${d.links.unresolved} unresolved`),
    row(p, 'vectors', `${d.vectors.kept} kept, ${d.vectors.dropped} dropped${reasons.length > 0 ? ` (${reasons.join('; ')})` : ''}`),
  ];
  if (d.mapping !== undefined) {
    lines.push(p.bold('mapping'), ...d.mapping.map(([from, to]) => `  ${from} → ${to}`));
  }
  for (const r of d.refusals) lines.push(`${p.red(r.error)} ${r.where}: ${r.message}`);
  for (const u of d.not_mapped) lines.push(`${p.yellow('not mapped')} ${u.where}${u.field === undefined ? '' : ` ${u.field}`}: ${u.reason}`);
  return lines.join('\n');
}

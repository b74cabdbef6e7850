/** Text view of `engram review`: quarantined, contradicted, expiring, and possible contradictions. */
import type { ReviewReport } from '../../items/governance.js';
import type { MemoryItem } from '../../types.js';
import { itemLine } from './item-text.js';
import type { Palette } from './palette.js';

export function reviewView(d: ReviewReport, p: Palette): string {
  const possible = d.possible_contradictions;
  const section = <T extends MemoryItem>(title: string, items: T[], extra: (i: T) => string = () => '') =>
    `${p.bold(title)} (${items.length})${items.map((i) => `\n${itemLine(i, p)}${extra(i)}`).join('')}`;
  return [
    section('quarantined', d.quarantined, (i) =>
      `\n  ${p.dim(`rules ${i.policy_rules.join(', ') || '(unknown)'}; expires ${i.expires_at ?? 'never'}`)}`),
    section('contradicted', d.contradicted),
    section(`expiring within ${d.within_hours}h`, d.expiring, (i) => `\n  ${p.dim(`expires ${i.expires_at ?? ''}`)}`),
    `${p.bold('possible contradictions')} (${possible.length})${possible
      .map((c) => `\n${p.yellow(`differs in: ${c.differs_in.join(', ')}`)}\n${itemLine(c.items[0], p)}\n${itemLine(c.items[1], p)}`)
      .join('')}`,
  ].join('\n\n');
}

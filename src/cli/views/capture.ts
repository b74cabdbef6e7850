/** Text view of `engram capture`: the session, the turn counts, the refusals (masked) and unreadable lines. */
import type { CaptureReport } from '../../engram.js';
import type { Palette } from './palette.js';
import { plural } from '../plural.js';

export function captureView(d: CaptureReport, p: Palette): string {
  const unit = d.unit === 'line' ? 'lines' : 'messages';
  const refusals = d.refusals.map((r) => {
    const what = r.proposal === undefined ? `turn ${r.turn}` : `turn ${r.turn} proposal ${r.proposal}`;
    return `${p.red('refused')}   ${what} (${unit} ${r.range[0]}-${r.range[1]}): ${r.reason}`;
  });
  const malformed = d.malformed.entries.map((m) => `${p.yellow('unread')}    ${d.unit} ${m.at}: ${m.reason}`);
  const more = d.malformed.count - d.malformed.entries.length;
  const { found, stored, quarantined, rejected } = d.proposals;
  return [
    `${d.format} session ${p.id(d.session_id)}  ${p.dim(d.file)}`,
    ...refusals,
    ...malformed,
    ...(more > 0 ? [p.dim(`… and ${plural(more, `more unreadable ${d.unit}`)}`)] : []),
    p.bold(`${plural(d.turns, 'turn')}: ${d.stored} stored, ${d.updated} updated, ${d.duplicates} already captured, ${d.refused} refused, ${d.quarantined} quarantined; ${plural(d.items, 'item')} written`),
    ...(found > 0 ? [p.dim(`${plural(found, 'proposal')}: ${stored} stored, ${quarantined} quarantined, ${rejected} rejected`)] : []),
  ].join('\n');
}

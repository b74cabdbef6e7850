/** Text views of the lifecycle operations: cleanup, suggest, consolidate and its candidates. */
import type { CleanupPlan, ConsolidationCandidates, ConsolidationPlan, Suggestion } from '../../engram.js';
import type { Palette } from './palette.js';

/** `engram suggest`: the suggestions, with how many. */
export interface SuggestView {
  count: number;
  suggestions: Suggestion[];
}

export function cleanupView(d: CleanupPlan, p: Palette): string {
  const verb = d.applied ? ['archived', 'purged'] : ['would archive', 'would purge'];
  return [
    ...d.archive.map((e) => `${verb[0]} ${p.id(e.id)}  ${e.reasons.join(', ')}  ${p.dim(e.title)}`),
    ...d.purge.map((e) => `${verb[1]} ${p.id(e.id)}  archived ${e.archived_days} days  ${p.dim(e.title)}`),
    p.dim(`${d.archive.length} to archive, ${d.purge.length} to purge${d.applied ? '' : ' (dry run: add --apply)'}`),
  ].join('\n');
}

export function suggestView(d: SuggestView, p: Palette): string {
  const list = d.suggestions;
  if (list.length === 0) return p.dim('no suggestions');
  return list.map((s) => `${p.id(s.id)}  ${s.score}  ${s.title}\n  ${p.dim(s.reasons.join(', ') || 'no strong reason')}`).join('\n');
}

export function consolidateView(d: ConsolidationPlan, p: Palette): string {
  const { clusters, promotions } = d;
  const verb = d.dry_run ? 'would fold' : 'folded';
  const folded = clusters.filter((c) => c.refused === undefined);
  return [
    ...folded.map((c) => `${verb} ${c.members.length} ${c.type} items (${c.kind}s${c.source ? ` from ${c.source}` : ''}; the text of ${
      p.id(c.winner)} kept) into ${p.id(c.result_id)}`),
    ...clusters.filter((c) => c.refused !== undefined).map((c) => {
      const outcome = c.refused?.verdict === 'reject' ? 'rejected' : 'quarantined';
      const members = c.members.map((m) => p.id(m)).join(', ');
      return `${p.yellow('not folded')} ${members}: the merged item would be ${outcome} by the policy (${c.refused?.rules.join(', ')})`;
    }),
    ...promotions.map((x) => `${d.dry_run ? 'would promote' : 'promoted'} ${p.id(x.id)} to ltm (${x.reasons.join(', ')})`),
    p.dim(`${d.candidates} stm candidates, ${folded.length} fold(s), ${promotions.length} promotion(s); related items are left`
      + ' apart (`engram consolidate --candidates` offers them to your model)'),
  ].join('\n');
}

export function candidatesView(d: ConsolidationCandidates, p: Palette): string {
  const groups = [...d.extract, ...d.merge];
  if (groups.length === 0 && d.more === 0) return p.dim(d.offset === 0 ? 'nothing to consolidate yet' : 'no groups after that offset');
  const lines = groups.map((g) => `${g.kind.padEnd(7)} ${g.item_ids.length} items${g.source ? ` from ${g.source}` : ''}: ${g.item_ids.join(' ')}`);
  const more = `${d.more_exact ? '' : 'at least '}${d.more} more group(s)`;
  const next = d.more > 0 ? ` (again once these are handled, or --offset ${d.offset + groups.length})` : '';
  return [...lines, p.dim(`${more}${next}`)].join('\n');
}

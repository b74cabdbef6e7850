/** Status lines on stderr that every writing command shares: near-duplicates and auto-consolidation. */
import type { AutoConsolidated, PutResult } from '../engram.js';
import type { CliContext } from './context.js';

/** Says what automatic consolidation did when this write triggered it. */
export function noteAutoConsolidation(ctx: CliContext, result: AutoConsolidated): void {
  const run = result.auto_consolidation;
  if (run === undefined) return;
  const into = run.merged_into === undefined ? '' : `; this item is now part of ${run.merged_into}`;
  ctx.info(
    `auto-consolidated ${run.stm} STM items (threshold ${run.threshold}): ${run.clusters} merged, ${run.archived} archived, ${run.promoted} promoted${into} (off: --no-auto or ENGRAM_AUTO_CONSOLIDATE=off)`,
  );
}

/** Items like a new one in its scope, each with what tells them apart, or the one it merged into. */
export function noteSimilar(ctx: CliContext, result: PutResult): void {
  const similar = result.similar ?? [];
  if (similar.length === 0) return;
  if (result.mode === 'similar') {
    ctx.info(`merged into near-duplicate ${result.item.id} (similarity ${similar.find((s) => s.id === result.item.id)?.similarity})`);
    return;
  }
  for (const s of similar) {
    const differs = s.differs_in ? `; differs in: ${s.differs_in.join(', ')}` : '';
    ctx.info(`${s.kind.replace('-', ' ')} of ${s.id} (similarity ${s.similarity})${differs}`);
  }
  if (similar.some((s) => s.kind === 'near-duplicate')) ctx.info('--merge-similar folds a write into its closest near-duplicate');
  if (similar.some((s) => s.kind === 'possible-contradiction')) ctx.info('`engram review` lists possible contradictions side by side');
}

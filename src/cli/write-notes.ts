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

/** Near-duplicates a new item has in its scope, or the one it was merged into. */
export function noteSimilar(ctx: CliContext, result: PutResult): void {
  const similar = result.similar ?? [];
  if (similar.length === 0) return;
  if (result.mode === 'similar') {
    ctx.info(`merged into near-duplicate ${result.item.id} (similarity ${similar[0]?.similarity})`);
    return;
  }
  const list = similar.map((s) => `${s.id} (${s.similarity})`).join(', ');
  ctx.info(`near-duplicate of ${list}; --merge-similar folds a write into the closest one`);
}

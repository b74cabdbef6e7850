/**
 * KOAS's automatic consolidation, run after a write that stored something (put, pull, propose,
 * ingest): when STM holds `threshold` live memories, at most once per interval (the last run's
 * time is kept in the store, so every process sharing it respects the interval).
 */
import type { AutoConsolidateOptions, OperationContext } from '../context.js';
import { consolidate } from './consolidate.js';

/**
 * The automatic run looks at the newest this many STM items only, so a write never waits on a
 * whole-store pass; `engram consolidate` takes them all.
 */
const AUTO_CONSOLIDATE_WINDOW = 2000;

/** Where the time of the last automatic run is kept (the store's meta table). */
export const AUTO_META_KEY = 'auto_consolidated_at';

/** A write's result, with what automatic consolidation did when the write triggered it. */
export interface AutoConsolidated {
  auto_consolidation?: AutoConsolidation;
}

/** What an automatic consolidation did after a write. */
export interface AutoConsolidation {
  /** Live STM items that triggered it. */
  stm: number;
  threshold: number;
  clusters: number;
  archived: number;
  promoted: number;
  /** The merged item that now holds the written item, when it was one of the originals. */
  merged_into?: string;
}

async function autoDue({ store }: OperationContext, auto: AutoConsolidateOptions, at: Date): Promise<boolean> {
  const last = await store.meta.get(AUTO_META_KEY);
  return last === undefined || at.getTime() - Date.parse(last) >= auto.intervalMinutes * 60_000;
}

/**
 * KOAS's trigger, after a write: consolidate when STM holds `threshold` memories, at most once per
 * interval. Ingested document chunks neither count nor merge here: folding alike parts of a file
 * into one would hide the others from search; `engram consolidate` still takes them.
 */
export async function autoConsolidate(
  ctx: OperationContext,
  writtenId?: string,
): Promise<AutoConsolidation | undefined> {
  const { store, autoConsolidate: auto } = ctx;
  if (auto === undefined) return undefined;
  const at = ctx.clock();
  if (!(await autoDue(ctx, auto, at)) || await store.items.countLive('stm') < auto.threshold) return undefined;
  // Not prepared for every text ahead: the writer loads the CJK segmenter when it indexes a merged
  // item that needs it (most stores hold none, and loading it costs the write tens of milliseconds).
  return store.transaction(async (): Promise<AutoConsolidation | undefined> => {
    // Another process may have run it since the check above.
    const stm = await store.items.countLive('stm');
    if (!(await autoDue(ctx, auto, at)) || stm < auto.threshold) return undefined;
    const plan = await consolidate(ctx, {
      now: at.toISOString(),
      actor: ctx.actor,
      dryRun: false,
      admit: ctx.admit,
      newest: AUTO_CONSOLIDATE_WINDOW,
    });
    await store.meta.set(AUTO_META_KEY, at.toISOString());
    const folded = plan.clusters.filter((c) => c.refused === undefined);
    const summary: AutoConsolidation = {
      stm,
      threshold: auto.threshold,
      clusters: folded.length,
      archived: folded.reduce((n, c) => n + c.members.length, 0),
      promoted: plan.promotions.length,
    };
    const event = { item_id: null, action: 'auto_consolidate', actor: ctx.actor, at: at.toISOString(), details: { ...summary } };
    await store.history.addEvent(event);
    const home = folded.find((c) => writtenId !== undefined && c.members.includes(writtenId));
    return home ? { ...summary, merged_into: home.result_id } : summary;
  });
}

/**
 * A write's result with the automatic consolidation it triggered, if one ran.
 *
 * @example
 * return result.action === 'created' ? withAutoConsolidation(ctx, result, result.item.id) : result;
 */
export async function withAutoConsolidation<T extends object>(
  ctx: OperationContext,
  result: T,
  writtenId?: string,
): Promise<T & AutoConsolidated> {
  const ran = await autoConsolidate(ctx, writtenId);
  return ran ? { ...result, auto_consolidation: ran } : result;
}

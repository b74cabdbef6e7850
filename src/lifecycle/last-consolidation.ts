/**
 * When the store was last consolidated: the latest of the last `consolidate` run, the last
 * automatic run (both kept in the store's meta table) and the last consolidation event (a store
 * consolidated before the runs were recorded).
 */
import type { Store } from '../store/store.js';
import { AUTO_META_KEY } from './auto-consolidate.js';
import { CONSOLIDATED_META_KEY } from './operations.js';

/** The events a consolidation writes: merged items, promotions, the automatic run's summary. */
const CONSOLIDATION_EVENTS = ['consolidate', 'promote', 'auto_consolidate'] as const;

/**
 * The time of the last consolidation (ISO-8601), or null when the store was never consolidated.
 *
 * @example
 * const at = await lastConsolidation(store); // '2026-11-22T10:00:00.000Z'
 */
export async function lastConsolidation(store: Store): Promise<string | null> {
  const times = [
    await store.meta.get(CONSOLIDATED_META_KEY),
    await store.meta.get(AUTO_META_KEY),
    (await store.history.lastEvent(CONSOLIDATION_EVENTS))?.at,
  ].filter((t): t is string => t !== undefined);
  return times.length === 0 ? null : times.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
}

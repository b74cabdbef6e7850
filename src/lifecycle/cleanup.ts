/**
 * `cleanup` (memtool §8.3, mem-context's archive phase): a plan of what to archive — expired,
 * stale (`forgetting/curve.ts`) and weak (weight < 0.1 after 30 days) live items — and, with a
 * purge age, which archived items to delete for good. The plan is all a dry run does; applying it runs in one
 * transaction, each change with its event.
 */
import { decayOf } from '../forgetting/curve.js';
import type { WriteAccess } from '../items/writer.js';
import type { Store } from '../store/store.js';
import type { MemoryItem } from '../types.js';

/** mem-context's archive phase: weight under this after {@link WEAK_AFTER_DAYS} days. */
export const WEAK_WEIGHT = 0.1;
export const WEAK_AFTER_DAYS = 30;
const DAY_MS = 86_400_000;

export type CleanupReason = 'expired' | 'stale' | 'weak';

export interface CleanupEntry {
  id: string;
  title: string;
  tier: MemoryItem['tier'];
  reasons: CleanupReason[];
  decay: number;
}

export interface CleanupPlan {
  applied: boolean;
  archive: CleanupEntry[];
  /** Archived items older than the purge age (with `purgeDays`), deleted with everything derived. */
  purge: { id: string; title: string; archived_days: number }[];
  archived: number;
  purged: number;
}

export interface CleanupOptions {
  now: Date;
  scope?: string;
  /** Delete archived items whose last change is older than this many days. */
  purgeDays?: number;
  apply: boolean;
}

function label(item: MemoryItem): string {
  return item.title || item.content.replace(/\s+/g, ' ').trim().slice(0, 80);
}

export async function planCleanup(store: Store, options: CleanupOptions): Promise<CleanupPlan> {
  const now = options.now.getTime();
  const nowIso = options.now.toISOString();
  const plan: CleanupPlan = { applied: false, archive: [], purge: [], archived: 0, purged: 0 };
  for await (const item of store.items.iterate()) {
    if (options.scope !== undefined && item.scope !== options.scope) continue;
    if (item.archived) {
      const days = (now - Date.parse(item.updated_at)) / DAY_MS;
      if (options.purgeDays !== undefined && days > options.purgeDays) {
        plan.purge.push({ id: item.id, title: label(item), archived_days: Math.floor(days) });
      }
      continue;
    }
    const { decay, is_stale: stale } = decayOf(item, options.now);
    const reasons: CleanupReason[] = [];
    if (item.expires_at !== null && item.expires_at <= nowIso) reasons.push('expired');
    if (stale) reasons.push('stale');
    if (item.weight < WEAK_WEIGHT && now - Date.parse(item.created_at) > WEAK_AFTER_DAYS * DAY_MS) reasons.push('weak');
    if (reasons.length > 0) plan.archive.push({ id: item.id, title: label(item), tier: item.tier, reasons, decay });
  }
  return plan;
}

/** The plan, carried out when `options.apply`: archives and purges in one transaction. */
export async function cleanup({ store, writer }: WriteAccess, options: CleanupOptions): Promise<CleanupPlan> {
  const plan = await planCleanup(store, options);
  if (!options.apply) return plan;
  const at = options.now.toISOString();
  await store.transaction(async () => {
    for (const entry of plan.archive) {
      const existing = await store.items.get(entry.id);
      if (existing === undefined || existing.archived) continue;
      await writer.archive(existing, at, 'cleanup', { reasons: entry.reasons, decay: entry.decay });
    }
    for (const entry of plan.purge) await writer.remove(entry.id, 'purge', at);
  });
  return { ...plan, applied: true, archived: plan.archive.length, purged: plan.purge.length };
}

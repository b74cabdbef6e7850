/**
 * Review of what waits for a decision (KOAS §5.3, mem-context's review): the quarantined,
 * contradicted and soon-expiring items (and, from the facade, possible contradictions), and the
 * two decisions on one item — verify (it becomes injectable, after the reject rules are checked
 * again) or reject (it is archived).
 */
import { EngramError, FIX_HINTS } from '../errors.js';
import type { PossibleContradiction } from '../lifecycle/contradictions.js';
import { evaluatePolicy } from '../policy/evaluate.js';
import type { Store } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { addHours } from '../util/time.js';
import { policyRejected } from './admission.js';
import { hasChanges, nextVersion } from './build-item.js';
import { requireItem } from './lookup.js';
import type { WriteAccess } from './writer.js';

export interface QuarantinedItem extends MemoryItem {
  /** The rules that put the item in quarantine, from its write events. */
  policy_rules: string[];
}

export interface ReviewReport {
  quarantined: QuarantinedItem[];
  contradicted: MemoryItem[];
  /** Live items whose `expires_at` falls within the review window. */
  expiring: MemoryItem[];
  /** Memories that say the same thing with other values ("differs in: 5432 → 5433"). */
  possible_contradictions: PossibleContradiction[];
  within_hours: number;
}

export interface ReviewDecision {
  id: string;
  action: 'verified' | 'rejected' | 'forgotten' | 'unchanged';
  item: MemoryItem;
}

async function quarantineRules(store: Store, id: string): Promise<string[]> {
  const events = await store.history.listEvents(id);
  for (let i = events.length - 1; i >= 0; i--) {
    const policy = events[i]?.details.policy as { rules?: unknown } | undefined;
    if (Array.isArray(policy?.rules)) return policy.rules.filter((r): r is string => typeof r === 'string');
  }
  return [];
}

export async function reviewItems(
  store: Store,
  now: string,
  withinHours: number,
  limit: number,
): Promise<Omit<ReviewReport, 'possible_contradictions'>> {
  const quarantined = [];
  for (const item of (await store.items.list({ quarantined: 'only', limit })).items) {
    quarantined.push({ ...item, policy_rules: await quarantineRules(store, item.id) });
  }
  const contradicted = (await store.items.list({ validation: 'contradicted', limit })).items;
  const expiring = (await store.items.list({
    live_at: now,
    expires_before: addHours(now, withinHours),
    sort: 'expires',
    limit,
  })).items;
  return { quarantined, contradicted, expiring, within_hours: withinHours };
}

const requireLive = (store: Store, id: string) =>
  requireItem(store, id, 'review_ids');

/** Marks an item verified and injectable, clears its expiry and quarantine; secrets still reject. */
export function verifyItem({ store, writer }: WriteAccess, id: string, now: string): Promise<ReviewDecision> {
  return store.transaction(async () => {
    const existing = await requireLive(store, id);
    if (existing.archived) {
      throw new EngramError('PARAM_ERROR', `Item ${id} is archived`, {
        hint: FIX_HINTS.restore_item,
        fix: 'restore_item',
        details: { id },
      });
    }
    const policy = evaluatePolicy(existing, { privileged: true });
    if (policy.verdict === 'reject') throw policyRejected(policy);
    const next = { ...existing, validation: 'verified', injectable: true, expires_at: null, quarantined: false } as const;
    if (!hasChanges(existing, next)) return { id, action: 'unchanged', item: existing } as const;
    const item = nextVersion(existing, next, now);
    await writer.amend(item, 'verify', { was_quarantined: existing.quarantined });
    return { id, action: 'verified', item } as const;
  });
}

/** Refuses an item: it is archived (history and events keep the audit trail). */
export function rejectItem(
  { store, writer }: WriteAccess,
  id: string,
  now: string,
  reason: string | undefined,
): Promise<ReviewDecision> {
  return store.transaction(async () => {
    const existing = await requireLive(store, id);
    if (existing.archived) return { id, action: 'unchanged', item: existing } as const;
    const item = nextVersion(existing, { ...existing, archived: true, injectable: false }, now);
    await writer.amend(item, 'reject', reason === undefined ? {} : { reason });
    return { id, action: 'rejected', item } as const;
  });
}

/** mem-context's forget: archived, weight 0, never injected again (history keeps what it was). */
export function forgetItem({ store, writer }: WriteAccess, id: string, now: string): Promise<ReviewDecision> {
  return store.transaction(async () => {
    const existing = await requireItem(store, id);
    if (existing.archived && existing.weight === 0 && !existing.injectable) {
      return { id, action: 'unchanged', item: existing } as const;
    }
    const item = nextVersion(existing, { ...existing, archived: true, weight: 0, injectable: false }, now);
    await writer.amend(item, 'forget');
    return { id, action: 'forgotten', item } as const;
  });
}

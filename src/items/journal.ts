/**
 * The audit trail of a write: the stored version as a revision and one event, written by the
 * caller inside the same transaction as the item itself.
 */
import type { PolicyVerdict } from '../policy/evaluate.js';
import type { Store } from '../store/store.js';
import type { MemoryItem } from '../types.js';

/** Records `item` (just stored) as a revision and an event named `action`. */
export function recordWrite(
  store: Store,
  actor: string | null,
  item: MemoryItem,
  action: string,
  details: Record<string, unknown> = {},
): void {
  const at = item.updated_at;
  store.addRevision({ item_id: item.id, version: item.version, changed_at: at, actor, reason: action, item });
  store.addEvent({ item_id: item.id, action, actor, at, details: { version: item.version, ...details } });
}

/** Event details for a policy verdict: rule ids only, never excerpts (an event is forever). */
export function policyDetails(policy: PolicyVerdict): Record<string, unknown> {
  if (policy.verdict === 'accept') return {};
  return { policy: { verdict: policy.verdict, rules: policy.matches.map((m) => m.rule) } };
}

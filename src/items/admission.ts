/**
 * The single gate every write passes before it is stored. The policy engine plugs in here as an
 * {@link AdmissionHook}; the built-in rule is the one every item needs: content is not empty.
 */
import { EngramError } from '../errors.js';
import type { MemoryItem } from '../types.js';

export type WriteOperation = 'put' | 'import';

export interface AdmissionContext {
  operation: WriteOperation;
  actor: string | null;
}

/**
 * Inspects an item about to be stored. Returns the item to store (possibly changed, e.g.
 * quarantined) or throws an EngramError (POLICY_REJECTED) to refuse the write.
 */
export type AdmissionHook = (item: MemoryItem, context: AdmissionContext) => MemoryItem;

/** Admits `item` through the built-in rules, then the optional policy hook. */
export function admitWrite(
  item: MemoryItem,
  context: AdmissionContext,
  hook: AdmissionHook | undefined,
): MemoryItem {
  if (item.content.trim() === '') {
    throw new EngramError('EMPTY_INPUT', 'Content is empty', {
      hint: 'Give content with --content, --file PATH, or on stdin.',
    });
  }
  return hook === undefined ? item : hook(item, context);
}

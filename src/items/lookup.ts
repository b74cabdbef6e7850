/** Looking an item up by id, with the NOT_FOUND every operation on a missing id reports. */
import { EngramError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { MemoryItem } from '../types.js';

export function requireItem(store: Store, id: string, hint = 'Use `engram list` to find ids.'): MemoryItem {
  const item = store.getItem(id);
  if (item === undefined) {
    throw new EngramError('NOT_FOUND', `No memory item with id ${id}`, { hint, details: { id } });
  }
  return item;
}

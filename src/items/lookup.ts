/** Looking an item up by id, with the NOT_FOUND every operation on a missing id reports. */
import { EngramError, type ErrorFix, FIX_HINTS } from '../errors.js';
import type { Store } from '../store/store.js';
import type { MemoryItem } from '../types.js';

/** The item `id`, or NOT_FOUND whose hint is `fix` (where to find ids). */
export async function requireItem(store: Store, id: string, fix: ErrorFix = 'list_ids'): Promise<MemoryItem> {
  const item = await store.items.get(id);
  if (item === undefined) {
    throw new EngramError('NOT_FOUND', `No memory item with id ${id}`, { hint: FIX_HINTS[fix], fix, details: { id } });
  }
  return item;
}

/** `delete`: an item archived (a new version), or with `hard` removed with everything derived from it. */
import type { OperationContext } from '../context.js';
import { requireItem } from '../items/lookup.js';
import type { DeleteCounts } from '../store/store.js';

export interface DeleteResult {
  id: string;
  action: 'archived' | 'unchanged' | 'deleted';
  /** Rows removed per table, for a hard delete. */
  removed?: DeleteCounts;
}

/** Archives an item, or with `hard` removes it and its derived rows (its events stay). */
export function deleteItem(ctx: OperationContext, id: string, hard = false): Promise<DeleteResult> {
  const { store, writer } = ctx;
  return store.transaction(async (): Promise<DeleteResult> => {
    const existing = await requireItem(store, id);
    if (hard) return { id, action: 'deleted', removed: await writer.remove(id, 'delete', ctx.now()) };
    if (existing.archived) return { id, action: 'unchanged' };
    await writer.archive(existing, ctx.now(), 'archive');
    return { id, action: 'archived' };
  });
}

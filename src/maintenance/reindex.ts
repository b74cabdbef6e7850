/**
 * Rebuilding the full-text index from the items: it is derived data, so this is always safe and
 * is the fix `doctor` names when the index and the items disagree.
 */
import type { OperationContext } from '../context.js';

export interface ReindexResult {
  indexed: number;
  full_text: boolean;
}

/** `reindex`'s options: a progress callback, called every 1,000 items and at the end. */
export interface ReindexOptions {
  onProgress?: (done: number, total: number) => void;
}

/**
 * Rebuilds the full-text index from every item, archived ones included; returns how many were
 * indexed and whether the store has a full-text index at all.
 *
 * @example
 * const { indexed } = await reindex(ctx, { onProgress: (done, total) => log(`${done}/${total}`) });
 */
export async function reindex(ctx: OperationContext, { onProgress }: ReindexOptions = {}): Promise<ReindexResult> {
  const { store, indexer } = ctx;
  await indexer.prepareAll();
  const { total } = store.listItems({ archived: 'include', limit: 1 });
  const entries = {
    * [Symbol.iterator]() {
      let done = 0;
      for (const item of store.iterateItems()) {
        yield { item, index: indexer.indexText(item) };
        if (++done % 1000 === 0 || done === total) onProgress?.(done, total);
      }
    },
  };
  return { indexed: store.rebuildFullText(entries), full_text: store.hasFullText() };
}

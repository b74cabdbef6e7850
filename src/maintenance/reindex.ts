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
  // The CJK segmenter (a 4 MB WebAssembly module and its dictionary) is loaded by the first item
  // that needs it, if any: a store without CJK text is rebuilt without it.
  const indexed = await store.text.rebuild(async (item) => {
    await indexer.prepare(item);
    return indexer.indexText(item);
  }, onProgress);
  return { indexed, full_text: store.text.ranked };
}

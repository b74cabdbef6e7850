/**
 * What the full-text index stores for an item beyond its own fields: the segmented copy of its
 * CJK text. The segmenter is loaded before a write transaction starts (it is asynchronous) and
 * only when some text needs it.
 */
import type { IndexText } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { hasCjk, loadSegmenter, loadedSegmenter, segmentedCopy } from './segment.js';

type Indexed = Pick<MemoryItem, 'title' | 'content' | 'tags' | 'entities'>;

function textOf(item: Indexed): string {
  return [item.title, item.content, ...item.tags, ...item.entities].join('\n');
}

/** Loads the segmenter when any of `texts` has CJK characters. */
export async function prepareIndexing(...texts: (string | Indexed | undefined)[]): Promise<void> {
  const needed = texts.some((t) => t !== undefined && hasCjk(typeof t === 'string' ? t : textOf(t)));
  if (needed) await loadSegmenter();
}

/**
 * The index text of `item` (call {@link prepareIndexing} first when it may contain CJK). Text whose
 * compatibility forms differ (full-width `ＡＰＩ`, ligatures) is indexed in its NFKC form too, as
 * queries are: `API` and `ＡＰＩ` both find it.
 */
export function indexText(item: Indexed): IndexText {
  const text = textOf(item);
  const folded = text.normalize('NFKC');
  const segment = loadedSegmenter();
  const segmented = segment !== undefined && hasCjk(folded) ? segmentedCopy(folded, segment) : '';
  return { segmented: folded !== text && segmented === '' ? folded : segmented };
}

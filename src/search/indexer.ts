/**
 * The indexer: the one place an item becomes what the full-text index stores for it beyond its own
 * fields (the segmented copy of its CJK text), and the one place the segmenter is loaded. The
 * segmenter is injected (the embedder will be too). Loading it is asynchronous, so writers call
 * {@link Indexer.prepare} before their synchronous transaction, and only text that needs it pays.
 */
import type { IndexText } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { hasCjk, type Segmenter, segmentedCopy } from './segment.js';

/** The fields of an item the full-text index reads. */
export type Indexed = Pick<MemoryItem, 'title' | 'content' | 'tags' | 'entities'>;

export interface IndexerOptions {
  /** Loads the CJK word segmenter (jieba by default, see `segment.ts`); called at most once. */
  loadSegmenter: () => Promise<Segmenter>;
}

export interface Indexer {
  /** Loads what indexing (or querying) any of `texts` needs: the segmenter when one has CJK text. */
  prepare(...texts: (string | Indexed | undefined)[]): Promise<void>;
  /** The index text of `item` (call {@link Indexer.prepare} with it first). */
  indexText(item: Indexed): IndexText;
  /** The segmenter for `text` (loaded when it has CJK text), for queries and similarity probes. */
  segmenterFor(text: string): Promise<Segmenter | undefined>;
  /** The segmenter if an earlier prepare loaded it. */
  loadedSegmenter(): Segmenter | undefined;
}

function textOf(item: Indexed): string {
  return [item.title, item.content, ...item.tags, ...item.entities].join('\n');
}

/** A character outside ASCII: a text without one has no CJK character and is its own NFKC form. */
const NON_ASCII = /[^\0-\x7f]/;

/** True when `text`, as written or in its NFKC form (`㍿` folds to Han), has CJK characters. */
function needsSegmenter(text: string): boolean {
  return NON_ASCII.test(text) && (hasCjk(text) || hasCjk(text.normalize('NFKC')));
}

/**
 * The index text of `item` with `segment` (when loaded). Text whose compatibility forms differ
 * (full-width `ＡＰＩ`, ligatures) is indexed in its NFKC form too, as queries are: `API` and
 * `ＡＰＩ` both find it.
 *
 * @example
 * indexText({ title: '', content: 'ＡＰＩ keys rotate', tags: [], entities: [] }).segmented; // 'API keys rotate'
 */
export function indexText(item: Indexed, segment?: Segmenter): IndexText {
  const text = textOf(item);
  const folded = NON_ASCII.test(text) ? text.normalize('NFKC') : text;
  const segmented = segment !== undefined && hasCjk(folded) ? segmentedCopy(folded, segment) : '';
  return { segmented: folded !== text && segmented === '' ? folded : segmented };
}

/**
 * An indexer over an injected segmenter.
 *
 * @example
 * const indexer = createIndexer({ loadSegmenter });
 * await indexer.prepare(item);
 * indexer.indexText(item); // { segmented: '…' } for the item writer's index entry
 */
export function createIndexer(options: IndexerOptions): Indexer {
  let segment: Segmenter | undefined;
  const load = async (): Promise<Segmenter> => (segment ??= await options.loadSegmenter());
  return {
    async prepare(...texts) {
      if (segment !== undefined) return;
      const needed = texts.some((t) => t !== undefined && needsSegmenter(typeof t === 'string' ? t : textOf(t)));
      if (needed) await load();
    },
    indexText: (item) => indexText(item, segment),
    async segmenterFor(text) {
      return needsSegmenter(text) ? load() : segment;
    },
    loadedSegmenter: () => segment,
  };
}

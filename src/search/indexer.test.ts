/**
 * The indexer's text (indexer.ts): a text whose NFKC form differs is indexed in that form too, and
 * the segmenter is loaded only for text with CJK characters as written or once folded (`㍿`).
 * ASCII text is answered without folding it; these check that nothing else changed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createIndexer, indexText } from './indexer.js';
import type { Segmenter } from './segment.js';

const item = (content: string) => ({ title: '', content, tags: [], entities: [] });

test('the index text is the NFKC form when it differs, for any mix of ASCII and compatibility forms', () => {
  const pieces = ['a', 'B', ' ', '\n', 'Ａ', 'ﬁ', '①', 'é', 'e\u0301', 'ж'];
  let seed = 3;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  let folded = 0;
  for (let i = 0; i < 5_000; i++) {
    const content = Array.from({ length: Math.floor(next() * 12) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
    const text = `\n${content}`;
    const nfkc = text.normalize('NFKC');
    assert.deepEqual(indexText(item(content)), { segmented: nfkc !== text ? nfkc : '' }, JSON.stringify(content));
    if (nfkc !== text) folded++;
  }
  assert.ok(folded > 1_000, `${folded} texts were folded`);
});

test('the segmenter is loaded for CJK text as written or folded, never for ASCII', async () => {
  let loads = 0;
  const segmenter: Segmenter = (text) => [...text];
  const loadSegmenter = async () => {
    loads++;
    return segmenter;
  };
  const indexer = createIndexer({ loadSegmenter });
  await indexer.prepare('plain ASCII text', item('more ASCII'), undefined);
  assert.equal(loads, 0);
  assert.equal(await indexer.segmenterFor('ASCII query'), undefined);
  await indexer.prepare(item('Company ㍿ notes'));
  assert.equal(loads, 1);
  assert.equal(indexer.loadedSegmenter(), segmenter);
  await indexer.prepare('中文');
  assert.equal(loads, 1);
});

/**
 * A file's policy judgements made ahead, on the policy pool's workers, before planChunks runs:
 * the verdict of each chunk's item as planChunks first builds it, the secret spans of the whole
 * text, and the rejecting rules of the texts refusedAcrossChunks reads first (the whole text, or
 * the windows around each chunk boundary of a long one). planChunks then takes them from here;
 * anything it asks beyond them (a refused chunk's pieces, renumbered chunks, the pairs of a
 * rejected short text) it judges itself. The same pure functions on the same inputs: the same
 * verdicts as judging in this thread.
 */
import type { PolicyVerdict } from '../policy/evaluate.js';
import type { SecretSpan } from '../policy/secret-spans.js';
import type { MemoryItem } from '../types.js';
import { BOUNDARY_WINDOW, type TextJudge, WHOLE_TEXT_LIMIT } from './across-chunks.js';
import type { Chunk } from './chunk.js';
import { type ChunkPlanInput, chunkStarts } from './plan-chunks.js';
import { ONE_TASK_CHARS, type PolicyPool } from './policy-pool.js';
import { policySubject, rejectingRules } from './policy-tasks.js';

export interface Prejudged {
  /** `build`, giving back the item judged ahead for a chunk asked with the same title and numbers. */
  build: ChunkPlanInput['build'];
  /** The verdict judged ahead for an item `build` gave, if any. */
  verdictOf: (item: MemoryItem) => PolicyVerdict | undefined;
  spans: readonly SecretSpan[];
  judgeText: TextJudge;
}

/** The texts refusedAcrossChunks judges first for chunks starting at `starts` (across-chunks.ts). */
function acrossTexts(text: string, chunks: readonly Chunk[], starts: readonly number[]): string[] {
  if (chunks.length < 2) return [];
  if (text.length <= WHOLE_TEXT_LIMIT) return [text];
  const windows: string[] = [];
  for (let i = 0; i + 1 < chunks.length; i++) {
    const leftStart = starts[i] ?? 0;
    const leftEnd = leftStart + (chunks[i] as Chunk).content.length;
    const rightStart = starts[i + 1] ?? 0;
    const rightEnd = rightStart + (chunks[i + 1] as Chunk).content.length;
    const from = Math.max(leftStart, leftEnd - BOUNDARY_WINDOW);
    windows.push(text.slice(from, Math.min(rightEnd, rightStart + BOUNDARY_WINDOW)));
  }
  return windows;
}

/**
 * Judges a file's chunks, secret spans and cross-chunk texts on the pool.
 *
 * @example
 * const ahead = await prejudge(pool, { text, chunks, build, titles }, pool.spans(text));
 * planChunks({ text, chunks, titles, admit, ...ahead });
 */
export async function prejudge(
  pool: PolicyPool,
  { text, chunks, build, titles }: Pick<ChunkPlanInput, 'text' | 'chunks' | 'build' | 'titles'>,
  spansAhead?: Promise<SecretSpan[]>,
): Promise<Prejudged> {
  const chunkTitles = titles(chunks);
  const made = new Map<Chunk, { title: string | undefined; index: number; count: number; item: MemoryItem }>();
  const items = chunks.map((chunk, i) => {
    const item = build(chunk, chunkTitles[i], i + 1, chunks.length);
    made.set(chunk, { title: chunkTitles[i], index: i + 1, count: chunks.length, item });
    return item;
  });
  const windows = acrossTexts(text, chunks, chunkStarts(text, chunks));
  const subjects = items.map(policySubject);
  // A short text in one task; a long one's spans first (asked for before chunking): the longest task.
  const { spans, verdicts, rules } = spansAhead === undefined && text.length <= ONE_TASK_CHARS
    ? await pool.file({ subjects, text, texts: windows })
    : await Promise.all([spansAhead ?? pool.spans(text), pool.verdicts(subjects), pool.rules(windows)])
        .then(([spans, verdicts, rules]) => ({ spans, verdicts, rules }));
  const judged = new Map<MemoryItem, PolicyVerdict>(items.map((item, i) => [item, verdicts[i] as PolicyVerdict]));
  const ruled = new Map<string, readonly string[]>(windows.map((w, i) => [w, rules[i] as string[]]));
  return {
    build(chunk, title, index, count) {
      const ahead = made.get(chunk);
      if (ahead === undefined || ahead.title !== title || ahead.index !== index || ahead.count !== count) {
        return build(chunk, title, index, count);
      }
      made.delete(chunk);
      return ahead.item;
    },
    verdictOf: (item) => judged.get(item),
    spans,
    judgeText: (t) => ruled.get(t) ?? rejectingRules(t),
  };
}

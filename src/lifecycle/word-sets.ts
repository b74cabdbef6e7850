/**
 * The word and tag sets of many memories, packed for clustering (cluster.ts): each distinct word
 * or tag is a number in one vocabulary, each set a sorted run of those numbers in one growing
 * array — about four bytes per word of an item instead of its text, so the sets of a whole store
 * fit in a bounded memory.
 */

/** How many numbers one chunk of a {@link Chunks} holds (4 MB). */
const CHUNK = 1 << 20;

/**
 * Sorted runs of numbers kept in fixed chunks, never copied to grow: memory is what the runs hold
 * and at most one chunk more. A run never spans two chunks.
 */
class Chunks {
  private readonly chunks: Int32Array[] = [];
  private used = 0;

  /** Stores `values`; where they are: `[chunk, start, end]`. */
  append(values: readonly number[]): [number, number, number] {
    if (this.chunks.length === 0 || this.used + values.length > CHUNK) {
      this.chunks.push(new Int32Array(Math.max(CHUNK, values.length)));
      this.used = 0;
    }
    const index = this.chunks.length - 1;
    (this.chunks[index] as Int32Array).set(values, this.used);
    const start = this.used;
    this.used += values.length;
    return [index, start, this.used];
  }

  run(chunk: number, start: number, end: number): Run {
    return { data: this.chunk(chunk), start, end };
  }

  chunk(index: number): Int32Array {
    return this.chunks[index] as Int32Array;
  }
}

/** A sorted run of distinct numbers: `data[start]` to `data[end - 1]`. */
export interface Run {
  data: Int32Array;
  start: number;
  end: number;
}

/**
 * The tag set and word set of each added item, by the position `add` returned: its words as a run
 * ({@link PackedSets.words}), and the similarity of two items' words or tags, read in place.
 */
export class PackedSets {
  private readonly ids = new Map<string, number>();
  /** Each number's word or tag. */
  readonly names: string[] = [];
  private readonly wordRuns = new Chunks();
  private readonly tagRuns = new Chunks();
  /** Where item i's words and tags are: six numbers from `6i` (chunk, start, end of each). */
  private where = new Int32Array(6 * 1024);
  size = 0;

  private numbered(values: Iterable<string>): number[] {
    const numbers: number[] = [];
    for (const value of values) {
      let id = this.ids.get(value);
      if (id === undefined) {
        id = this.names.push(value) - 1;
        this.ids.set(value, id);
      }
      numbers.push(id);
    }
    return numbers.sort((a, b) => a - b);
  }

  /** Adds one item's sets (duplicates already removed); its position. */
  add(tags: ReadonlySet<string>, words: ReadonlySet<string>): number {
    if (6 * (this.size + 1) > this.where.length) {
      const grown = new Int32Array(this.where.length * 2);
      grown.set(this.where);
      this.where = grown;
    }
    const [wordRun, tagRun] = [this.wordRuns.append(this.numbered(words)), this.tagRuns.append(this.numbered(tags))];
    this.where.set([...wordRun, ...tagRun], 6 * this.size);
    return this.size++;
  }

  /** The sorted word numbers of item `i`. */
  words(i: number): Run {
    const w = this.where;
    return this.wordRuns.run(w[6 * i] as number, w[6 * i + 1] as number, w[6 * i + 2] as number);
  }

  /** How many words item `i` has. */
  wordCount(i: number): number {
    return (this.where[6 * i + 2] as number) - (this.where[6 * i + 1] as number);
  }

  /** Jaccard similarity of items `a` and `b`: of their words, or of their tags (read in place). */
  similarity(a: number, b: number, of: 'words' | 'tags'): number {
    const w = this.where;
    const runs = of === 'words' ? this.wordRuns : this.tagRuns;
    const p = 6 * a + (of === 'words' ? 0 : 3);
    const q = 6 * b + (of === 'words' ? 0 : 3);
    const x = runs.chunk(w[p] as number);
    const y = runs.chunk(w[q] as number);
    return jaccardIn(x, w[p + 1] as number, w[p + 2] as number, y, w[q + 1] as number, w[q + 2] as number);
  }
}

/** Jaccard similarity of two sorted runs, `x[i..iEnd)` and `y[j..jEnd)` (1 for two empty runs). */
function jaccardIn(x: Int32Array, i: number, iEnd: number, y: Int32Array, j: number, jEnd: number): number {
  const size = iEnd - i + (jEnd - j);
  if (size === 0) return 1;
  let shared = 0;
  while (i < iEnd && j < jEnd) {
    const u = x[i] as number;
    const v = y[j] as number;
    if (u === v) {
      shared++;
      i++;
      j++;
    } else if (u < v) i++;
    else j++;
  }
  return shared / (size - shared);
}

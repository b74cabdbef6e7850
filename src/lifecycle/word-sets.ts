/**
 * The word and tag sets of many memories, packed for clustering (cluster.ts): each distinct word
 * or tag is a number in one vocabulary, each set a sorted run of those numbers in one growing
 * array — about four bytes per word of an item instead of its text, so the sets of a whole store
 * fit in a bounded memory.
 */

/** A growable run of 32-bit integers. */
class Pool {
  data = new Int32Array(1024);
  used = 0;

  append(values: ArrayLike<number>): void {
    if (this.used + values.length > this.data.length) {
      const grown = new Int32Array(Math.max(this.data.length * 2, this.used + values.length));
      grown.set(this.data.subarray(0, this.used));
      this.data = grown;
    }
    this.data.set(values, this.used);
    this.used += values.length;
  }
}

/** A sorted run of distinct numbers: `data[start]` to `data[end - 1]`. */
export interface Run {
  data: Int32Array;
  start: number;
  end: number;
}

/**
 * The tag set and word set of each added item, by the position `add` returned. Read them as runs
 * ({@link PackedSets.words}, {@link PackedSets.tags}) without copying.
 */
export class PackedSets {
  private readonly ids = new Map<string, number>();
  /** Each number's word or tag. */
  readonly names: string[] = [];
  private readonly wordPool = new Pool();
  private readonly tagPool = new Pool();
  /** Where item i's words and tags start: `[words, tags]` at `2i`, `2i + 1`; item i + 1's start is i's end. */
  private readonly starts = new Pool();

  constructor() {
    this.starts.append([0, 0]);
  }

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
    this.wordPool.append(this.numbered(words));
    this.tagPool.append(this.numbered(tags));
    this.starts.append([this.wordPool.used, this.tagPool.used]);
    return this.size - 1;
  }

  get size(): number {
    return this.starts.used / 2 - 1;
  }

  /** The sorted word numbers of item `i` (valid until the next `add`). */
  words(i: number): Run {
    const starts = this.starts.data;
    return { data: this.wordPool.data, start: starts[2 * i] as number, end: starts[2 * i + 2] as number };
  }

  /** The sorted tag numbers of item `i` (valid until the next `add`). */
  tags(i: number): Run {
    const starts = this.starts.data;
    return { data: this.tagPool.data, start: starts[2 * i + 1] as number, end: starts[2 * i + 3] as number };
  }
}

/** Jaccard similarity of two runs (1 for two empty runs). */
export function runJaccard(a: Run, b: Run): number {
  const [x, y] = [a.data, b.data];
  const [sizeA, sizeB] = [a.end - a.start, b.end - b.start];
  if (sizeA === 0 && sizeB === 0) return 1;
  let shared = 0;
  let i = a.start;
  let j = b.start;
  while (i < a.end && j < b.end) {
    const u = x[i] as number;
    const v = y[j] as number;
    if (u === v) {
      shared++;
      i++;
      j++;
    } else if (u < v) i++;
    else j++;
  }
  return shared / (sizeA + sizeB - shared);
}

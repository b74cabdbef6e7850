/**
 * Store suite: batched import and single-put throughput; get, list, search and recall latency
 * (p50/p95) in process and through the CLI, at 1k, 10k and 100k items, with the process RSS.
 * Items are synthetic: 60 words drawn from a 5,000-word Zipf vocabulary, two tags, a key.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEngram } from '../../src/index.js';
import { createItem, exportLine } from '../../src/items/build-item.js';
import { quantile, type Row, rssMb, timeMsAsync } from '../stats.js';

export const CLI = fileURLToPath(new URL('../../bundle/engram.js', import.meta.url));

/** A deterministic pseudo-random generator, so every run benchmarks the same data. */
function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const SYLLABLES = 'ka lo mi nu pe ra si to vu be da fe gi ho ju'.split(' ');
/** 5,000 distinct pseudo-words; word i is drawn with probability ~ 1/(i+1) (Zipf), as in text. */
export const VOCABULARY = Array.from({ length: 5000 }, (_, i) => {
  let word = '';
  for (let n = i + SYLLABLES.length; n > 0; n = Math.floor(n / SYLLABLES.length)) {
    word += SYLLABLES[n % SYLLABLES.length];
  }
  return word;
});
const ZIPF_CDF = (() => {
  const weights = VOCABULARY.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  return weights.map((w) => (sum += w / total));
})();

function zipfWord(random: () => number): string {
  const r = random();
  let lo = 0;
  let hi = ZIPF_CDF.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ZIPF_CDF[mid] ?? 1) < r) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo] ?? '';
}

export function syntheticLines(count: number): string[] {
  const random = prng(7);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 60 }, () => zipfWord(random)).join(' ');
    const id = `MEM-${i.toString(16).padStart(12, '0')}`;
    const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    const item = createItem(
      id,
      {
        content: `Item ${i}: ${words}`,
        tags: [`t${i % 50}`, `g${i % 7}`],
        layer: (['project', 'feature', 'run'] as const)[i % 3],
        key: `k${i % 1000}`,
        task_id: `T${i % 200}`,
      },
      at,
    );
    lines.push(exportLine(item));
  }
  return lines;
}

/**
 * Three-word queries of content words: ranks 100 to 3,000. In real text nearly all of the 100
 * most frequent words are function words, which engram drops as stopwords before searching.
 */
export function queries(count: number): string[] {
  const random = prng(11);
  const pick = () => VOCABULARY[100 + Math.floor(random() * 2900)] ?? '';
  return Array.from({ length: count }, () => `${pick()} ${pick()} ${pick()}`);
}

function cliTimes(db: string, args: string[], runs: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, [CLI, ...args, '--db', db], { stdio: 'ignore' });
    if (result.status !== 0) throw new Error(`engram ${args.join(' ')} exited ${result.status}`);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times;
}

export async function storeSuite(sizes: readonly number[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'engram-bench-'));
    try {
      const dbPath = join(dir, 'memory.db');
      const engram = await openEngram({ path: dbPath });
      const lines = syntheticLines(size);
      const importMs = await timeMsAsync(() => engram.importLines(lines));
      const puts = 1000;
      const putMs = await timeMsAsync(async () => {
        for (let i = 0; i < puts; i++)
          await engram.put({ content: `single put ${i} ${VOCABULARY.slice(i % 100, (i % 100) + 40).join(' ')}`, tags: ['bench'] });
      });
      const getTimes: number[] = [];
      for (let i = 0; i < 1000; i++) {
        const id = `MEM-${((i * 7919) % size).toString(16).padStart(12, '0')}`;
        getTimes.push(await timeMsAsync(() => engram.get({ id })));
      }
      const listTimes: number[] = [];
      const tagTimes: number[] = [];
      for (let i = 0; i < 200; i++) {
        listTimes.push(await timeMsAsync(() => engram.list({ limit: 50 })));
        tagTimes.push(
          await timeMsAsync(() =>
            engram.list({ tags: [`t${i % 50}`], layer: 'feature', limit: 20 }),
          ),
        );
      }
      const searchTimes: number[] = [];
      const recallTimes: number[] = [];
      for (const query of queries(200)) {
        searchTimes.push(await timeMsAsync(() => engram.search({ query, k: 10 })));
        recallTimes.push(await timeMsAsync(() => engram.recall({ query })));
      }
      // Every synthetic item is STM: the fold pass of `consolidate` (and of the automatic trigger) looks at all.
      const consolidateMs = await timeMsAsync(() => engram.consolidate({ dryRun: true }));
      const [cliQuery = ''] = queries(1);
      const cliSearch = cliTimes(dbPath, ['search', cliQuery], 15);
      const cliRecall = cliTimes(dbPath, ['recall', cliQuery], 15);
      rows.push({
        'suite': 'store',
        'case': `${size.toLocaleString('en')} items`,
        'import items/s': Math.round(size / (importMs / 1000)),
        'put/s (single)': Math.round(puts / (putMs / 1000)),
        'get p50 ms': round(quantile(getTimes, 0.5)),
        'get p95 ms': round(quantile(getTimes, 0.95)),
        'list p50 ms': round(quantile(listTimes, 0.5)),
        'list p95 ms': round(quantile(listTimes, 0.95)),
        'tag list p50 ms': round(quantile(tagTimes, 0.5)),
        'tag list p95 ms': round(quantile(tagTimes, 0.95)),
        'search p50 ms': round(quantile(searchTimes, 0.5)),
        'search p95 ms': round(quantile(searchTimes, 0.95)),
        'recall p50 ms': round(quantile(recallTimes, 0.5)),
        'recall p95 ms': round(quantile(recallTimes, 0.95)),
        'consolidate plan s': round(consolidateMs / 1000),
        'CLI search p50 ms': round(quantile(cliSearch, 0.5)),
        'CLI recall p50 ms': round(quantile(cliRecall, 0.5)),
        'rss MB': rssMb(),
      });
      engram.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

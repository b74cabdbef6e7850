/**
 * Vectors suite: semantic and hybrid search (and hybrid recall) latency in process at 10k and 100k
 * items, beside lexical search on the same store; the pass that fills the vectors (items/s); and
 * the size of the vec0 table per 100k items. The store is the store suite's synthetic items; the
 * embedder is a generated 256-dimension Model2Vec model whose vocabulary is those items' 5,000
 * words, so every item and query gets a real vector (its meaning is random: this measures cost,
 * not quality).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openEngram } from '../../src/index.js';
import { loadModel2Vec } from '../../src/embed/model2vec.js';
import { writeTestModel } from '../../test/model2vec-model.js';
import { quantile, type Row, rssMb, timeMsAsync } from '../stats.js';
import { queries, syntheticLines, VOCABULARY } from './store.js';

const SUITE = 'vectors (256-dim generated Model2Vec model, in process)';
const QUERIES = 200;

const round = (value: number) => Math.round(value * 1000) / 1000;

/** Bytes of the vec0 table and its shadow tables, read with dbstat. */
function vectorBytes(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    const sql = 'SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name LIKE \'memory_vectors%\'';
    return (db.prepare(sql).get() as { bytes: number | null }).bytes ?? 0;
  } finally {
    db.close();
  }
}

export async function vectorsSuite(sizes: readonly number[]): Promise<Row[]> {
  const rows: Row[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-vectors-'));
  try {
    const model = await writeTestModel(join(dir, 'model'), { dims: 256, words: VOCABULARY, vocabularySize: VOCABULARY.length });
    for (const size of sizes.filter((s) => s >= 10_000)) {
      const path = join(dir, `memory-${size}.db`);
      const embedder = await loadModel2Vec(model.dir);
      const engram = await openEngram({ path, embedder });
      try {
        await engram.importLines(syntheticLines(size));
        const embedMs = await timeMsAsync(() => engram.embed());
        const times: Record<'lexical' | 'semantic' | 'hybrid' | 'recall', number[]> = {
          lexical: [], semantic: [], hybrid: [], recall: [],
        };
        for (const query of queries(QUERIES)) {
          times.lexical.push(await timeMsAsync(() => engram.search({ query, k: 10, mode: 'lexical' })));
          times.semantic.push(await timeMsAsync(() => engram.search({ query, k: 10, mode: 'semantic' })));
          times.hybrid.push(await timeMsAsync(() => engram.search({ query, k: 10, mode: 'hybrid' })));
          times.recall.push(await timeMsAsync(() => engram.recall({ query, search_mode: 'hybrid' })));
        }
        const stats = await engram.stats();
        const row: Row = {
          'suite': SUITE,
          'case': `${size.toLocaleString('en')} items`,
          'embed pass items/s': Math.round(size / (embedMs / 1000)),
        };
        for (const [name, values] of Object.entries(times)) {
          const label = name === 'recall' ? 'hybrid recall' : `${name} search`;
          row[`${label} p50 ms`] = round(quantile(values, 0.5));
          row[`${label} p95 ms`] = round(quantile(values, 0.95));
        }
        row['vectors'] = stats.vectors?.vectors ?? 0;
        row['pending'] = stats.vectors?.pending ?? 0;
        rows.push(row);
      } finally {
        engram.close();
      }
      const bytes = vectorBytes(path);
      const last = rows.at(-1) as Row;
      last['vec0 MB'] = round(bytes / 1024 ** 2);
      last['vec0 MB per 100k'] = round((bytes / 1024 ** 2) * (100_000 / size));
      last['rss MB'] = rssMb();
      rmSync(path, { force: true });
      rmSync(`${path}-wal`, { force: true });
      rmSync(`${path}-shm`, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

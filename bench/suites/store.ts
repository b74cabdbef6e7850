/**
 * Store suite: batched import and single-put throughput, get and list latency (p50/p95), at
 * 1k, 10k and 100k items, with the process RSS. Items are synthetic but realistic in size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngram } from '../../src/index.js';
import { createItem, exportLine } from '../../src/items/build-item.js';
import { quantile, type Row, rssMb, timeMsAsync } from '../stats.js';

const WORDS
  = 'auth token cache schema index deploy retry budget latency queue shard lock vector recall policy'.split(
    ' ',
  );

function syntheticLines(count: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 60 }, (_, j) => WORDS[(i * 7 + j * 13) % WORDS.length]).join(
      ' ',
    );
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

export async function storeSuite(sizes: readonly number[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'engram-bench-'));
    try {
      const engram = await openEngram({ path: join(dir, 'memory.db') });
      const lines = syntheticLines(size);
      const importMs = await timeMsAsync(() => engram.importLines(lines));
      const puts = 1000;
      const putMs = await timeMsAsync(async () => {
        for (let i = 0; i < puts; i++)
          await engram.put({ content: `single put ${i} ${WORDS.join(' ')}`, tags: ['bench'] });
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

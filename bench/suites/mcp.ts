/**
 * MCP suite: the tool-call latency an agent sees — `memory_recall` and `memory_search` through the
 * SDK client over stdio against `engram serve` on a 10,000-item store (rate limiting off, as a
 * benchmark is not an agent).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openEngram } from '../../src/index.js';
import { quantile, type Row, timeMsAsync } from '../stats.js';
import { CLI, queries, syntheticLines } from './store.js';

const round = (n: number) => Math.round(n * 1000) / 1000;

export async function mcpSuite(size = 10_000): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-mcp-'));
  try {
    const db = join(dir, 'memory.db');
    const seed = await openEngram({ path: db });
    await seed.importLines(syntheticLines(size));
    seed.close();
    const client = new Client({ name: 'engram-bench', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--db', db, '--no-rate-limit'] }));
    const rows: Row[] = [];
    try {
      for (const name of ['memory_recall', 'memory_search'] as const) {
        const times: number[] = [];
        for (const query of queries(300)) {
          times.push(await timeMsAsync(() => client.callTool({ name, arguments: { query } })));
        }
        rows.push({
          'suite': 'mcp',
          'case': `${name} over stdio, ${size.toLocaleString('en')} items`,
          'calls': times.length,
          'p50 ms': round(quantile(times, 0.5)),
          'p95 ms': round(quantile(times, 0.95)),
        });
      }
    } finally {
      await client.close();
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

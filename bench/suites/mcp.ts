/**
 * MCP suite: what `tools/list` costs every agent session before its first question — the total
 * JSON characters of the tools array of `engram serve` (the default profile) and `engram serve
 * --tools all`, each beside its bound (10,000 and 20,000), and of the part a model reads (name,
 * description, input schema); then the tool-call latency an agent sees — `memory_recall` and
 * `memory_search` through the SDK client over stdio against `engram serve` on a 10,000-item store
 * (rate limiting off, as a benchmark is not an agent).
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

/** The profiles measured, with the bound each `tools/list` must stay within (issue 18). */
const PROFILES = [
  { name: 'default', args: [], bound: 10_000 },
  { name: 'all', args: ['--tools', 'all'], bound: 20_000 },
] as const;

/** `tools/list` of each profile through the SDK client: its size in JSON characters beside its bound. */
async function toolListRows(db: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const profile of PROFILES) {
    const client = new Client({ name: 'engram-bench', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--db', db, ...profile.args] }));
    try {
      const { tools } = await client.listTools();
      const chars = JSON.stringify(tools).length;
      const read = JSON.stringify(tools.map((t) => [t.name, t.description, t.inputSchema])).length;
      rows.push({
        'suite': 'mcp',
        'case': `tools/list, ${profile.name === 'default' ? 'engram serve' : 'engram serve --tools all'} (${tools.length} tools)`,
        'chars': chars,
        'bound': profile.bound,
        'within': chars <= profile.bound ? 'yes' : 'NO',
        'name+description+input chars': read,
        'instructions chars': client.getInstructions()?.length ?? 0,
      });
    } finally {
      await client.close();
    }
  }
  return rows;
}

export async function mcpSuite(size = 10_000): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-mcp-'));
  try {
    const db = join(dir, 'memory.db');
    const seed = await openEngram({ path: db });
    await seed.importLines(syntheticLines(size));
    seed.close();
    const rows: Row[] = await toolListRows(db);
    const client = new Client({ name: 'engram-bench', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--db', db, '--no-rate-limit'] }));
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

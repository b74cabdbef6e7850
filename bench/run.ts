/**
 * `npm run bench`: runs every suite, prints one table per suite, and writes the rows as JSON to
 * bench/results/<timestamp>.json. `BENCH_SIZES=1000,10000` limits the store sizes;
 * `BENCH_SUITES=policy,store` runs only those suites (startup, policy, corpus, precision, store, ingest,
 * scifact, locomo, mcp, embed, vectors, hooks, cli, tokens, memory).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Row } from './stats.js';
import { startupSuite } from './suites/startup.js';
import { ingestSuite } from './suites/ingest.js';
import { mcpSuite } from './suites/mcp.js';
import { policySuite } from './suites/policy.js';
import { precisionSuite } from './suites/policy-precision.js';
import { corpusRows } from './suites/policy-corpus.js';
import { benignCases } from '../test/adversarial/benign.js';
import { injectionCases } from '../test/adversarial/injections.js';
import { secretCases } from '../test/adversarial/secrets.js';
import { locomoSuite, scifactSuite } from './suites/quality.js';
import { storeSuite } from './suites/store.js';
import { embedSuite } from './suites/embed.js';
import { vectorsSuite } from './suites/vectors.js';
import { hooksSuite } from './suites/hooks.js';
import { tokensSuite } from './suites/tokens.js';
import { memorySuite } from './suites/memory.js';
import { cliSuite } from './suites/cli.js';

function printTable(rows: Row[]): void {
  if (rows.length === 0) return;
  // Every column any row has, in the order they first appear (a suite's rows may measure different things).
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((c) => c !== 'suite');
  const widths = columns.map((c) =>
    Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(`\n### ${rows[0]?.suite}\n`);
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(columns.map((c) => String(row[c] ?? ''))));
}

const sizes = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const machine = {
  node: process.version,
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memory_gb: Math.round(totalmem() / 1024 ** 3),
  platform: `${process.platform} ${process.arch}`,
};
console.log(
  `engram bench — node ${machine.node}, ${machine.cores} × ${machine.cpu}, ${machine.memory_gb} GiB`,
);

const suites: Record<string, () => Row[] | Promise<Row[]>> = {
  startup: () => startupSuite(),
  policy: () => policySuite(),
  precision: () => precisionSuite(),
  corpus: () => corpusRows(secretCases(), injectionCases(), benignCases()),
  store: () => storeSuite(sizes),
  ingest: () => ingestSuite(),
  scifact: () => scifactSuite(),
  locomo: () => locomoSuite(),
  mcp: () => mcpSuite(),
  embed: () => embedSuite(),
  vectors: () => vectorsSuite(sizes),
  hooks: () => hooksSuite(),
  cli: () => cliSuite(),
  tokens: () => tokensSuite(),
  memory: () => memorySuite(sizes),
};
const selected = (process.env.BENCH_SUITES ?? Object.keys(suites).join(',')).split(',');
const results: Row[] = [];
for (const name of selected) {
  const suite = suites[name];
  if (suite === undefined) throw new Error(`unknown suite ${name}; known: ${Object.keys(suites).join(', ')}`);
  const rows = await suite();
  printTable(rows);
  results.push(...rows);
}

const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
mkdirSync(dir, { recursive: true });
const file = `${dir}${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
writeFileSync(file, `${JSON.stringify({ machine, results }, null, 2)}\n`);
console.log(`\nwrote ${file}`);

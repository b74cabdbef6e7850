/**
 * Memory suite: the peak RSS of the commands that read the whole store — `consolidate` (its plan,
 * a real run, and the host model's candidates: one batch, and every group counted), `reindex`,
 * `export` and `embed` — each run as its own CLI process on a fresh copy of a generated store (the
 * store suite's synthetic items, one in fifty with a twin that consolidation folds), beside the
 * bound they must stay under. The peak is reported by the
 * process itself at exit (rss-report.ts, preloaded with `node --import`).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEngram } from '../../src/index.js';
import { writeTestModel } from '../../test/model2vec-model.js';
import type { Row } from '../stats.js';
import { CLI, syntheticLines } from './store.js';

const REPORT = fileURLToPath(new URL('../rss-report.js', import.meta.url));
/** The documented bound on a whole-store command's peak RSS. */
export const RSS_BOUND_MB = 300;

/** The synthetic lines, and a twin (same fields, its own id, created later) of one in fifty. */
function linesWithTwins(size: number): string[] {
  const lines = syntheticLines(size);
  const twins = lines.filter((_, i) => i % 50 === 0).map((line, k) => {
    const item = JSON.parse(line) as Record<string, unknown>;
    const at = new Date(Date.UTC(2026, 6, 1) + k * 1000).toISOString();
    return JSON.stringify({ ...item, id: `MEM-f${k.toString(16).padStart(11, '0')}`, created_at: at, updated_at: at });
  });
  return [...lines, ...twins];
}

/** Runs `engram args` on a fresh copy of `store`; its wall time and peak RSS. */
function measure(store: string, dir: string, args: string[]): { seconds: number; rssMb: number } {
  const db = join(dir, 'run.db');
  rmSync(`${db}-wal`, { force: true });
  rmSync(`${db}-shm`, { force: true });
  copyFileSync(store, db);
  const rssFile = join(dir, 'rss.txt');
  rmSync(rssFile, { force: true });
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ['--import', REPORT, CLI, ...args, '--db', db], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, ENGRAM_BENCH_RSS_FILE: rssFile },
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (result.status !== 0) throw new Error(`engram ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { seconds, rssMb: Math.round(Number(readFileSync(rssFile, 'utf8')) / 1024) };
}

export async function memorySuite(sizes: readonly number[]): Promise<Row[]> {
  const size = Math.max(...sizes);
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-memory-'));
  try {
    const store = join(dir, 'memory.db');
    const engram = await openEngram({ path: store });
    const lines = linesWithTwins(size);
    await engram.importLines(lines);
    engram.close();
    const model = join(dir, 'model');
    await writeTestModel(model, { dims: 256 });
    const runs: [string, string[]][] = [
      ['consolidate --dry-run', ['consolidate', '--dry-run']],
      ['consolidate', ['consolidate']],
      ['reindex', ['reindex']],
      ['export', ['export']],
      // One batch (the default 10 groups), and every group counted (the clusters to merge found).
      ['consolidate --candidates', ['consolidate', '--candidates']],
      ['consolidate --candidates --limit 0', ['consolidate', '--candidates', '--limit', '0']],
      ['embed (Model2Vec, 256 dims)', ['--embedder', `model2vec:${model}`, 'embed']],
    ];
    const baseline = spawnSync(process.execPath, ['--import', REPORT, '-e', '0'], {
      env: { ...process.env, ENGRAM_BENCH_RSS_FILE: join(dir, 'rss.txt') },
    });
    const nodeMb = baseline.status === 0 ? Math.round(Number(readFileSync(join(dir, 'rss.txt'), 'utf8')) / 1024) : NaN;
    return runs.map(([name, args]) => {
      const { seconds, rssMb } = measure(store, dir, args);
      return {
        'suite': 'memory (whole-store commands, one process each)',
        'case': name,
        'items': lines.length,
        'seconds': Math.round(seconds * 10) / 10,
        'peak RSS MB': rssMb,
        'node -e 0 MB': nodeMb,
        'bound MB': RSS_BOUND_MB,
        'within': rssMb <= RSS_BOUND_MB ? 'yes' : 'NO',
      };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

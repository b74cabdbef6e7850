/**
 * CLI suite: start-to-finish wall time of `list`, `search`, `recall` and `put` on a store of
 * 10,000 items, each in its own process (`ENGRAM_DAEMON=off`) and through `engram daemon`
 * (started for the suite in a folder of its own), runs interleaved with `node -e 0` so that
 * machine noise hits all alike. Goal: each ≤ 1.5× `node -e 0`. With MEMCTL_BIN set to a memctl
 * command (`MEMCTL_BIN=memctl`), memctl runs beside them on the same items (ingested from one file
 * each with `push --source`): `search`, `push QUERY` (its recall) and `pull` (its put) are timed in
 * the same interleaved rounds.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngram } from '../../src/index.js';
import { quantile, type Row } from '../stats.js';
import { CLI, queries, syntheticLines } from './store.js';

export async function cliSuite(size = 10_000, runs = 21): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-cli-'));
  const daemonDir = join(dir, 'daemon');
  const cold = { ...process.env, ENGRAM_DAEMON: 'off' };
  const warm = { ...process.env, ENGRAM_DAEMON: 'on', ENGRAM_DAEMON_DIR: daemonDir };
  try {
    const db = join(dir, 'memory.db');
    const engram = await openEngram({ path: db });
    await engram.importLines(syntheticLines(size));
    engram.close();
    const started = spawnSync(process.execPath, [CLI, 'daemon', 'start'], { env: warm, encoding: 'utf8' });
    if (started.status !== 0) throw new Error(`daemon start failed: ${started.stderr}`);
    const asked = queries(runs);
    const commands: Record<string, (i: number) => string[]> = {
      list: () => ['list'],
      search: (i) => ['search', asked[i] ?? 'x'],
      recall: (i) => ['recall', asked[i] ?? 'x'],
      put: (i) => ['put', '--content', `Bench note ${i}: ${asked[i] ?? ''}`],
    };
    const cases: Record<string, { args: (i: number) => string[]; env: NodeJS.ProcessEnv }> = {
      'node -e 0': { args: () => ['-e', '0'], env: cold },
    };
    for (const [name, args] of Object.entries(commands)) {
      cases[name] = { args: (i) => [CLI, '--db', db, ...args(i)], env: cold };
      cases[`${name} (daemon)`] = { args: (i) => [CLI, '--db', db, ...args(i)], env: warm };
    }
    const memctl = process.env.MEMCTL_BIN?.split(' ').filter((w) => w !== '');
    if (memctl !== undefined && memctl.length > 0) Object.assign(cases, memctlCases(memctl, dir, size, asked));
    const times = new Map<string, number[]>(Object.keys(cases).map((k) => [k, []]));
    for (let i = 0; i < runs; i++) {
      for (const [name, { args, env }] of Object.entries(cases)) {
        const start = process.hrtime.bigint();
        const [command, ...rest] = name.startsWith('memctl') ? args(i) : [process.execPath, ...args(i)];
        const input = name === 'memctl pull' ? `Bench note ${i}: ${asked[i] ?? ''}\n` : undefined;
        const result = spawnSync(command ?? '', rest, { env, input, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
        if (result.status !== 0) throw new Error(`${name} exited ${result.status}: ${String(result.stderr)}`);
        times.get(name)?.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }
    const status = spawnSync(process.execPath, [CLI, 'daemon', 'status', '--json'], { env: warm, encoding: 'utf8' });
    const served = (JSON.parse(status.stdout) as { daemon?: { commands: number } }).daemon?.commands ?? 0;
    if (served < runs * Object.keys(commands).length) throw new Error(`the daemon ran ${served} commands only`);
    const baseline = quantile(times.get('node -e 0') ?? [], 0.5);
    return [...times].map(([name, values]) => ({
      'suite': `cli (${size.toLocaleString('en')} items, ${runs} interleaved runs)`,
      'case': name,
      'median ms': Math.round(quantile(values, 0.5) * 10) / 10,
      'p95 ms': Math.round(quantile(values, 0.95) * 10) / 10,
      'x node -e 0': Math.round((quantile(values, 0.5) / baseline) * 100) / 100,
    }));
  } finally {
    spawnSync(process.execPath, [CLI, 'daemon', 'stop'], { env: warm });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** memctl's store of the same items (one file each, ingested by `push --source`) and its commands. */
function memctlCases(
  memctl: string[],
  dir: string,
  size: number,
  asked: readonly string[],
): Record<string, { args: (i: number) => string[]; env: NodeJS.ProcessEnv }> {
  const home = join(dir, 'memctl');
  const db = join(home, 'memory.db');
  const files = join(dir, 'memctl-items');
  mkdirSync(files);
  syntheticLines(size).forEach((line, i) => {
    writeFileSync(join(files, `item${i}.txt`), (JSON.parse(line) as { content: string }).content);
  });
  const [bin, ...pre] = memctl;
  const run = (args: string[]) => {
    const result = spawnSync(bin ?? '', [...pre, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (result.status !== 0) throw new Error(`memctl ${args[0]} failed: ${result.stderr}`);
  };
  run(['init', home]);
  run(['push', 'seed', '--source', files, '--db', db, '-q']);
  const env = { ...process.env };
  return {
    'memctl search': { args: (i) => [bin ?? '', ...pre, 'search', asked[i] ?? 'x', '--db', db], env },
    'memctl push (recall)': { args: (i) => [bin ?? '', ...pre, 'push', asked[i] ?? 'x', '--db', db], env },
    'memctl pull': { args: () => [bin ?? '', ...pre, 'pull', '--db', db], env },
  };
}

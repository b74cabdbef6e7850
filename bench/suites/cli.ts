/**
 * CLI suite: start-to-finish wall time of `list`, `search`, `recall`, `put` and the prompt hook on
 * a store of 10,000 items, each in its own process (`ENGRAM_DAEMON=off`) and through `engram
 * daemon` (started for the suite in a folder of its own), runs interleaved with `node -e 0` so
 * that machine noise hits all alike. Goal: each ≤ 1.5× `node -e 0`. With MEMCTL_BIN set to a
 * memctl command (`MEMCTL_BIN=memctl`), memctl runs beside them on the same items (ingested from
 * one file each with `push --source`): `search`, `push QUERY` (its recall) and `pull` (its put)
 * are timed in the same interleaved rounds.
 *
 * A second anchor runs beside `node -e 0`: node, the SQLite driver and one write to the same store
 * (open it as engram does, insert one row in a transaction, close), nothing of engram. It is what
 * a `put` costs at the least, whatever engram's own code does.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngram } from '../../src/index.js';
import { quantile, type Row } from '../stats.js';
import { CLI, queries, syntheticLines } from './store.js';

/**
 * The floor of a write (`node -e FLOOR_WRITE DRIVER DB`): better-sqlite3 loaded, the store opened
 * with engram's pragmas, one row inserted into a table of its own in a transaction, closed.
 */
const FLOOR_WRITE = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2]);
db.pragma('busy_timeout = 5000');
db.pragma('journal_mode = WAL');
db.pragma('foreign_keys = ON');
db.pragma('secure_delete = ON');
db.pragma('synchronous = NORMAL');
db.transaction(() => db.prepare('INSERT INTO bench_floor (at) VALUES (?)').run(new Date().toISOString()))();
db.close();
`;

/** One timed command: the program (node unless said), its arguments and environment, and its stdin. */
interface Case {
  command?: string;
  args: (i: number) => string[];
  env: NodeJS.ProcessEnv;
  input?: (i: number) => string;
}

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
    const prompt = (i: number) =>
      JSON.stringify({ session_id: 'bench', cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: asked[i] ?? 'x' });
    const commands: Record<string, Omit<Case, 'env'>> = {
      'list': { args: () => ['list'] },
      'search': { args: (i) => ['search', asked[i] ?? 'x'] },
      'recall': { args: (i) => ['recall', asked[i] ?? 'x'] },
      'put': { args: (i) => ['put', '--content', `Bench note ${i}: ${asked[i] ?? ''}`] },
      'hook prompt-submit': { args: () => ['hook', 'prompt-submit'], input: prompt },
    };
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    runFloor(driver, db, 'CREATE TABLE IF NOT EXISTS bench_floor (at TEXT NOT NULL)');
    const cases: Record<string, Case> = {
      'node -e 0': { args: () => ['-e', '0'], env: cold },
      'floor: node + SQLite write': { args: () => ['-e', FLOOR_WRITE, driver, db], env: cold },
    };
    for (const [name, { args, input }] of Object.entries(commands)) {
      const line = (i: number) => [CLI, '--db', db, ...args(i)];
      cases[name] = { args: line, env: cold, input };
      cases[`${name} (daemon)`] = { args: line, env: warm, input };
    }
    const memctl = process.env.MEMCTL_BIN?.split(' ').filter((w) => w !== '');
    if (memctl !== undefined && memctl.length > 0) Object.assign(cases, memctlCases(memctl, dir, size, asked));
    const times = new Map<string, number[]>(Object.keys(cases).map((k) => [k, []]));
    for (let i = 0; i < runs; i++) {
      for (const [name, { args, env, input, command = process.execPath }] of Object.entries(cases)) {
        const start = process.hrtime.bigint();
        const result = spawnSync(command, args(i), { env, input: input?.(i) ?? '', stdio: ['pipe', 'pipe', 'pipe'] });
        if (result.status !== 0) throw new Error(`${name} exited ${result.status}: ${String(result.stderr)}`);
        if (name.startsWith('hook') && result.stdout.length === 0) throw new Error(`${name} said nothing`);
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

/** Runs one statement on the store with the driver alone (the floor's table). */
function runFloor(driver: string, db: string, sql: string): void {
  const code = `const Database = require(process.argv[1]); const db = new Database(process.argv[2]); db.exec(process.argv[3]); db.close();`;
  const result = spawnSync(process.execPath, ['-e', code, driver, db, sql], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`floor setup failed: ${result.stderr}`);
}

/** memctl's store of the same items (one file each, ingested by `push --source`) and its commands. */
function memctlCases(
  memctl: string[],
  dir: string,
  size: number,
  asked: readonly string[],
): Record<string, Case> {
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
  const command = bin ?? '';
  return {
    'memctl search': { command, args: (i) => [...pre, 'search', asked[i] ?? 'x', '--db', db], env },
    'memctl push (recall)': { command, args: (i) => [...pre, 'push', asked[i] ?? 'x', '--db', db], env },
    'memctl pull': { command, args: () => [...pre, 'pull', '--db', db], env, input: (i) => `Bench note ${i}: ${asked[i] ?? ''}\n` },
  };
}

/** Shared helpers for integration tests: temp dirs and running the built CLI as a real process. */
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const POLICY_FIXTURES = join(here, '..', '..', 'test', 'fixtures', 'policy');
/** The CLI as it ships: the bundle `npm run build` writes (tests run from dist/test). */
export const CLI = join(here, '..', 'bundle', 'engram.js');

/** A fresh temporary directory, removed when the test ends. */
export function tempDir(t: { after: (fn: () => void) => void }, prefix = 'engram-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (undefined when it is not one JSON document). */
  json: Record<string, unknown> | undefined;
  /** stderr parsed as JSON (the error object in JSON mode). */
  error: Record<string, unknown> | undefined;
}

function tryJson(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export interface CliOptions {
  cwd?: string;
  input?: string;
  env?: Record<string, string | undefined>;
}

function baseEnv(options: CliOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith('ENGRAM_') && !(options.env && key in options.env)) delete env[key];
  }
  env.HOME = options.env?.HOME ?? options.cwd ?? env.HOME;
  // A daemon the developer runs never answers a test's commands (test/daemon.test.ts starts its own).
  if (!(options.env && 'ENGRAM_DAEMON' in options.env)) env.ENGRAM_DAEMON = 'off';
  return env;
}

function toRun(result: SpawnSyncReturns<string>): CliRun {
  return {
    code: result.status ?? -1,
    stdout: result.stdout,
    stderr: result.stderr,
    json: tryJson(result.stdout),
    error: tryJson(result.stderr),
  };
}

/** Runs `engram ARGS` to completion; stdin is `input` (or empty), never a terminal. */
export function cli(args: string[], options: CliOptions = {}): CliRun {
  return toRun(
    spawnSync(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      input: options.input ?? '',
      env: baseEnv(options),
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
    }),
  );
}

/** Runs `node ARGS` asynchronously (workers and CLI processes that must overlap in time). */
export function nodeAsync(args: string[], options: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: baseEnv(options) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code: code ?? -1, stdout, stderr, json: tryJson(stdout), error: tryJson(stderr) }),
    );
    child.stdin.end(options.input ?? '');
  });
}

export interface PolicyCase {
  group: string;
  expect: 'accept' | 'quarantine' | 'reject';
  text: string;
  note?: string;
  /** For secrets: the part that must never be echoed. */
  secret?: string;
}

/** A policy corpus from test/fixtures/policy/ (hostile text lives there only, never in a test). */
export function policyCorpus(name: 'adversarial.jsonl' | 'benign.jsonl'): PolicyCase[] {
  return readFileSync(join(POLICY_FIXTURES, name), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as PolicyCase);
}

/** The text of one adversarial case, by group and a pattern on its note. */
export function hostile(group: string, note: RegExp): string {
  const found = policyCorpus('adversarial.jsonl').find((c) => c.group === group && note.test(c.note ?? ''));
  if (found === undefined) throw new Error(`no adversarial fixture ${group} ${note}`);
  return found.text;
}

/** A small deterministic random source (mulberry32): floats in [0, 1), so that a failure can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Hooks suite: start-to-finish wall time of `engram hook session-start` and `engram hook
 * prompt-submit` (a recorded payload on stdin) on a store of 10,000 items, runs interleaved with
 * `node -e 0` so that machine noise hits all alike. Goal: session-start ≤ 150 ms at 10k items.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngram } from '../../src/index.js';
import { quantile, type Row } from '../stats.js';
import { CLI, queries, syntheticLines } from './store.js';

export async function hooksSuite(size = 10_000, runs = 25): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-hooks-'));
  try {
    const db = join(dir, 'memory.db');
    const engram = await openEngram({ path: db });
    await engram.importLines(syntheticLines(size));
    engram.close();
    const payload = (extra: Record<string, string>) => JSON.stringify({ session_id: 'bench', cwd: dir, ...extra });
    const cases: Record<string, { args: string[]; input: string }> = {
      'node -e 0': { args: ['-e', '0'], input: '' },
      'hook session-start': { args: [CLI, '--db', db, 'hook', 'session-start'], input: payload({ hook_event_name: 'SessionStart' }) },
      'hook prompt-submit': {
        args: [CLI, '--db', db, 'hook', 'prompt-submit'],
        input: payload({ hook_event_name: 'UserPromptSubmit', prompt: queries(1)[0] ?? '' }),
      },
    };
    const times = new Map<string, number[]>(Object.keys(cases).map((k) => [k, []]));
    for (let i = 0; i < runs; i++) {
      for (const [name, { args, input }] of Object.entries(cases)) {
        const start = process.hrtime.bigint();
        const result = spawnSync(process.execPath, args, { input, stdio: ['pipe', 'pipe', 'ignore'] });
        if (result.status !== 0) throw new Error(`${name} exited ${result.status}`);
        if (name !== 'node -e 0' && result.stdout.length === 0) throw new Error(`${name} said nothing`);
        times.get(name)?.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }
    const baseline = quantile(times.get('node -e 0') ?? [], 0.5);
    return [...times].map(([name, values]) => ({
      'suite': `hooks (${size.toLocaleString('en')} items)`,
      'case': name,
      'median ms': Math.round(quantile(values, 0.5) * 10) / 10,
      'p95 ms': Math.round(quantile(values, 0.95) * 10) / 10,
      'x node -e 0': Math.round((quantile(values, 0.5) / baseline) * 100) / 100,
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

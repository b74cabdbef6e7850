/**
 * Start-up suite: median wall time of `engram --version` and `engram --help` against `node -e 0`,
 * runs interleaved so that machine noise hits all three alike.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { quantile, type Row } from '../stats.js';

const CLI = fileURLToPath(new URL('../../bundle/engram.js', import.meta.url));

export function startupSuite(runs = 40): Row[] {
  const cases: Record<string, string[]> = {
    'node -e 0': ['-e', '0'],
    'engram --version': [CLI, '--version'],
    'engram --help': [CLI, '--help'],
    'engram put --help': [CLI, 'put', '--help'],
  };
  const times = new Map<string, number[]>(Object.keys(cases).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (const [name, args] of Object.entries(cases)) {
      const start = process.hrtime.bigint();
      const result = spawnSync(process.execPath, args, { stdio: 'ignore' });
      if (result.status !== 0) throw new Error(`${name} exited ${result.status}`);
      times.get(name)?.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  const baseline = quantile(times.get('node -e 0') ?? [], 0.5);
  return [...times].map(([name, values]) => {
    const median = quantile(values, 0.5);
    return {
      'suite': 'startup',
      'case': name,
      'median ms': Math.round(median * 10) / 10,
      'p95 ms': Math.round(quantile(values, 0.95) * 10) / 10,
      'x node -e 0': Math.round((median / baseline) * 100) / 100,
    };
  });
}

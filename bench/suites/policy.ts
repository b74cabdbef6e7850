/**
 * Policy suite: how long the write policy takes on a 2,000-character text (the content limit),
 * median and p95 over many runs, for prose, code, Chinese and a text full of near-misses
 * (hashes, URLs, numbers) that make the rules work hardest.
 */
import { checkPolicy } from '../../src/index.js';
import { quantile, type Row } from '../stats.js';

const SAMPLES: Record<string, string> = {
  'English prose': 'The deploy pipeline runs on every merge to main. Migrations are applied before the new version starts, and the old one keeps serving until health checks pass; the on-call engineer is paged on failure. ',
  'TypeScript code': 'export async function login(user: string, password: string): Promise<Session> {\n  const token = await auth.issue(user, { ttl: 3600 });\n  return { user, token, expires: Date.now() + 3_600_000 };\n}\n',
  'Chinese': '密码至少8位，必须包含数字和字母。登录失败超过5次后锁定15分钟。数据库使用PostgreSQL，部署在华东区域。',
  'near-misses': 'commit 3f2a9c1d4e5b6a7f8091a2b3c4d5e6f708192a3b at 2026-11-22T10:00:00.000Z, build 1234567890, see https://github.com/acme/engram/blob/main/README.md, image sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08, request 123e4567-e89b-12d3-a456-426614174000 v4.12.0 ',
};

export function policySuite(runs = 3000): Row[] {
  return Object.entries(SAMPLES).map(([name, sample]) => {
    const text = sample.repeat(Math.ceil(2000 / sample.length)).slice(0, 2000);
    for (let i = 0; i < 200; i++) checkPolicy({ content: text });
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = process.hrtime.bigint();
      const verdict = checkPolicy({ content: text });
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (verdict.verdict !== 'accept') throw new Error(`${name}: ${verdict.matches.map((m) => m.rule).join(', ')}`);
    }
    return {
      'suite': 'policy (2,000 characters)',
      'case': name,
      'median ms': Math.round(quantile(times, 0.5) * 1000) / 1000,
      'p95 ms': Math.round(quantile(times, 0.95) * 1000) / 1000,
    };
  });
}

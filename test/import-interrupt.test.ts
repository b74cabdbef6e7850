/**
 * Ctrl-C during `engram import --from`: the run writes the batch it holds, stops, says so on
 * stderr and exits 130; what it committed stays, and the same command run again finishes.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { CLI, cli, tempDir } from './helpers.js';
import { importFrom } from './import-helpers.js';

const TIMEOUT = { timeout: 600_000 };
const line = (i: number) => `${JSON.stringify({ id: `u${i}`, type: 'project', content: `Memory number ${i} of the pipe` })}\n`;

function count(db: string): number {
  if (!existsSync(db)) return 0;
  try {
    const raw = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return (raw.prepare('SELECT count(*) AS n FROM memory_items').get() as { n: number }).n;
    } finally {
      raw.close();
    }
  } catch {
    return 0;
  }
}

test('SIGINT: stops after the current batch, one stderr line, exit 130; a re-run finishes', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-import-interrupt-');
  const db = join(dir, 'memory.db');
  const child = spawn(process.execPath, [CLI, '--db', db, 'import', '--from', 'memtool', '-', '--json'], {
    env: { ...process.env, HOME: dir, ENGRAM_DB: undefined },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  // One full batch (500) and some: the first batch is committed while the pipe stays open.
  for (let i = 0; i < 600; i++) child.stdin.write(line(i));
  const deadline = Date.now() + 300_000;
  while (count(db) < 500 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  assert.ok(count(db) >= 500, 'the first batch was committed');
  child.kill('SIGINT');
  await new Promise((r) => setTimeout(r, 500));
  for (let i = 600; i < 700; i++) child.stdin.write(line(i));
  child.stdin.end();
  const code = await closed;
  assert.equal(code, 130, stderr);
  assert.match(stderr, /interrupted after \d+ records; run the same command again to finish/);
  const report = JSON.parse(stdout) as { interrupted?: boolean; created: number };
  assert.equal(report.interrupted, true);
  assert.equal(count(db), report.created, 'what the report counts is committed');
  assert.ok(report.created < 700);

  const all = Array.from({ length: 700 }, (_, i) => line(i)).join('');
  const again = importFrom(db, 'memtool', '-', [], { input: all });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.report.created + again.report.unchanged, 700);
  assert.equal(count(db), 700);
  assert.equal(cli(['--db', db, 'doctor', '--json']).code, 0);
});

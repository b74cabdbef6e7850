/**
 * `--file PATH` (read-input.ts): a regular file is read at once; a FIFO waits for its writer
 * without holding the thread, so that a daemon running the command still answers its controls
 * and signals meanwhile.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { EngramError } from '../errors.js';
import type { CliContext } from './context.js';
import { readFileOrStdin } from './read-input.js';

/** Only `-` reads the context's stdin; a named file needs none of it. */
const ctx = {} as CliContext;

test('a named FIFO is read while timers keep running (its writer comes two seconds later)', async (t) => {
  if (process.platform === 'win32') return t.skip('no FIFOs');
  const dir = mkdtempSync(join(tmpdir(), 'engram-read-input-'));
  try {
    const fifo = join(dir, 'input.fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', 'sleep 2; printf "from the pipe\\n" > "$1"', 'sh', fifo], { stdio: 'ignore' });
    const exited = new Promise((resolve) => writer.once('exit', resolve));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 50);
    try {
      assert.equal(await readFileOrStdin(fifo, ctx), 'from the pipe\n');
    } finally {
      clearInterval(timer);
    }
    await exited;
    assert.ok(ticks >= 5, `the timer ran ${ticks} times while the FIFO waited for its writer`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a regular file is read whole; a folder or a missing path is PARAM_ERROR naming it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-read-input-'));
  try {
    const file = join(dir, 'note.txt');
    writeFileSync(file, 'a note\n');
    assert.equal(await readFileOrStdin(file, ctx), 'a note\n');
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    for (const [path, code] of [[folder, 'EISDIR'], [join(dir, 'missing.txt'), 'ENOENT']] as const) {
      await assert.rejects(readFileOrStdin(path, ctx), (error: unknown) => {
        assert.ok(error instanceof EngramError);
        assert.equal(error.code, 'PARAM_ERROR');
        assert.equal(error.message, `Cannot read file ${path} (${code})`);
        return true;
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

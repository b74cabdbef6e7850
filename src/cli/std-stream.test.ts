/**
 * Standard output and error written straight to the file descriptor (std-stream.ts): every byte
 * in order however the pipe takes them, node's own stream made only when something else is asked
 * of it, and writes after that going through it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { writeAll } from './std-stream.js';

const MODULE = fileURLToPath(new URL('./std-stream.js', import.meta.url));

test('writeAll writes every byte in order through short writes and a full non-blocking pipe (EAGAIN)', () => {
  const bytes = Buffer.from('x'.repeat(1000) + 'y'.repeat(1000));
  const written: Buffer[] = [];
  let calls = 0;
  writeAll(1, bytes, ((fd: number, data: Uint8Array, offset: number, length: number) => {
    calls++;
    if (calls % 3 === 0) throw Object.assign(new Error('busy'), { code: 'EAGAIN' });
    const n = Math.min(length, 300);
    written.push(Buffer.from(data.subarray(offset, offset + n)));
    return n;
  }) as never);
  assert.equal(Buffer.concat(written).toString(), bytes.toString());
  assert.ok(calls > 7);
  const broken = Object.assign(new Error('closed'), { code: 'EBADF' });
  assert.throws(() => writeAll(1, bytes, (() => {
    throw broken;
  }) as never), broken);
});

test('piped, writes skip node\'s stream until something else is asked of it; then they go through it, in order', () => {
  const script = `
    let made = false;
    const own = Object.getOwnPropertyDescriptor(process, 'stdout');
    Object.defineProperty(process, 'stdout', { get() { made = true; return own.get.call(process); } });
    const { stdStream } = await import(${JSON.stringify(MODULE)});
    const out = stdStream(1, () => process.stdout, () => process.exit(7));
    out.write('one ');
    await new Promise((resolve) => out.write('two ', resolve));
    const before = made;
    out.write(Buffer.from('three '));
    if (out.isTTY !== false || out.columns !== undefined || made) process.exit(3);
    out.once('finish', () => {});
    out.write('four\\n');
    process.stderr.write(JSON.stringify({ before, after: made }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, 'one two three four\n');
  assert.deepEqual(JSON.parse(run.stderr), { before: false, after: true });
});

test('a reader that went away (EPIPE) goes to `handled` instead of failing the write', () => {
  const script = `
    const { stdStream } = await import(${JSON.stringify(MODULE)});
    const out = stdStream(1, () => process.stdout, (error) => { process.stderr.write(error.code); process.exit(0); });
    for (let i = 0; i < 1000; i++) out.write('x'.repeat(10000) + '\\n');
    process.exit(5);
  `;
  const run = spawnSync('bash', ['-c', 'set -o pipefail; "$0" --input-type=module -e "$1" | head -c 1 >/dev/null', process.execPath, script], {
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, 'EPIPE');
});

test('a write `handled` does not take fails as it would have: thrown, or given to its callback', () => {
  const script = `
    const { stdStream } = await import(${JSON.stringify(MODULE)});
    const seen = [];
    const err = stdStream(2, () => process.stderr, (error) => { seen.push(error.code); return seen.length > 1; });
    let thrown;
    try { err.write('lost\\n'); } catch (error) { thrown = error.code; }
    err.write('dropped\\n');
    const called = await new Promise((resolve) => stdStream(2, () => process.stderr, () => false).write('x', resolve));
    process.stdout.write(JSON.stringify({ seen, thrown, called: called?.code }));
  `;
  // Standard error opened read-only: every write to it fails (EBADF).
  const run = spawnSync('bash', ['-c', '"$0" --input-type=module -e "$1" 2</dev/null', process.execPath, script], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout);
  assert.deepEqual(JSON.parse(run.stdout), { seen: ['EBADF', 'EBADF'], thrown: 'EBADF', called: 'EBADF' });
});

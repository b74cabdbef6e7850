/**
 * The CLI's CommonJS chunks (scripts/bundle.ts) keep the semantics of the ES modules they were
 * built from: they run in strict mode, whether the chunk loader (src/cli/chunk-loader.ts) or
 * node's `require` (the policy worker) compiles them.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { Script } from 'node:vm';
import { CLI } from './helpers.js';

const bundle = join(CLI, '..');
const files = [join(bundle, 'start.cjs'), ...readdirSync(join(bundle, 'chunks'))
  .filter((name) => name.endsWith('.cjs'))
  .map((name) => join(bundle, 'chunks', name))];

test('every chunk of the bundle runs in strict mode, as the ES module it was built from', () => {
  assert.ok(files.length > 10, `chunks found: ${files.length}`);
  const sloppy: string[] = [];
  for (const file of files) {
    // The chunk as node wraps it, then a statement only sloppy code accepts: a strict function
    // refuses `with` when it is compiled (nothing of the chunk runs).
    const source = Module.wrap(`${readFileSync(file, 'utf8')}\n;with ({}) {}`);
    try {
      new Script(source, { filename: file });
      sloppy.push(file);
    } catch (error) {
      assert.ok(error instanceof SyntaxError, `${file}: ${String(error)}`);
    }
  }
  assert.deepEqual(sloppy, [], 'chunks compiled in sloppy mode');
});

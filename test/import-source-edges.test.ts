/**
 * Edges of the sources of `engram import --from`: basic-memory's symbolic links are reported, not
 * followed; an engram export given as memtool, standard input, an empty file; mem-context
 * relation names engram does not know.
 */
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { tempDir } from './helpers.js';
import { assertAddsUp, importContext } from './import-helpers.js';
import { importFrom as runImportFrom } from '../src/importers/run-import.js';

const TIMEOUT = { timeout: 300_000 };

test('basic-memory: symbolic links to a note or a folder are listed under not_mapped, not followed', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-import-links-');
  const notes = join(dir, 'notes');
  const outside = join(dir, 'outside');
  mkdirSync(notes);
  mkdirSync(outside);
  writeFileSync(join(outside, 'far.md'), 'A note outside the project\n');
  writeFileSync(join(notes, 'here.md'), 'A note of the project\n');
  symlinkSync(join(outside, 'far.md'), join(notes, 'linked.md'));
  symlinkSync(outside, join(notes, 'linked-folder'));
  const ctx = importContext(join(dir, 'memory.db'));
  t.after(() => void ctx.store.close());
  const report = await runImportFrom(ctx, { from: 'basic-memory', path: notes });
  assertAddsUp(report);
  assert.equal(report.created, 1, 'only the note of the project');
  assert.deepEqual(
    report.not_mapped.map((u) => [u.where, u.field, u.reason]),
    [['linked-folder', 'folder', 'a symbolic link, not followed'], ['linked.md', undefined, 'a symbolic link, not followed']],
  );
});

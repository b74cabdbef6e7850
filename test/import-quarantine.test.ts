/**
 * Imported memories the write policy holds in quarantine (personal data, a self-instruction) wait
 * for review without the quarantine's expiry, and the run says how many there are on stderr.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { openEngram } from '../src/index.js';
import { cli, tempDir } from './helpers.js';
import { importFrom } from './import-helpers.js';

const TIMEOUT = { timeout: 300_000 };

test('memtool: quarantined imports get no expiry and a warning naming engram review', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-import-quarantine-');
  const db = join(dir, 'memory.db');
  const path = join(dir, 'export.jsonl');
  const address = ['ops.lead', 'acme-widgets.io'].join('@');
  const lines = [
    { id: 'q1', type: 'project', content: `Escalations go to ${address}` },
    { id: 'q2', type: 'project', content: 'Releases are tagged from main' },
  ];
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n'));
  const dry = importFrom(db, 'memtool', path, ['--dry-run']);
  assert.match(dry.stderr, /1 imported item would be quarantined: `engram review` lists them/);
  const run = importFrom(db, 'memtool', path);
  assert.equal(run.code, 0);
  assert.equal(run.report.quarantined, 1);
  assert.match(run.stderr, /1 imported item is quarantined: `engram review` lists them/);
  const engram = await openEngram({ path: db });
  t.after(() => engram.close());
  const { items } = await engram.list({ limit: 10, quarantined: 'include' });
  const held = items.find((i) => i.quarantined);
  assert.ok(held !== undefined, 'the item is quarantined');
  assert.equal(held.expires_at, null, 'an imported memory held for review does not expire');
  const review = cli(['--db', db, 'review', '--json']);
  assert.equal(review.code, 0);
  assert.ok(review.stdout.includes(held.id), 'engram review lists it');
});

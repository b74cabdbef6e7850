/**
 * Service and storage guarantees (issue 14, item 5): a hard delete or purge leaves no byte of the
 * item's text in the database, WAL or SHM; `pull` stores all of its input or nothing; a store
 * whose pages fail the open check is refused by read commands without a write; `doctor` verifies
 * every content hash; import validates ids, takes a BOM and reports unknown keys.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { cli, tempDir } from './helpers.js';

/** A lowercase marker no tokenizer splits or stems: what the grep looks for. */
const marker = (): string => `zq${randomBytes(12).toString('hex')}x`;

/** Checkpoints and truncates the WAL, then returns the bytes of the db, -wal and -shm files. */
function storedBytes(db: string): string {
  const raw = new Database(db);
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.close();
  return [db, `${db}-wal`, `${db}-shm`].map((f) => (existsSync(f) ? readFileSync(f).toString('latin1') : '')).join('');
}

function put(db: string, args: string[]): string {
  const run = cli(['put', '--db', db, '--format', 'json', ...args]);
  assert.equal(run.code, 0, run.stderr);
  return String((run.json as { item: { id: string } }).item.id);
}

test('delete --hard and cleanup --purge leave none of the item\'s text in the db, WAL or SHM', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  put(db, ['--content', 'A neighbour note that stays in the store']);
  const hard = marker();
  const purged = marker();
  const id = put(db, ['--title', `title ${hard}`, '--tags', `tag${hard.slice(2, 10)}`, '--content', `The code word is ${hard} for the vault`]);
  // A second version: the revision history holds the text too.
  assert.equal(cli(['put', '--db', db, '--id', id, '--content', `Now the code word is ${hard} again`]).code, 0);
  const old = put(db, ['--content', `Archived then purged: ${purged} in the old notes`]);
  assert.equal(cli(['delete', '--db', db, old]).code, 0, 'archived first');
  const before = storedBytes(db);
  assert.ok(before.includes(hard) && before.includes(purged), 'the grep finds the markers while they are stored');

  assert.equal(cli(['delete', '--db', db, id, '--hard']).code, 0);
  const purge = cli(['cleanup', '--db', db, '--purge', '0', '--apply', '--format', 'json']);
  assert.equal(purge.code, 0, purge.stderr);
  assert.equal((purge.json as { purged: number }).purged, 1);
  const after = storedBytes(db);
  for (const gone of [hard, purged]) {
    // FTS5 stores terms prefix-compressed: the tail of a term would show if the term stayed.
    for (const piece of [gone, gone.slice(-12), gone.slice(2, 14)]) assert.ok(!after.includes(piece), `${piece} is gone`);
  }
  assert.ok(after.includes('neighbour'), 'the other item stays');
  const raw = new Database(db, { readonly: true });
  t.after(() => raw.close());
  const events = raw.prepare('SELECT action, details FROM memory_events WHERE item_id IN (?, ?)').all(id, old) as { action: string; details: string }[];
  assert.ok(events.some((e) => e.action === 'delete') && events.some((e) => e.action === 'purge'), 'the deletion is recorded');
  assert.equal(raw.prepare('SELECT count(*) FROM memory_revisions WHERE item_id IN (?, ?)').pluck().get(id, old), 0);
});

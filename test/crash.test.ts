/** A process killed with SIGKILL mid-import leaves a sound database with whole items only. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { openEngram } from '../src/index.js';
import { createItem, exportLine } from '../src/items/build-item.js';
import { CLI, tempDir } from './helpers.js';

test('SIGKILL in the middle of a large import: integrity ok, each item whole or absent', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  const source = join(dir, 'big.jsonl');
  const total = 40_000;
  const lines = new Map<string, string>();
  const body = 'lorem ipsum dolor sit amet '.repeat(60);
  for (let i = 0; i < total; i++) {
    const id = `MEM-${i.toString(16).padStart(12, '0')}`;
    const item = createItem(
      id,
      { content: `${i} ${body}`, tags: [`t${i % 7}`, 'bulk'], entities: [`e${i % 3}`] },
      new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    );
    lines.set(id, exportLine(item));
  }
  writeFileSync(source, `${[...lines.values()].join('\n')}\n`);

  const child = spawn(process.execPath, [CLI, 'import', '--db', db, source], { stdio: 'ignore' });
  let seen = 0;
  for (let tries = 0; tries < 400 && seen === 0; tries++) {
    await sleep(25);
    if (!existsSync(db)) continue;
    try {
      const reader = new Database(db, { readonly: true, fileMustExist: true });
      seen = (reader
        .prepare('SELECT count(*) FROM sqlite_master WHERE name = \'memory_items\'')
        .pluck()
        .get() as number)
        ? (reader.prepare('SELECT count(*) FROM memory_items').pluck().get() as number)
        : 0;
      reader.close();
    } catch {
      // the schema may be mid-creation; look again
    }
  }
  child.kill('SIGKILL');
  await new Promise((resolve) => child.on('close', resolve));
  assert.ok(seen > 0, 'the import had started writing');

  const raw = new Database(db);
  assert.equal(raw.pragma('integrity_check', { simple: true }), 'ok');
  assert.deepEqual(raw.pragma('foreign_key_check'), []);
  raw.close();

  const engram = await openEngram({ path: db });
  t.after(() => engram.close());
  let present = 0;
  for await (const line of engram.exportLines()) {
    const item = JSON.parse(line) as { id: string };
    assert.equal(line, lines.get(item.id), `item ${item.id} is whole`);
    assert.equal((await engram.history(item.id)).length, 1, `item ${item.id} has its revision`);
    present++;
  }
  assert.ok(present > 0 && present < total, `killed mid-way (${present} of ${total} present)`);
  assert.equal(present % 500, 0, 'whole batches only: every transaction committed or rolled back');
});

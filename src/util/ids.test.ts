import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ITEM_ID_PATTERN, newItemId } from './ids.js';

test('item ids: the format, none repeated, every hex digit in every place', () => {
  const ids = Array.from({ length: 20_000 }, () => newItemId());
  assert.ok(ids.every((id) => ITEM_ID_PATTERN.test(id)));
  assert.equal(new Set(ids).size, ids.length);
  for (let place = 4; place < 16; place++) {
    const digits = new Set(ids.map((id) => id[place]));
    assert.equal(digits.size, 16, `place ${place}: ${[...digits].join('')}`);
  }
});

test('each process draws other ids, also when node is given a fixed random seed', () => {
  const module = fileURLToPath(new URL('./ids.js', import.meta.url));
  const draw = (...flags: string[]) => spawnSync(process.execPath, [...flags, '--input-type=module', '-e',
    `import { newItemId } from ${JSON.stringify(module)}; console.log(Array.from({ length: 1000 }, newItemId).join(' '));`],
  { encoding: 'utf8' }).stdout.trim().split(' ');
  const [a, b] = [draw(), draw()];
  assert.equal(a.length, 1000);
  assert.equal(new Set([...a, ...b]).size, 2000);
  const [c, d] = [draw('--random-seed=7'), draw('--random-seed=7')];
  assert.equal(c.length, 1000);
  assert.equal(new Set([...c, ...d]).size, 2000);
});

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { compileWat } from '../../scripts/build-wasm.js';
import { CACHE_CHECKSUM_WASM } from './cache-checksum-wasm.js';
import { cacheChecksum, checkedData, CHECKSUM_BYTES, withChecksum } from './cache-checksum.js';

test('the committed WebAssembly is the compiled cache-checksum.wat', async () => {
  const wat = fileURLToPath(new URL('../../../src/cli/cache-checksum.wat', import.meta.url));
  assert.deepEqual(Array.from(await compileWat(wat)), Array.from(CACHE_CHECKSUM_WASM));
});

test('any one changed byte changes the checksum, at any length and position', () => {
  for (const length of [1, 7, 63, 64, 65, 1000, 4096, 70_001, 200_000]) {
    const data = randomBytes(length);
    const sum = cacheChecksum(data);
    assert.equal(cacheChecksum(data), sum, 'the same bytes, the same checksum');
    for (let i = 0; i < 40; i++) {
      const at = Math.floor(Math.random() * length);
      const flip = 1 + Math.floor(Math.random() * 255);
      const changed = Buffer.from(data);
      changed[at] = (changed[at] ?? 0) ^ flip;
      assert.notEqual(cacheChecksum(changed), sum, `length ${length}, byte ${at} ^ ${flip}`);
    }
  }
});

test('data cut short or grown by zero bytes has another checksum (the length counts)', () => {
  const data = Buffer.concat([randomBytes(100), Buffer.alloc(40)]);
  const sum = cacheChecksum(data);
  assert.notEqual(cacheChecksum(data.subarray(0, 120)), sum);
  assert.notEqual(cacheChecksum(Buffer.concat([data, Buffer.alloc(3)])), sum);
  assert.notEqual(cacheChecksum(Buffer.alloc(0)), cacheChecksum(Buffer.alloc(1)));
});

test('a cache file holds its checksum and its data; a damaged or short one, or another chunk\'s, gives no data', () => {
  const data = randomBytes(5000);
  const file = withChecksum(data, 'chunk-A.cjs');
  assert.equal(file.length, CHECKSUM_BYTES + data.length);
  assert.deepEqual(checkedData(file, 'chunk-A.cjs'), data);
  assert.equal(checkedData(file, 'chunk-B.cjs'), undefined);
  for (const at of [0, 3, CHECKSUM_BYTES, 2000, file.length - 1]) {
    const damaged = Buffer.from(file);
    damaged[at] = (damaged[at] ?? 0) ^ 0x40;
    assert.equal(checkedData(damaged, 'chunk-A.cjs'), undefined, `byte ${at}`);
  }
  assert.equal(checkedData(file.subarray(0, file.length - 1), 'chunk-A.cjs'), undefined);
  assert.equal(checkedData(file.subarray(0, 5), 'chunk-A.cjs'), undefined);
  // A larger cache after a smaller one (the module's memory grows), then the smaller again.
  const large = randomBytes(300_000);
  assert.deepEqual(checkedData(withChecksum(large, 'pack-put.cjs'), 'pack-put.cjs'), large);
  assert.deepEqual(checkedData(file, 'chunk-A.cjs'), data);
});

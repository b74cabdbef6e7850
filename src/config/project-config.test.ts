import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { EngramError } from '../errors.js';
import { readProjectConfig } from './project-config.js';

function read(t: { after: (fn: () => void) => void }, value: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'engram-config-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'config.json');
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return () => readProjectConfig(path);
}

test('a valid config is read; unknown keys are ignored; a missing file is empty', (t) => {
  const config = read(t, {
    fts_tokenizer: 'fr', tokenizer: 'o200k', embedder: 'none', auto_consolidate: { threshold: 5, interval_minutes: 0 }, other: 1,
  })();
  assert.deepEqual(config, {
    fts_tokenizer: 'fr', tokenizer: 'o200k', embedder: 'none', auto_consolidate: { threshold: 5, interval_minutes: 0 },
  });
  assert.deepEqual(read(t, { auto_consolidate: false })(), { auto_consolidate: false });
  assert.deepEqual(readProjectConfig(join(tmpdir(), 'engram-no-such-dir', 'config.json')), {});
  assert.ok(read(t, { embedder: 3 })().embedder instanceof EngramError, 'a wrong embedder fails only where used');
});

test('each wrong value is a PARAM_ERROR naming the key, with the rewrite hint', (t) => {
  const cases: [unknown, RegExp][] = [
    ['[1]', /expected an object/],
    ['{nope', /not valid JSON/],
    [{ fts_tokenizer: 'klingon' }, /fts_tokenizer must be one of/],
    [{ tokenizer: 'gpt2' }, /tokenizer must be one of chars, o200k, cl100k/],
    [{ auto_consolidate: true }, /auto_consolidate must be false or an object/],
    [{ auto_consolidate: { threshold: 0 } }, /threshold must be a whole number >= 1/],
    [{ auto_consolidate: { threshold: 2.5 } }, /threshold must be a whole number >= 1/],
    [{ auto_consolidate: { interval_minutes: -1 } }, /interval_minutes must be a number >= 0/],
    [{ auto_consolidate: { every: 3 } }, /unknown key\(s\): every/],
  ];
  for (const [value, message] of cases) {
    assert.throws(read(t, value), (error: unknown) =>
      error instanceof EngramError && error.code === 'PARAM_ERROR' && message.test(error.message) && error.hint !== undefined,
    JSON.stringify(value));
  }
});

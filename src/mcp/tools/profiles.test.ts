import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngramError } from '../../errors.js';
import { TOOLS } from './index.js';
import { DEFAULT_TOOL_NAMES, selectTools, TOOL_CHOICES } from './profiles.js';

const names = (spec?: string) => selectTools(spec).map((t) => t.name);

test('the default profile is the daily loop, also when nothing or only separators are given', () => {
  const daily = ['memory_recall', 'memory_search', 'memory_propose', 'memory_read', 'memory_update', 'memory_forget'];
  for (const spec of [undefined, '', 'default', ' default ', ',', 'default,default']) assert.deepEqual(names(spec), daily, String(spec));
  assert.deepEqual([...DEFAULT_TOOL_NAMES], daily);
  for (const name of DEFAULT_TOOL_NAMES) assert.ok(TOOLS.some((t) => t.name === name), `${name} is a tool`);
});

test('all, names and profiles mixed: each tool once, in the registry order', () => {
  assert.deepEqual(names('all'), TOOLS.map((t) => t.name));
  assert.deepEqual(names('memory_metrics,memory_recall'), ['memory_recall', 'memory_metrics']);
  assert.deepEqual(names('all,memory_recall'), TOOLS.map((t) => t.name));
  assert.deepEqual(names('memory_link, default').length, DEFAULT_TOOL_NAMES.length + 1);
  assert.deepEqual(TOOL_CHOICES, ['default', 'all', ...TOOLS.map((t) => t.name)]);
});

test('an unknown name, or a name of an object property, is a PARAM_ERROR listing the valid ones', () => {
  for (const spec of ['memory_fly', 'ALL', 'default,nope', 'toString', 'constructor', '__proto__', 'memory_recall;memory_search']) {
    assert.throws(() => selectTools(spec), (error: unknown) => {
      assert.ok(error instanceof EngramError);
      assert.equal(error.code, 'PARAM_ERROR');
      assert.match(error.message, /^Unknown tool or profile '.+' in --tools$/);
      assert.ok(TOOL_CHOICES.every((choice) => error.hint?.includes(choice)), error.hint);
      return true;
    }, spec);
  }
});

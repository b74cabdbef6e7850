import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commanderArgv, ownFormatAt, pickFormat } from './global-flags.js';

test('an output --format before ingest, capture or hook is taken out for commander, the command\'s own stays', () => {
  assert.deepEqual(commanderArgv(['--format', 'text', 'ingest', 'docs', '--format', 'auto']), ['ingest', 'docs', '--format', 'auto']);
  assert.deepEqual(commanderArgv(['--db', 'm.db', '--format=json', 'capture', 't.jsonl']), ['--db', 'm.db', 'capture', 't.jsonl']);
  assert.deepEqual(commanderArgv(['--format', 'text', 'list', '--format', 'json']), ['--format', 'text', 'list', '--format', 'json']);
});

test('a global flag whose value is the command\'s name is not taken for the command word', () => {
  for (const flag of ['--session', '--db', '--embedder', '--tokenizer']) {
    for (const command of ['ingest', 'capture', 'hook']) {
      const argv = [flag, command, '--format', 'text', command, 'x', '--format', 'auto'];
      assert.deepEqual(commanderArgv(argv), [flag, command, command, 'x', '--format', 'auto'], argv.join(' '));
      assert.deepEqual(pickFormat(argv, undefined, false), { format: 'text', explicit: true }, argv.join(' '));
    }
  }
  // After the command word, --format is the command's own: not the output format.
  assert.deepEqual(pickFormat(['--session', 'ingest', 'ingest', 'x', '--format', 'auto'], undefined, false), { format: 'json', explicit: false });
});

test('sync add has its own --format (text|auto); the other sync commands take the output --format', () => {
  assert.equal(ownFormatAt(['sync', 'add', 'docs', '--format', 'auto']), 1);
  assert.equal(ownFormatAt(['--db', 'sync', 'sync', 'add', 'docs']), 3);
  assert.equal(ownFormatAt(['sync', 'list', '--format', 'text']), -1);
  assert.equal(ownFormatAt(['sync', '--format', 'text']), -1);
  assert.equal(ownFormatAt(['sync', '--', 'add']), -1);
  assert.deepEqual(pickFormat(['sync', 'add', 'docs', '--format', 'auto'], undefined, false), { format: 'json', explicit: false });
  assert.deepEqual(pickFormat(['--format', 'text', 'sync', 'add', 'docs', '--format', 'auto'], undefined, false), { format: 'text', explicit: true });
  assert.deepEqual(pickFormat(['sync', 'list', '--format', 'text'], undefined, false), { format: 'text', explicit: true });
  assert.deepEqual(commanderArgv(['--format', 'text', 'sync', 'add', 'docs', '--format', 'auto']), ['sync', 'add', 'docs', '--format', 'auto']);
  assert.deepEqual(commanderArgv(['sync', 'list', '--format', 'text']), ['sync', 'list', '--format', 'text']);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngramError } from '../errors.js';
import { withMcpHint } from './hints.js';

test('a core hint naming the CLI becomes one naming the tool parameter; code, message and details stay', () => {
  const empty = new EngramError('EMPTY_INPUT', 'Content is empty', { hint: 'Give content with --content.' });
  const forWrite = withMcpHint(empty, 'memory_write');
  assert.equal(forWrite.hint, 'Give the memory\'s text in content.');
  assert.equal(forWrite.message, empty.message);
  assert.match(withMcpHint(empty, 'memory_update').hint ?? '', /fields\.content/);

  const workspace = new EngramError('NOT_FOUND', 'Unknown workspace: w', {
    hint: 'Known workspaces: a, default. Register one with `engram workspace add`.',
    details: { workspace: 'w' },
  });
  const shown = withMcpHint(workspace, 'memory_search');
  assert.equal(shown.hint, 'Known workspaces: a, default. memory_workspace_list names them; memory_workspace_register adds one.');
  assert.deepEqual(shown.toJSON(), { ...workspace.toJSON(), hint: shown.hint });

  const missing = new EngramError('NOT_FOUND', 'No memory item with id X', { hint: 'Use `engram list` to find ids.', details: { id: 'X' } });
  assert.equal(withMcpHint(missing, 'memory_forget').hint, 'memory_search finds ids.');
});

test('a hint names only tools the server serves', () => {
  const served = new Set(['memory_search', 'memory_forget']);
  const workspace = new EngramError('NOT_FOUND', 'Unknown workspace: w', {
    hint: 'Known workspaces: a, default. Register one with `engram workspace add`.',
    details: { workspace: 'w' },
  });
  assert.equal(withMcpHint(workspace, 'memory_search', served).hint, 'Known workspaces: a, default.');
  const missing = new EngramError('NOT_FOUND', 'No memory item with id X', { hint: 'Use `engram list` to find ids.', details: { id: 'X' } });
  assert.equal(withMcpHint(missing, 'memory_forget', served).hint, 'memory_search finds ids.');
  // Without memory_search, the core's hint stays (the rule does not speak).
  assert.equal(withMcpHint(missing, 'memory_forget', new Set(['memory_forget'])), missing);
});

test('policy refusals get an MCP hint only where the core has none of its own', () => {
  const refused = (group: string, hint: string) => new EngramError('POLICY_REJECTED', 'Rejected by policy: r', {
    hint,
    details: { rules: [{ rule: 'r', group, action: 'reject', excerpt: '' }] },
  });
  assert.match(withMcpHint(refused('size', 'Use `engram ingest FILE`.'), 'memory_write').hint ?? '', /type pointer/);
  assert.match(withMcpHint(refused('pii', 'See `engram policy rules`.'), 'memory_write').hint ?? '', /^rules lists/);
  const secret = refused('secret', 'Remove the secret.');
  assert.equal(withMcpHint(secret, 'memory_write'), secret);
});

test('errors no rule speaks to pass through unchanged', () => {
  const conflict = new EngramError('CONFLICT', 'Version conflict', { hint: 'Re-read the item.' });
  assert.equal(withMcpHint(conflict, 'memory_update'), conflict);
  const other = new EngramError('EMPTY_INPUT', 'Nothing to pull');
  assert.equal(withMcpHint(other, 'memory_session_store'), other);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addHooks, CLAUDE_CODE_HOOKS, removeHooks, wantedEvents } from './hooks.js';
import { jsonValue, removeMember, setProperty } from './json-edit.js';
import { addBlock, removeBlock } from './marked-block.js';
import { addServer, removeServer } from './server-config.js';
import { SERVE_LAUNCH } from './server-entry.js';
import { addTomlServer, removeTomlServer } from './toml-server.js';
import { unifiedDiff } from './unified-diff.js';

/** JSON files as people and tools write them: each must come back byte for byte. */
const JSON_FILES = [
  '',
  '{}',
  '{}\n',
  '{ }',
  '{\n  "mcpServers": {}\n}\n',
  '{"mcpServers":{"a":{"command":"x"}}}',
  '{\r\n  "theme": "dark",\r\n  "mcpServers": {\r\n    "a": { "command": "x" }\r\n  }\r\n}\r\n',
  '{\n\t"mcpServers": {\n\t\t"a": {\n\t\t\t"command": "x"\n\t\t}\n\t}\n}',
  '{\n    "mcpServers": {\n        "a": {"command": "x"}, // trailing\n    },\n}\n',
  '{\n  // only a comment inside\n  "mcpServers": {\n    // none yet\n  }\n}\n',
  '// header comment\n{\n  "other": [1, 2, 3]\n}\n',
];

test('a JSON server entry added then removed gives back every byte, comments and layout included', () => {
  for (const text of JSON_FILES) {
    const added = addServer('cursor', text, SERVE_LAUNCH, 'mcp.json');
    const value = jsonValue(added) as { mcpServers: Record<string, unknown> };
    assert.deepEqual(value.mcpServers.engram, { command: 'engram', args: ['serve'] }, JSON.stringify(text));
    assert.equal(addServer('cursor', added, SERVE_LAUNCH, 'mcp.json'), added, 'idempotent');
    const original = jsonValue(text);
    const removed = removeServer('cursor', added, original, 'mcp.json');
    if (text === '' || text === '{ }') {
      // No layout to give back: an empty object stays (teardown removes a file it made, or
      // restores the backup).
      assert.deepEqual(jsonValue(removed), original);
      continue;
    }
    assert.equal(removed, text, JSON.stringify(text));
  }
});

test('a new member takes the indentation and line ending of its siblings; a one-line object stays on one line', () => {
  const tabs = setProperty('{\n\t"a": {\n\t\t"b": 1\n\t}\n}', ['a'], 'c', { d: [1, 2] }, 'f');
  assert.equal(tabs, '{\n\t"a": {\n\t\t"b": 1,\n\t\t"c": {\n\t\t\t"d": [1, 2]\n\t\t}\n\t}\n}');
  const crlf = setProperty('{\r\n  "a": 1\r\n}\r\n', [], 'b', { c: true }, 'f');
  assert.equal(crlf, '{\r\n  "a": 1,\r\n  "b": {\r\n    "c": true\r\n  }\r\n}\r\n');
  assert.equal(setProperty('{"a": {"x": 1}}', ['a'], 'y', { z: 'w' }, 'f'), '{"a": {"x": 1, "y": { "z": "w" }}}');
  assert.equal(removeMember('{"a": {"x": 1, "y": { "z": "w" }}}', ['a', 'y']), '{"a": {"x": 1}}');
});

test('hooks: appended after the user\'s own, removed again in reverse, events and the hooks key created by setup go too', () => {
  const own = '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [{ "type": "command", "command": "say done" }] }\n    ]\n  },\n  "model": "opus"\n}\n';
  for (const text of ['', '{}\n', own]) {
    const events = wantedEvents(CLAUDE_CODE_HOOKS, true);
    const added = addHooks(text, CLAUDE_CODE_HOOKS, events, undefined, 'settings.json');
    const hooks = (jsonValue(added) as { hooks: Record<string, unknown[]> }).hooks;
    assert.deepEqual(Object.keys(hooks).sort(), ['PreCompact', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    assert.equal(hooks.Stop?.length, text === own ? 2 : 1);
    assert.equal(addHooks(added, CLAUDE_CODE_HOOKS, events, undefined, 'settings.json'), added, 'idempotent');
    const removed = removeHooks(added, CLAUDE_CODE_HOOKS, jsonValue(text));
    if (text === '') assert.deepEqual(jsonValue(removed), {});
    else assert.equal(removed, text);
  }
  // A hook the user put into engram's group stays; engram's goes.
  const shared = '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "engram hook stop"}, {"type": "command", "command": "mine"}]}]}}';
  assert.equal(removeHooks(shared, CLAUDE_CODE_HOOKS, jsonValue(shared)), '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "mine"}]}]}}');
});

test('marked blocks: appended after one line break, removed with it, the file\'s last line break as it was', () => {
  const markers = { begin: '<!-- b -->', end: '<!-- e -->' };
  for (const text of ['', 'x', 'x\n', 'x\n\n', '# T\r\n\r\nbody\r\n']) {
    const added = addBlock(text, ['one', 'two'], markers);
    assert.equal(addBlock(added, ['one', 'two'], markers), added);
    assert.equal(removeBlock(added, markers), text, JSON.stringify(text));
  }
  assert.equal(addBlock('x\n', ['a'], markers), 'x\n\n<!-- b -->\na\n<!-- e -->\n');
  assert.equal(addBlock('x', ['a'], markers), 'x\n<!-- b -->\na\n<!-- e -->\n');
  // A changed block is replaced in place; what the user wrote after it stays.
  assert.equal(addBlock('x\n\n<!-- b -->\nold\n<!-- e -->\ny\n', ['new'], markers), 'x\n\n<!-- b -->\nnew\n<!-- e -->\ny\n');
});

test('Codex TOML: the marked table round-trips every byte; an inline server table goes through the library', () => {
  const files = [
    '',
    'model = "o3"',
    '# c\nmodel = "o3"  # why\n\n[mcp_servers.gh]\ncommand = "npx"\n# about profiles\n[profiles.fast]\nmodel = "o4"\n',
    '[mcp_servers]\n# none yet\n',
    'a = 1\r\n[mcp_servers.x]\r\ncommand = "y"\r\n',
  ];
  for (const text of files) {
    const added = addTomlServer(text, SERVE_LAUNCH, 'config.toml');
    assert.match(added, /\[mcp_servers\.engram\]\r?\ncommand = "engram"\r?\nargs = \["serve"\]/);
    assert.equal(removeTomlServer(added, 'config.toml'), text, JSON.stringify(text));
  }
  const inline = 'mcp_servers = { gh = { command = "npx" } }\n';
  const added = addTomlServer(inline, SERVE_LAUNCH, 'config.toml');
  assert.match(added, /engram = \{ command = "engram", args = \[ "serve" \] \}/);
  assert.equal(removeTomlServer(added, 'config.toml'), inline);
  assert.throws(() => addTomlServer('a = [', SERVE_LAUNCH, 'config.toml'), /not valid TOML/);
});

test('unified diff: hunks with three lines of context, creation and removal, a missing last line break', () => {
  assert.equal(unifiedDiff('f', 'a\n', 'a\n'), '');
  assert.equal(unifiedDiff('f', undefined, 'x\ny\n'), '--- /dev/null\n+++ f\n@@ -0,0 +1,2 @@\n+x\n+y\n');
  assert.equal(unifiedDiff('f', 'x\n', undefined), '--- f\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n');
  const numbers = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}`);
  const before = `${numbers(20).join('\n')}\n`;
  const after = before.replace('\n3\n', '\nthree\n').replace('\n18\n', '\neighteen\n');
  assert.equal(unifiedDiff('f', before, after), [
    '--- f', '+++ f',
    '@@ -1,6 +1,6 @@', ' 1', ' 2', '-3', '+three', ' 4', ' 5', ' 6',
    '@@ -15,6 +15,6 @@', ' 15', ' 16', ' 17', '-18', '+eighteen', ' 19', ' 20', '',
  ].join('\n'));
  assert.equal(unifiedDiff('f', 'a', 'a\nb\n'), '--- f\n+++ f\n@@ -1 +1,2 @@\n-a\n\\ No newline at end of file\n+a\n+b\n');
});

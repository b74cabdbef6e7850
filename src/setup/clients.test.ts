import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { type ClientDirs, CLIENTS } from './clients.js';
import { CLAUDE_CODE_HOOKS } from './hooks.js';

const dirs = (platform: NodeJS.Platform): ClientDirs => ({
  home: '/h',
  configHome: '/h/.config',
  appData: '/h/AppData/Roaming',
  codexHome: '/h/.codex',
  platform,
});

test('each platform\'s application folder for the clients that keep their user file there', () => {
  const desktop = (p: NodeJS.Platform) => CLIENTS['claude-desktop'].files('user', dirs(p), '/p').server;
  assert.equal(desktop('darwin'), join('/h', 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'));
  assert.equal(desktop('win32'), join('/h/AppData/Roaming', 'Claude', 'claude_desktop_config.json'));
  assert.equal(desktop('linux'), join('/h/.config', 'Claude', 'claude_desktop_config.json'));
  const vscode = (p: NodeJS.Platform) => CLIENTS.vscode.files('user', dirs(p), '/p').server;
  assert.equal(vscode('darwin'), join('/h', 'Library', 'Application Support', 'Code', 'User', 'mcp.json'));
  assert.equal(vscode('win32'), join('/h/AppData/Roaming', 'Code', 'User', 'mcp.json'));
  assert.equal(vscode('linux'), join('/h/.config', 'Code', 'User', 'mcp.json'));
});

test('every client names its files in each scope it has, or says why a part is missing', () => {
  for (const spec of Object.values(CLIENTS)) {
    assert.ok(spec.scopes.includes(spec.defaultScope), spec.name);
    for (const scope of spec.scopes) {
      const files = spec.files(scope, dirs('linux'), '/p');
      assert.ok(files.server.startsWith(scope === 'project' ? '/p/' : '/h/'), `${spec.name} ${scope}: ${files.server}`);
      for (const part of [files.instructions, files.hooks]) {
        assert.ok('file' in part ? part.file.startsWith(scope === 'project' ? '/p/' : '/h/') : part.none.length > 10, `${spec.name} ${scope}`);
      }
    }
  }
  assert.deepEqual(CLIENTS['claude-code'].files('user', dirs('linux'), '/p'), {
    server: '/h/.claude.json',
    instructions: { file: '/h/.claude/CLAUDE.md', header: '' },
    hooks: { file: '/h/.claude/settings.json', table: CLAUDE_CODE_HOOKS },
  });
});

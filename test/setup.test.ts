/**
 * `engram setup CLIENT` / `engram teardown CLIENT` end to end, for every client and scope: into an
 * empty fake HOME and into one with existing configuration (other servers, comments, tabs, CRLF,
 * hooks of the user's own); the written configuration, read back with jsonc-parser or the TOML
 * parser, starts `engram serve` through a shim on the PATH and answers tools/list over stdio; a
 * second setup changes no byte; teardown restores every file byte for byte and removes what setup
 * created. Also: --dry-run prints the exact change as a diff and writes nothing; --list.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { parse as parseToml } from '@decimalturn/toml-patch';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse as parseJsonc } from 'jsonc-parser';
import { DEFAULT_TOOL_NAMES } from '../src/mcp/tools/profiles.js';
import { CLI, cli, type CliRun, tempDir } from './helpers.js';

type Scope = 'project' | 'user';

interface Sandbox {
  home: string;
  project: string;
  bin: string;
  env: Record<string, string>;
}

/** A fake HOME and project, and a PATH whose `engram` runs this build (what `npm install -g` puts there). */
function sandbox(t: { after: (fn: () => void) => void }): Sandbox {
  const root = tempDir(t, 'engram-setup-');
  const [home, project, bin] = ['home', 'project', 'bin'].map((d) => join(root, d)) as [string, string, string];
  for (const dir of [home, project, bin]) mkdirSync(dir);
  writeFileSync(join(bin, 'engram'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, 'engram'), 0o755);
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    APPDATA: join(home, 'AppData', 'Roaming'),
    CODEX_HOME: join(home, '.codex'),
    PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
  };
  return { home, project, bin, env };
}

function run(box: Sandbox, args: string[]): CliRun {
  return cli(args, { cwd: box.project, env: box.env });
}

/** Every file under the sandbox (home and project), by path, with its bytes; and every folder. */
function snapshot(box: Sandbox): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        out[relative(dirname(box.home), path)] = `link to ${readlinkSync(path)}`;
      } else if (entry.isDirectory()) {
        out[`${relative(dirname(box.home), path)}/`] = '';
        walk(path);
      } else {
        out[relative(dirname(box.home), path)] = readFileSync(path).toString('base64');
      }
    }
  };
  walk(box.home);
  walk(box.project);
  return out;
}

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** The server file of each client and scope in a sandbox (as the clients document them, on Linux). */
function serverFile(box: Sandbox, client: string, scope: Scope): string {
  const p = box.project;
  const h = box.home;
  const files: Record<string, Record<Scope, string>> = {
    'claude-code': { project: join(p, '.mcp.json'), user: join(h, '.claude.json') },
    'claude-desktop': { project: '', user: join(h, '.config', 'Claude', 'claude_desktop_config.json') },
    'cursor': { project: join(p, '.cursor', 'mcp.json'), user: join(h, '.cursor', 'mcp.json') },
    'vscode': { project: join(p, '.vscode', 'mcp.json'), user: join(h, '.config', 'Code', 'User', 'mcp.json') },
    'codex': { project: join(p, '.codex', 'config.toml'), user: join(h, '.codex', 'config.toml') },
    'opencode': { project: join(p, 'opencode.jsonc'), user: join(h, '.config', 'opencode', 'opencode.json') },
  };
  const file = files[client]?.[scope] ?? '';
  // An empty project gets opencode.json; the fixture brings opencode.jsonc.
  return client === 'opencode' && scope === 'project' && !existsSync(file) ? join(p, 'opencode.json') : file;
}

interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The command line engram's entry names, read from the file as the client would read it. */
function launchFrom(client: string, file: string): Launch {
  const text = readFileSync(file, 'utf8');
  if (client === 'codex') {
    const toml = parseToml(text) as { mcp_servers: Record<string, Launch & { env?: Record<string, string> }> };
    const entry = toml.mcp_servers.engram;
    assert.ok(entry, `${file} has [mcp_servers.engram]`);
    return { command: entry.command, args: [...entry.args], env: { ...entry.env } };
  }
  const config = parseJsonc(text) as Record<string, Record<string, Record<string, unknown>>>;
  const key = client === 'vscode' ? 'servers' : client === 'opencode' ? 'mcp' : 'mcpServers';
  const entry = config[key]?.engram;
  assert.ok(entry, `${file} has ${key}.engram`);
  if (client === 'opencode') {
    assert.equal(entry.type, 'local');
    const [command = '', ...args] = entry.command as string[];
    return { command, args, env: (entry.environment ?? {}) as Record<string, string> };
  }
  if (client === 'vscode') assert.equal(entry.type, 'stdio');
  const env = (entry.env ?? {}) as Record<string, string>;
  return { command: entry.command as string, args: entry.args as string[], env };
}

/** Starts exactly the configured command (found on the sandbox's PATH) and lists its tools over MCP. */
async function toolsOf(box: Sandbox, launch: Launch): Promise<string[]> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ENGRAM_'))) as Record<string, string>;
  const transport = new StdioClientTransport({
    command: launch.command,
    args: launch.args,
    cwd: box.project,
    env: { ...clean, ...box.env, ENGRAM_AUTO_CONSOLIDATE: 'off', ...launch.env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'engram-setup-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((t) => t.name).sort();
  } finally {
    await client.close();
  }
}

/** Existing configuration of every client in both scopes: other servers, comments, hooks of the user's own. */
function existingConfig(box: Sandbox): void {
  const p = box.project;
  const h = box.home;
  put(join(p, '.mcp.json'), '{\n  "mcpServers": {\n    "github": {\n      "command": "npx",\n      "args": ["-y", "@modelcontextprotocol/server-github"]\n    }\n  }\n}\n');
  put(join(p, 'CLAUDE.md'), '# Project notes\n\nRun `npm test` before a commit.\n');
  put(join(p, '.claude', 'settings.json'), '{\n  "permissions": { "allow": ["Bash(npm test)"] },\n  "hooks": {\n    "Stop": [\n      { "hooks": [{ "type": "command", "command": "notify-send done" }] }\n    ]\n  }\n}\n');
  put(join(h, '.claude.json'), '{\n  "numStartups": 12,\n  "mcpServers": {},\n  "projects": {\n    "/work/x": { "mcpServers": {}, "allowedTools": [] }\n  }\n}');
  put(join(h, '.claude', 'settings.json'), '{\n  "model": "opus"\n}\n');
  put(join(h, '.config', 'Claude', 'claude_desktop_config.json'), '{\n  "mcpServers": {\n    "filesystem": {\n      "command": "npx",\n      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]\n    }\n  },\n  "globalShortcut": "Ctrl+Space"\n}\n');
  put(join(p, '.cursor', 'mcp.json'), '{\n  // servers for this repository\n  "mcpServers": {\n    "github": { "command": "npx", "args": ["-y", "gh-mcp"] }, /* keep me */\n    "db": {\n      "command": "db-mcp",\n    },\n  },\n}\n');
  put(join(p, '.cursor', 'rules', 'style.mdc'), '---\nalwaysApply: true\n---\nTwo-space indentation.\n');
  put(join(h, '.cursor', 'mcp.json'), '{\n\t"mcpServers": {\n\t\t"notes": {\n\t\t\t"command": "notes-mcp"\n\t\t}\n\t}\n}\n');
  put(join(p, '.vscode', 'mcp.json'), '{\n  // Inputs are prompted on first server start\n  "inputs": [],\n  "servers": {\n    "memory": {\n      "type": "stdio",\n      "command": "npx",\n      "args": ["-y", "@modelcontextprotocol/server-memory"]\n    }\n  }\n}\n');
  put(join(p, '.github', 'copilot-instructions.md'), 'Prefer small functions.');
  put(join(h, '.config', 'Code', 'User', 'mcp.json'), '{\n    "servers": {}\n}\n');
  put(join(p, '.codex', 'config.toml'), '# project settings\r\nmodel = "o3"\r\n\r\n[mcp_servers.docs]\r\ncommand = "docs-mcp"\r\n');
  put(join(p, 'AGENTS.md'), '# Agents\n\nKeep answers short.\n');
  put(join(h, '.codex', 'config.toml'), '# my codex config\nmodel = "o3"  # the default\n\n[mcp_servers.github]\ncommand = "npx"\nargs = ["-y", "gh-mcp"]   # keep\n\n# profiles\n[profiles.fast]\nmodel = "o4-mini"\n');
  put(join(h, '.codex', 'hooks.json'), '{\n  "hooks": {\n    "Stop": [\n      {\n        "hooks": [\n          { "type": "command", "command": "say done", "timeout": 5 }\n        ]\n      }\n    ]\n  }\n}\n');
  put(join(h, '.codex', 'AGENTS.md'), '# Everywhere\n\nUse British spelling.\n');
  put(join(p, 'opencode.jsonc'), '{\n  "$schema": "https://opencode.ai/config.json",\n  // local tools\n  "mcp": {\n    "search": { "type": "local", "command": ["search-mcp"], "enabled": true },\n  },\n}\n');
  put(join(h, '.config', 'opencode', 'opencode.json'), '{\n  "$schema": "https://opencode.ai/config.json",\n  "theme": "opencode"\n}\n');
}

const CASES: [string, Scope][] = [
  ['claude-code', 'project'], ['claude-code', 'user'], ['claude-desktop', 'user'], ['cursor', 'project'], ['cursor', 'user'],
  ['vscode', 'project'], ['vscode', 'user'], ['codex', 'project'], ['codex', 'user'], ['opencode', 'project'], ['opencode', 'user'],
];

for (const fixture of ['an empty HOME', 'an existing configuration'] as const) {
  for (const [client, scope] of CASES) {
    test(`setup ${client} --${scope} into ${fixture}: the config starts engram serve, a second setup is a no-op, teardown restores every byte`, async (t) => {
      const box = sandbox(t);
      if (fixture === 'an existing configuration') existingConfig(box);
      const before = snapshot(box);
      const setup = run(box, ['setup', client, `--${scope}`, '--json']);
      assert.equal(setup.code, 0, setup.stderr);
      assert.equal(setup.json?.changed, true);
      const file = serverFile(box, client, scope);
      const launch = launchFrom(client, file);
      assert.deepEqual([launch.command, launch.args, launch.env], ['engram', ['serve'], {}]);
      assert.deepEqual(await toolsOf(box, launch), [...DEFAULT_TOOL_NAMES].sort(), 'the default profile');

      const afterSetup = snapshot(box);
      const backups = Object.keys(afterSetup).filter((f) => f.endsWith('.engram-backup'));
      for (const backup of backups) assert.equal(afterSetup[backup], before[backup.slice(0, -'.engram-backup'.length)], `${backup} holds the original bytes`);
      if (fixture === 'an empty HOME') assert.deepEqual(backups, []);
      else assert.ok(backups.length >= 1, 'the existing files were backed up');

      const again = run(box, ['setup', client, `--${scope}`, '--json']);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.json?.changed, false);
      assert.deepEqual(snapshot(box), afterSetup, 'a second setup changes no byte and writes no new backup');

      const teardown = run(box, ['teardown', client, `--${scope}`, '--json']);
      assert.equal(teardown.code, 0, teardown.stderr);
      assert.deepEqual(snapshot(box), before, 'teardown restores every file byte for byte and removes what setup created');
    });
  }
}

/** The instructions file and hook file setup writes per client and scope ('' for none). */
function partFiles(box: Sandbox, client: string, scope: Scope): { instructions: string; hooks: string } {
  const p = box.project;
  const h = box.home;
  const table: Record<string, Partial<Record<Scope, { instructions: string; hooks: string }>>> = {
    'claude-code': {
      project: { instructions: join(p, 'CLAUDE.md'), hooks: join(p, '.claude', 'settings.json') },
      user: { instructions: join(h, '.claude', 'CLAUDE.md'), hooks: join(h, '.claude', 'settings.json') },
    },
    'cursor': { project: { instructions: join(p, '.cursor', 'rules', 'engram.mdc'), hooks: '' } },
    'vscode': { project: { instructions: join(p, '.github', 'copilot-instructions.md'), hooks: '' } },
    'codex': {
      project: { instructions: join(p, 'AGENTS.md'), hooks: join(p, '.codex', 'hooks.json') },
      user: { instructions: join(h, '.codex', 'AGENTS.md'), hooks: join(h, '.codex', 'hooks.json') },
    },
    'opencode': {
      project: { instructions: join(p, 'AGENTS.md'), hooks: '' },
      user: { instructions: join(h, '.config', 'opencode', 'AGENTS.md'), hooks: '' },
    },
  };
  return table[client]?.[scope] ?? { instructions: '', hooks: '' };
}

test('setup writes the marked instructions section and the hook entries where the client has them', (t) => {
  for (const [client, scope] of CASES) {
    const box = sandbox(t);
    existingConfig(box);
    assert.equal(run(box, ['setup', client, `--${scope}`]).code, 0);
    const { instructions, hooks } = partFiles(box, client, scope);
    if (instructions !== '') {
      const text = readFileSync(instructions, 'utf8');
      assert.match(text, /<!-- engram:begin [^\n]*-->\n## Project memory \(engram\)\n[\s\S]*memory_recall[\s\S]*memory_propose[\s\S]*Never store[\s\S]*<!-- engram:end -->\n$/, `${client} ${scope}`);
      if (client === 'cursor') assert.match(text, /^---\ndescription: [^\n]+\nalwaysApply: true\n---\n/);
    }
    if (hooks !== '') {
      const config = parseJsonc(readFileSync(hooks, 'utf8')) as { hooks: Record<string, { hooks: { command: string; timeout: number }[] }[]> };
      type Groups = { hooks: { command: string }[] }[];
      const commandsOf = (groups: Groups) => groups.flatMap((g) => g.hooks.map((h) => h.command));
      const events = Object.entries(config.hooks);
      const commands = Object.fromEntries(events.map(([event, groups]) => [event, commandsOf(groups)]));
      const ours = Object.fromEntries(Object.entries(commands).map(([event, list]) => [event, list.filter((c) => c.startsWith('engram '))]));
      const expected: Record<string, string[]> = {
        SessionStart: ['engram hook session-start'],
        Stop: ['engram hook stop'],
        PreCompact: ['engram hook pre-compact'],
        ...(client === 'claude-code' ? { SessionEnd: ['engram hook session-end'] } : {}),
      };
      assert.deepEqual(ours, expected, `${client} ${scope}: no prompt hook unless asked for`);
    }
  }
});

/** Applies a unified diff to the files it names (before: their content now), as `patch` would. */
function applyDiff(diff: string, read: (path: string) => string | undefined): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  const lines = diff.split('\n');
  let i = 0;
  while (i < lines.length && lines[i]?.startsWith('--- ')) {
    const from = (lines[i] ?? '').slice(4);
    const to = (lines[i + 1] ?? '').slice(4);
    i += 2;
    const path = to === '/dev/null' ? from : to;
    const before = from === '/dev/null' ? '' : (read(path) ?? '');
    const old = before === '' ? [] : before.split(/(?<=\n)/);
    const result: string[] = [];
    let taken = 0;
    while (lines[i]?.startsWith('@@')) {
      const [, start = '0', oldCount = '1', newCount = '1'] = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@$/.exec(lines[i] ?? '') ?? [];
      i++;
      while (taken < Number(start) - 1) result.push(old[taken++] ?? '');
      // The hunk's lines, counted by its header; a `\ No newline` line belongs to the line before it.
      let [oldLeft, newLeft] = [Number(oldCount), Number(newCount)];
      let last: 'kept' | 'added' | 'removed' = 'kept';
      while (oldLeft > 0 || newLeft > 0 || lines[i]?.startsWith('\\')) {
        const line = lines[i++] ?? '';
        if (line.startsWith('\\')) {
          if (last !== 'removed') result.push((result.pop() ?? '').replace(/\n$/, ''));
          continue;
        }
        if (line[0] !== '+') assert.equal((old[taken] ?? '').replace(/\n$/, ''), line.slice(1), `context of ${path}`);
        if (line[0] === '+') result.push(`${line.slice(1)}\n`);
        else if (line[0] === ' ') result.push(old[taken++] ?? '');
        else taken++;
        if (line[0] !== '+') oldLeft--;
        if (line[0] !== '-') newLeft--;
        last = line[0] === '+' ? 'added' : line[0] === ' ' ? 'kept' : 'removed';
      }
    }
    result.push(...old.slice(taken));
    out.set(path, to === '/dev/null' ? undefined : result.join(''));
  }
  return out;
}

test('--dry-run prints the exact change as a unified diff and writes nothing', (t) => {
  for (const [client, scope] of [['cursor', 'project'], ['codex', 'user'], ['claude-code', 'project'], ['opencode', 'project']] as [string, Scope][]) {
    const box = sandbox(t);
    existingConfig(box);
    const before = snapshot(box);
    const dry = run(box, ['setup', client, `--${scope}`, '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^--- \S/);
    assert.deepEqual(snapshot(box), before, 'a dry run writes nothing');
    const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);
    const predicted = applyDiff(dry.stdout, read);
    assert.ok(predicted.size >= 2, `${client}: the diff names its files`);
    const asJson = run(box, ['setup', client, `--${scope}`, '--dry-run', '--json']);
    assert.equal(asJson.json?.diff, dry.stdout);
    assert.equal(asJson.json?.dry_run, true);

    assert.equal(run(box, ['setup', client, `--${scope}`]).code, 0);
    for (const [path, text] of predicted) assert.equal(read(path), text, `${path}: the diff is the change setup makes`);
    const dryTeardown = run(box, ['teardown', client, `--${scope}`, '--dry-run']);
    const restored = applyDiff(dryTeardown.stdout, read);
    assert.equal(run(box, ['teardown', client, `--${scope}`]).code, 0);
    for (const [path, text] of restored) assert.equal(read(path), text, `${path}: the teardown diff is the change teardown makes`);
    assert.deepEqual(snapshot(box), before);
    const nothing = run(box, ['teardown', client, `--${scope}`, '--dry-run']);
    assert.deepEqual([nothing.code, nothing.stdout], [0, '']);
  }
});

test('setup --list: installed clients (command on the PATH, configuration folder) and where engram is wired, text and JSON', (t) => {
  const box = sandbox(t);
  writeFileSync(join(box.bin, 'codex'), '#!/bin/sh\n');
  chmodSync(join(box.bin, 'codex'), 0o755);
  mkdirSync(join(box.home, '.cursor'));
  assert.equal(run(box, ['setup', 'cursor']).code, 0);
  const listed = run(box, ['setup', '--list', '--json']);
  assert.equal(listed.code, 0, listed.stderr);
  type Status = { client: string; installed: boolean; found: string[]; default_scope: string };
  type Scopes = Record<string, { wired: boolean; state: string; file: string }>;
  const clients = listed.json?.clients as (Status & { scopes: Scopes })[];
  assert.deepEqual(clients.map((c) => c.client), ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex', 'opencode']);
  const byName = Object.fromEntries(clients.map((c) => [c.client, c]));
  assert.deepEqual([byName.codex?.installed, byName.codex?.found], [true, ['codex on PATH']]);
  assert.deepEqual([byName.cursor?.installed, byName.cursor?.found], [true, [join(box.home, '.cursor')]]);
  assert.equal(byName['claude-code']?.installed, false);
  assert.deepEqual(byName.cursor?.scopes.project, { file: join(box.project, '.cursor', 'mcp.json'), state: 'wired', wired: true });
  assert.equal(byName.cursor?.scopes.user?.wired, false);
  assert.deepEqual(Object.keys(byName['claude-desktop']?.scopes ?? {}), ['user']);
  assert.equal(byName.codex?.default_scope, 'user');

  const text = run(box, ['setup', '--list', '--format', 'text']);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /^cursor +installed \(.*\.cursor\)\n +project: wired {2}user: not wired/m);
  assert.match(text.stdout, /^codex +installed \(codex on PATH\)$/m);
  assert.match(text.stdout, /^opencode +not found$/m);
});

test('teardown keeps what the user changed after setup, and the backup with it', (t) => {
  const box = sandbox(t);
  existingConfig(box);
  const file = join(box.project, '.cursor', 'mcp.json');
  const original = readFileSync(file, 'utf8');
  assert.equal(run(box, ['setup', 'cursor']).code, 0);
  // The user adds a server after setup, at the end of the list.
  writeFileSync(file, readFileSync(file, 'utf8').replace('"args": ["serve"]\n    },\n', '"args": ["serve"]\n    },\n    "later": { "command": "later-mcp" },\n'));
  const teardown = run(box, ['teardown', 'cursor', '--json']);
  assert.equal(teardown.code, 0, teardown.stderr);
  const after = parseJsonc(readFileSync(file, 'utf8')) as { mcpServers: Record<string, unknown> };
  assert.deepEqual(Object.keys(after.mcpServers), ['github', 'db', 'later']);
  assert.match(readFileSync(file, 'utf8'), /\/\/ servers for this repository[\s\S]*\/\* keep me \*\//);
  assert.equal(readFileSync(`${file}.engram-backup`, 'utf8'), original, 'the backup stays: the file is not what it was');
  assert.ok((teardown.json?.notes as string[]).some((n) => n.includes('kept') && n.includes('.engram-backup')));
  assert.ok(!existsSync(join(box.project, '.cursor', 'rules', 'engram.mdc')));
});

test('an instructions file two set-up clients share keeps its section until the last one is torn down', (t) => {
  const box = sandbox(t);
  existingConfig(box);
  const agents = join(box.project, 'AGENTS.md');
  const original = readFileSync(agents, 'utf8');
  assert.equal(run(box, ['setup', 'codex', '--project']).code, 0);
  assert.equal(run(box, ['setup', 'opencode', '--project']).code, 0);
  assert.equal(readFileSync(agents, 'utf8').split('<!-- engram:begin').length, 2, 'one section for both');
  const first = run(box, ['teardown', 'codex', '--project', '--json']);
  assert.ok((first.json?.notes as string[]).some((n) => n.includes('opencode')), JSON.stringify(first.json?.notes));
  assert.match(readFileSync(agents, 'utf8'), /engram:begin/);
  assert.equal(run(box, ['teardown', 'opencode', '--project']).code, 0);
  assert.equal(readFileSync(agents, 'utf8'), original);
});

test('--prompt-hook adds the prompt hook; --db pins the store in the server entry and the hook commands', (t) => {
  const box = sandbox(t);
  assert.equal(run(box, ['--db', 'notes/my memory.db', 'setup', 'claude-code', '--prompt-hook']).code, 0);
  const mcp = parseJsonc(readFileSync(join(box.project, '.mcp.json'), 'utf8')) as { mcpServers: { engram: unknown } };
  assert.deepEqual(mcp.mcpServers.engram, { command: 'engram', args: ['serve'], env: { ENGRAM_DB: 'notes/my memory.db' } });
  const settings = parseJsonc(readFileSync(join(box.project, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  assert.deepEqual(Object.keys(settings.hooks), ['SessionStart', 'UserPromptSubmit', 'Stop', 'PreCompact', 'SessionEnd']);
  assert.equal(settings.hooks.UserPromptSubmit?.[0]?.hooks[0]?.command, 'engram --db \'notes/my memory.db\' hook prompt-submit');
  // Another store: the entry is replaced, the hooks (any engram hook counts) are not doubled.
  assert.equal(run(box, ['setup', 'claude-code']).code, 0);
  const replaced = parseJsonc(readFileSync(join(box.project, '.mcp.json'), 'utf8')) as { mcpServers: { engram: unknown } };
  assert.deepEqual(replaced.mcpServers.engram, { command: 'engram', args: ['serve'] });
  const again = parseJsonc(readFileSync(join(box.project, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, unknown[]> };
  assert.equal(again.hooks.Stop?.length, 1);
  assert.equal(run(box, ['teardown', 'claude-code']).code, 0);
  assert.deepEqual(readdirSync(box.project), []);
});

test('refusals: a foreign engram entry, a malformed file, a scope the client lacks, an unknown client; nothing written', (t) => {
  const box = sandbox(t);
  put(join(box.project, '.mcp.json'), '{ "mcpServers": { "engram": { "command": "python", "args": ["engram.py"] } } }\n');
  put(join(box.project, '.vscode', 'mcp.json'), '{ "servers": { "x": { "command": "y" } }\n');
  const before = snapshot(box);
  const foreign = run(box, ['setup', 'claude-code']);
  assert.deepEqual([foreign.code, foreign.error?.error], [1, 'CONFLICT']);
  const malformed = run(box, ['setup', 'vscode']);
  assert.deepEqual([malformed.code, malformed.error?.error], [2, 'PARAM_ERROR']);
  assert.match(String(malformed.error?.message), /mcp\.json is not valid JSON/);
  for (const args of [['setup', 'claude-desktop', '--project'], ['setup', 'cursor', '--project', '--user'], ['setup', 'emacs'], ['setup'], ['teardown', 'emacs']]) {
    const refused = run(box, args);
    assert.deepEqual([refused.code, refused.error?.error], [2, 'PARAM_ERROR'], args.join(' '));
  }
  // Teardown leaves an engram entry it did not write.
  assert.equal(run(box, ['teardown', 'claude-code']).code, 0);
  assert.deepEqual(snapshot(box), before);
});

test('engram mcp config --client opencode prints the entry setup writes', (t) => {
  const box = sandbox(t);
  const printed = run(box, ['mcp', 'config', '--client', 'opencode']);
  assert.equal(printed.code, 0, printed.stderr);
  assert.deepEqual(JSON.parse(printed.stdout), { mcp: { engram: { type: 'local', command: ['engram', 'serve'] } } });
  assert.equal(run(box, ['setup', 'opencode']).code, 0);
  assert.deepEqual(parseJsonc(readFileSync(join(box.project, 'opencode.json'), 'utf8')), JSON.parse(printed.stdout));
});

test('an engram entry the user wrote that differs from setup\'s is kept as is, and teardown leaves it (JSON env, JSON args, Codex TOML)', (t) => {
  const cases: [string, string, string][] = [
    ['claude-code', '.mcp.json', '{"mcpServers":{"engram":{"command":"engram","args":["serve"],"env":{"ENGRAM_DB":"/data/x.db"}}}}\n'],
    ['claude-code', '.mcp.json', '{"mcpServers":{"engram":{"command":"engram","args":["serve","--db","/data/x.db"]}}}\n'],
    ['codex', join('.codex', 'config.toml'), '[mcp_servers]\nengram = { command = "engram", args = ["serve"], env = { A = "1" } }\n'],
  ];
  for (const [client, name, text] of cases) {
    const box = sandbox(t);
    const file = join(box.project, name);
    put(file, text);
    const setup = run(box, ['setup', client, '--project', '--json']);
    assert.equal(setup.code, 0, setup.stderr);
    assert.equal(readFileSync(file, 'utf8'), text, `${client}: the entry is left as it was`);
    assert.ok(!existsSync(`${file}.engram-backup`), 'nothing changed, so no backup');
    assert.ok((setup.json?.notes as string[]).some((n) => n.startsWith('kept the engram entry in')), JSON.stringify(setup.json?.notes));
    assert.equal(run(box, ['teardown', client, '--project']).code, 0);
    assert.equal(readFileSync(file, 'utf8'), text, `${client}: teardown leaves the user's entry and file`);
    assert.deepEqual(readdirSync(box.project), [name.split(/[\\/]/)[0]], 'setup\'s record and its other files are gone');
  }
});

test('teardown removes only what setup added: never a file or entry that was there before setup', (t) => {
  const box = sandbox(t);
  const file = join(box.project, '.mcp.json');
  const text = '{"mcpServers":{"engram":{"command":"engram","args":["serve"]}}}\n';
  put(file, text);
  const before = snapshot(box);
  const early = run(box, ['teardown', 'claude-code', '--json']);
  assert.equal(early.code, 0, early.stderr);
  assert.equal(early.json?.changed, false);
  assert.deepEqual(snapshot(box), before, 'teardown without setup touches nothing');
  const setup = run(box, ['setup', 'claude-code', '--json']);
  assert.equal(setup.code, 0, setup.stderr);
  const server = (setup.json?.files as { path: string; action: string }[]).find((f) => f.path === file);
  assert.equal(server?.action, 'unchanged');
  assert.ok(existsSync(join(box.project, '.engram-setup.json')), 'setup records what it added');
  assert.equal(run(box, ['teardown', 'claude-code']).code, 0);
  assert.deepEqual(snapshot(box), before, 'the entry that was there before setup stays; what setup added goes, its record too');
});

test('teardown removes only the folders setup created', (t) => {
  const box = sandbox(t);
  mkdirSync(join(box.home, '.codex'));
  const before = snapshot(box);
  assert.equal(run(box, ['setup', 'codex']).code, 0);
  assert.ok(existsSync(join(box.home, '.codex', 'config.toml')));
  assert.equal(run(box, ['teardown', 'codex']).code, 0);
  assert.deepEqual(snapshot(box), before, 'the empty ~/.codex that was there before stays');
  assert.equal(run(box, ['setup', 'claude-code']).code, 0);
  assert.ok(existsSync(join(box.project, '.claude', 'settings.json')));
  assert.equal(run(box, ['teardown', 'claude-code']).code, 0);
  assert.deepEqual(readdirSync(box.project), [], 'the .claude folder setup created goes');
});

test('an empty or whitespace-only config gets its exact bytes back from teardown, with no "changed since setup" note', (t) => {
  for (const text of ['', '  \n\n', '\n']) {
    const box = sandbox(t);
    put(join(box.project, '.mcp.json'), text);
    const before = snapshot(box);
    assert.equal(run(box, ['setup', 'claude-code']).code, 0);
    assert.equal(launchFrom('claude-code', join(box.project, '.mcp.json')).command, 'engram');
    const teardown = run(box, ['teardown', 'claude-code', '--json']);
    assert.equal(teardown.code, 0, teardown.stderr);
    assert.deepEqual(teardown.json?.notes, []);
    assert.deepEqual(snapshot(box), before, JSON.stringify(text));
  }
});

test('a target setup cannot write is refused before anything is written: a folder, a dangling link, a file where a folder goes', (t) => {
  const cases: [string, (box: Sandbox) => void, string][] = [
    ['.mcp.json is a folder', (box) => mkdirSync(join(box.project, '.mcp.json')), '.mcp.json'],
    ['.mcp.json links to a missing folder', (box) => symlinkSync(join(box.home, 'gone', 'x.json'), join(box.project, '.mcp.json')), '.mcp.json'],
    ['.claude is a file', (box) => put(join(box.project, '.claude'), 'hi\n'), '.claude'],
  ];
  if (process.getuid?.() !== 0) {
    cases.push(['.mcp.json is read-only', (box) => {
      put(join(box.project, '.mcp.json'), '{}\n');
      chmodSync(join(box.project, '.mcp.json'), 0o444);
    }, '.mcp.json']);
  }
  for (const [what, arrange, named] of cases) {
    const box = sandbox(t);
    arrange(box);
    const before = snapshot(box);
    const refused = run(box, ['setup', 'claude-code']);
    assert.deepEqual([refused.code, refused.error?.error], [2, 'PARAM_ERROR'], `${what}: ${refused.stderr}`);
    assert.ok(String(refused.error?.message).includes(join(box.project, named)), `${what}: ${String(refused.error?.message)}`);
    assert.deepEqual(snapshot(box), before, `${what}: nothing written`);
  }
});

test('a UTF-8 byte order mark at the start of a JSON config is accepted and kept', (t) => {
  const box = sandbox(t);
  const file = join(box.project, '.mcp.json');
  const text = '\uFEFF{\n  "mcpServers": {\n    "github": { "command": "gh-mcp" }\n  }\n}\n';
  put(file, text);
  const before = snapshot(box);
  const setup = run(box, ['setup', 'claude-code']);
  assert.equal(setup.code, 0, setup.stderr);
  const written = readFileSync(file, 'utf8');
  assert.ok(written.startsWith('\uFEFF{'), 'the mark stays');
  assert.deepEqual(Object.keys((parseJsonc(written.slice(1)) as { mcpServers: object }).mcpServers), ['github', 'engram']);
  assert.equal(run(box, ['setup', 'claude-code', '--json']).json?.changed, false);
  assert.equal(run(box, ['teardown', 'claude-code']).code, 0);
  assert.deepEqual(snapshot(box), before);
});

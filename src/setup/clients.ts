/**
 * Where each client keeps its MCP servers, instructions and hooks, per scope (the project, or the
 * user's own configuration), as each client documents it; and how `setup --list` tells it is
 * installed (its command on the PATH, or its configuration directory).
 *
 * - claude-code: project .mcp.json, .claude/settings.json (hooks), CLAUDE.md; user ~/.claude.json,
 *   ~/.claude/settings.json, ~/.claude/CLAUDE.md.
 * - claude-desktop: user only, claude_desktop_config.json in Claude's application folder; no
 *   instructions file, no hooks.
 * - cursor: project .cursor/mcp.json, .cursor/rules/engram.mdc; user ~/.cursor/mcp.json (user
 *   rules live in Cursor's settings).
 * - vscode: project .vscode/mcp.json ("servers"), .github/copilot-instructions.md; user the
 *   profile's mcp.json (Code/User/).
 * - codex: project .codex/config.toml, .codex/hooks.json, AGENTS.md; user the same three in
 *   $CODEX_HOME (~/.codex).
 * - opencode: project opencode.json ("mcp"), AGENTS.md; user ~/.config/opencode/ (opencode.json,
 *   AGENTS.md).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientDirs } from '../config/settings.js';
import { CLAUDE_CODE_HOOKS, CODEX_HOOKS, type HookTable } from './hooks.js';
import { CURSOR_RULE_HEADER } from './instructions.js';
import type { McpClient } from './server-entry.js';

export const SCOPES = ['project', 'user'] as const;

export type Scope = (typeof SCOPES)[number];

/** The directories a client's paths derive from, as the entry point read them from the environment. */
export type { ClientDirs };

/** The files of one client in one scope; a missing part says why there is none. */
export interface ClientFiles {
  /** The file listing MCP servers: JSON(C), or TOML for Codex. */
  server: string;
  instructions: { file: string; header: string } | { none: string };
  hooks: { file: string; table: HookTable } | { none: string };
}

export interface ClientSpec {
  name: McpClient;
  label: string;
  scopes: readonly Scope[];
  /** The scope used when neither --project nor --user is given. */
  defaultScope: Scope;
  /** Commands whose presence on the PATH says the client is installed. */
  commands: readonly string[];
  /** Directories whose presence says the client is installed (or was). */
  dirs(d: ClientDirs): string[];
  files(scope: Scope, d: ClientDirs, project: string): ClientFiles;
  /** What the user still has to do once, after setup (approve, trust), per scope. */
  approval?: Partial<Record<Scope, string>>;
}

/** A platform's folder for an application's settings (macOS, Windows, else XDG). */
function appFolder(d: ClientDirs, name: string): string {
  if (d.platform === 'darwin') return join(d.home, 'Library', 'Application Support', name);
  if (d.platform === 'win32') return join(d.appData, name);
  return join(d.configHome, name);
}

/** The first of `names` in `dir` that exists, else the first. */
function existing(dir: string, names: readonly string[]): string {
  return join(dir, names.find((n) => existsSync(join(dir, n))) ?? names[0] ?? '');
}

const NO_HOOKS = (label: string) => ({ none: `${label} has no hooks engram's hook command answers` });

const CLAUDE_CODE: ClientSpec = {
  name: 'claude-code',
  label: 'Claude Code',
  scopes: ['project', 'user'],
  defaultScope: 'project',
  commands: ['claude'],
  dirs: (d) => [join(d.home, '.claude')],
  approval: { project: 'Claude Code asks once to approve the servers of a project\'s .mcp.json' },
  files: (scope, d, project) => {
    const base = scope === 'project' ? project : join(d.home, '.claude');
    return {
      server: scope === 'project' ? join(project, '.mcp.json') : join(d.home, '.claude.json'),
      instructions: { file: join(base, 'CLAUDE.md'), header: '' },
      hooks: { file: join(scope === 'project' ? join(project, '.claude') : base, 'settings.json'), table: CLAUDE_CODE_HOOKS },
    };
  },
};

const CLAUDE_DESKTOP: ClientSpec = {
  name: 'claude-desktop',
  label: 'Claude Desktop',
  scopes: ['user'],
  defaultScope: 'user',
  commands: [],
  dirs: (d) => [appFolder(d, 'Claude')],
  files: (_scope, d) => ({
    server: join(appFolder(d, 'Claude'), 'claude_desktop_config.json'),
    instructions: { none: 'Claude Desktop reads no instructions file' },
    hooks: { none: 'Claude Desktop has no hooks' },
  }),
};

const CURSOR: ClientSpec = {
  name: 'cursor',
  label: 'Cursor',
  scopes: ['project', 'user'],
  defaultScope: 'project',
  commands: ['cursor', 'cursor-agent'],
  dirs: (d) => [join(d.home, '.cursor')],
  files: (scope, d, project) => ({
    server: join(scope === 'project' ? project : d.home, '.cursor', 'mcp.json'),
    instructions: scope === 'project'
      ? { file: join(project, '.cursor', 'rules', 'engram.mdc'), header: CURSOR_RULE_HEADER }
      : { none: 'Cursor keeps user rules in its settings, not in a file' },
    hooks: NO_HOOKS('Cursor'),
  }),
};

const VSCODE: ClientSpec = {
  name: 'vscode',
  label: 'VS Code',
  scopes: ['project', 'user'],
  defaultScope: 'project',
  commands: ['code'],
  dirs: (d) => [appFolder(d, 'Code')],
  files: (scope, d, project) => ({
    server: scope === 'project' ? join(project, '.vscode', 'mcp.json') : join(appFolder(d, 'Code'), 'User', 'mcp.json'),
    instructions: scope === 'project'
      ? { file: join(project, '.github', 'copilot-instructions.md'), header: '' }
      : { none: 'VS Code keeps user instructions in its profile settings, not in one file' },
    hooks: NO_HOOKS('VS Code'),
  }),
};

const CODEX: ClientSpec = {
  name: 'codex',
  label: 'Codex',
  scopes: ['project', 'user'],
  defaultScope: 'user',
  commands: ['codex'],
  dirs: (d) => [d.codexHome],
  approval: {
    project: 'Codex reads .codex/config.toml in trusted projects only, and runs new hooks once you trust them',
    user: 'Codex runs new hooks once you trust them',
  },
  files: (scope, d, project) => {
    const base = scope === 'project' ? join(project, '.codex') : d.codexHome;
    return {
      server: join(base, 'config.toml'),
      instructions: { file: join(scope === 'project' ? project : d.codexHome, 'AGENTS.md'), header: '' },
      hooks: { file: join(base, 'hooks.json'), table: CODEX_HOOKS },
    };
  },
};

const OPENCODE: ClientSpec = {
  name: 'opencode',
  label: 'OpenCode',
  scopes: ['project', 'user'],
  defaultScope: 'project',
  commands: ['opencode'],
  dirs: (d) => [join(d.configHome, 'opencode')],
  files: (scope, d, project) => {
    const base = scope === 'project' ? project : join(d.configHome, 'opencode');
    return {
      server: existing(base, ['opencode.json', 'opencode.jsonc']),
      instructions: { file: join(base, 'AGENTS.md'), header: '' },
      hooks: { none: 'OpenCode extends itself with plugins, not hook commands' },
    };
  },
};

export const CLIENTS: Readonly<Record<McpClient, ClientSpec>> = Object.freeze({
  'claude-code': CLAUDE_CODE,
  'claude-desktop': CLAUDE_DESKTOP,
  'cursor': CURSOR,
  'vscode': VSCODE,
  'codex': CODEX,
  'opencode': OPENCODE,
});

/**
 * `engram mcp config --client NAME`: the configuration snippet that registers `engram serve` with
 * an MCP client, on stdout only (never written to a file). It is portable: it runs the `engram` on
 * the PATH (the npm-installed CLI) with no path of this machine, so it can be committed in a
 * project file such as `.mcp.json`; the server finds the store by discovery from the directory the
 * client starts it in, and creates it on the first write. `--db` alone pins a store, as
 * `ENGRAM_DB` in the server's environment.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, exampleText } from '../options.js';
import type { Runner } from '../runner.js';

export const MCP_CLIENTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex'] as const;
type Client = (typeof MCP_CLIENTS)[number];

interface Launch {
  command: string;
  args: string[];
  /** `ENGRAM_DB`, only when `--db` was given. */
  env?: Record<string, string>;
}

/** The command every snippet runs: the CLI on the PATH, as `npm install -g engram` puts it there. */
const SERVE_LAUNCH: Launch = Object.freeze({ command: 'engram', args: ['serve'] });

/** Where each client reads its MCP servers from. */
const FILES: Record<Client, string> = {
  'claude-code': '.mcp.json in the project root (or: claude mcp add engram -- engram serve)',
  'claude-desktop': 'claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Linux: ~/.config/Claude/)',
  'cursor': '.cursor/mcp.json in the project, or ~/.cursor/mcp.json',
  'vscode': '.vscode/mcp.json in the workspace',
  'codex': '~/.codex/config.toml, or .codex/config.toml in a trusted project',
};

const tomlString = (s: string) => JSON.stringify(s);

export function mcpSnippet(client: Client, launch: Launch): string {
  const server = { command: launch.command, args: launch.args, ...(launch.env ? { env: launch.env } : {}) };
  switch (client) {
    case 'vscode':
      return JSON.stringify({ servers: { engram: { type: 'stdio', ...server } } }, null, 2);
    case 'codex': {
      const env = Object.entries(launch.env ?? {}).map(([k, v]) => `${k} = ${tomlString(v)}`);
      return [
        '[mcp_servers.engram]',
        `command = ${tomlString(launch.command)}`,
        `args = [${launch.args.map(tomlString).join(', ')}]`,
        ...(env.length > 0 ? [`env = { ${env.join(', ')} }`] : []),
      ].join('\n');
    }
    case 'claude-code':
    case 'claude-desktop':
    case 'cursor':
      return JSON.stringify({ mcpServers: { engram: server } }, null, 2);
  }
}

/** True when `name` is an executable file in one of the PATH's directories. */
function onPath(name: string, searchPath: string): boolean {
  const names = process.platform === 'win32' ? [`${name}.cmd`, `${name}.exe`] : [name];
  return searchPath.split(delimiter).some((dir) => dir !== '' && names.some((n) => existsSync(join(dir, n))));
}

export function configure(command: Command, run: Runner): void {
  command
    .command('config')
    .description('Print the configuration snippet that registers engram with an MCP client (stdout only)')
    .addOption(enumOption('--client <name>', 'the MCP client', MCP_CLIENTS).makeOptionMandatory())
    .addHelpText(
      'after',
      exampleText('engram mcp config --client claude-code', 'engram --db ~/notes/memory.db mcp config --client codex'),
    )
    .action(
      run(async (ctx: CliContext, flags: { client: Client }): Promise<CommandOutput> => {
        const { dbFlag, searchPath } = ctx.settings;
        const launch: Launch = dbFlag === undefined ? SERVE_LAUNCH : { ...SERVE_LAUNCH, env: { ENGRAM_DB: dbFlag } };
        if (!onPath(launch.command, searchPath)) {
          ctx.warn(`'${launch.command}' is not on this PATH: install the CLI (npm install -g engram, or npm link in a checkout) so the client can start it`);
        }
        const snippet = mcpSnippet(flags.client, launch);
        const data = { client: flags.client, file: FILES[flags.client], ...launch, snippet };
        // The snippet itself on stdout, to paste into the file; the details with --json.
        return { kind: 'block', text: `${snippet}\n`, data };
      }),
    );
}

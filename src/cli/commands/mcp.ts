/**
 * `engram mcp config --client NAME`: the exact configuration snippet that registers `engram serve`
 * with an MCP client, with absolute paths (this node, this engram, the store discovery picks).
 */
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, exampleText } from '../options.js';
import type { Runner } from '../runner.js';

export const MCP_CLIENTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex'] as const;
type Client = (typeof MCP_CLIENTS)[number];

interface Launch {
  command: string;
  args: string[];
}

/** Where each client reads its MCP servers from. */
const FILES: Record<Client, string> = {
  'claude-code': '.mcp.json in the project root (or: claude mcp add)',
  'claude-desktop': 'claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Linux: ~/.config/Claude/)',
  'cursor': '.cursor/mcp.json in the project, or ~/.cursor/mcp.json',
  'vscode': '.vscode/mcp.json in the workspace',
  'codex': '~/.codex/config.toml',
};

const tomlString = (s: string) => JSON.stringify(s);

export function mcpSnippet(client: Client, launch: Launch): string {
  const server = { command: launch.command, args: launch.args };
  switch (client) {
    case 'vscode':
      return JSON.stringify({ servers: { engram: { type: 'stdio', ...server } } }, null, 2);
    case 'codex':
      return `[mcp_servers.engram]\ncommand = ${tomlString(launch.command)}\nargs = [${launch.args.map(tomlString).join(', ')}]`;
    case 'claude-code':
    case 'claude-desktop':
    case 'cursor':
      return JSON.stringify({ mcpServers: { engram: server } }, null, 2);
  }
}

export function configure(command: Command, run: Runner): void {
  command
    .command('config')
    .description('Print the configuration snippet that registers engram with an MCP client')
    .addOption(enumOption('--client <name>', 'the MCP client', MCP_CLIENTS).makeOptionMandatory())
    .addHelpText('after', exampleText('engram mcp config --client claude-code > .mcp.json', 'engram mcp config --client codex'))
    .action(
      run(async (ctx: CliContext, flags: { client: Client }): Promise<CommandOutput> => {
        const main = fileURLToPath(new URL('../main.js', import.meta.url));
        const db = ctx.storePath();
        const launch = { command: process.execPath, args: [main, 'serve', '--db', db] };
        const snippet = mcpSnippet(flags.client, launch);
        const data = { client: flags.client, file: FILES[flags.client], ...launch, snippet };
        // The snippet itself on stdout (redirect it into the file); the details with --json.
        return { kind: 'block', text: `${snippet}\n`, data };
      }),
    );
}

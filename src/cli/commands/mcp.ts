/**
 * `engram mcp config --client NAME`: the configuration snippet that registers `engram serve` with
 * an MCP client, on stdout only (never written to a file). It is portable: it runs the `engram` on
 * the PATH (the npm-installed CLI) with no path of this machine, so it can be committed in a
 * project file such as `.mcp.json`; the server finds the store by discovery from the directory the
 * client starts it in, and creates it on the first write. `--db` alone pins a store, as
 * `ENGRAM_DB` in the server's environment.
 */
import type { Command } from 'commander';
import { onPath } from '../../setup/on-path.js';
import { MCP_CLIENTS, type McpClient, mcpSnippet, SERVE_LAUNCH } from '../../setup/server-entry.js';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, exampleText } from '../options.js';
import type { Runner } from '../runner.js';

/** Where each client reads its MCP servers from (`engram setup CLIENT` merges the entry there). */
const FILES: Record<McpClient, string> = {
  'claude-code': '.mcp.json in the project root (or: claude mcp add engram -- engram serve)',
  'claude-desktop': 'claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Linux: ~/.config/Claude/)',
  'cursor': '.cursor/mcp.json in the project, or ~/.cursor/mcp.json',
  'vscode': '.vscode/mcp.json in the workspace',
  'codex': '~/.codex/config.toml, or .codex/config.toml in a trusted project',
  'opencode': 'opencode.json in the project, or ~/.config/opencode/opencode.json',
};

export function configure(command: Command, run: Runner): void {
  command
    .command('config')
    .description('Print the configuration snippet that registers engram with an MCP client (stdout only)')
    .addOption(enumOption(command, '--client <name>', 'the MCP client', MCP_CLIENTS).makeOptionMandatory())
    .addHelpText(
      'after',
      exampleText('engram mcp config --client claude-code', 'engram --db ~/notes/memory.db mcp config --client codex'),
    )
    .action(
      run(async (ctx: CliContext, flags: { client: McpClient }): Promise<CommandOutput> => {
        const { dbFlag, searchPath } = ctx.settings;
        // `--db ''` too is pinned as given.
        const launch = dbFlag === undefined ? SERVE_LAUNCH : { ...SERVE_LAUNCH, env: { ENGRAM_DB: dbFlag } };
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

/**
 * `engram workspace list|add|remove`: named workspaces (KOAS) mapping a name to a scope and corpus
 * id, used by the MCP tools' `workspace` parameter. `default` (scope project) is protected.
 */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

interface AddFlags {
  scope?: string;
  corpus?: string;
  description?: string;
}

export function configure(command: Command, run: Runner): void {
  command
    .command('list')
    .description('List the workspaces: name, scope, corpus id, description')
    .action(
      run(async (ctx: CliContext): Promise<CommandOutput> => {
        const engram = await ctx.open();
        return { kind: 'data', view: 'workspaces', data: { workspaces: await engram.workspaces() } };
      }),
    );
  command
    .command('add')
    .description('Register or update a workspace (scope defaults to the name)')
    .argument('<name>', 'workspace name')
    .option('--scope <scope>', 'memory scope (default: the name)')
    .option('--corpus <id>', 'corpus id')
    .option('--description <text>', 'what the workspace is for')
    .addHelpText('after', exampleText('engram workspace add audit --scope audit-2026 --corpus sias-v7 --description "SIAS audit"'))
    .action(
      run(async (ctx: CliContext, name: string, flags: AddFlags): Promise<CommandOutput> => {
        const engram = await ctx.open({ write: true });
        const result = await engram.registerWorkspace({
          name,
          scope: flags.scope,
          corpus_id: flags.corpus,
          description: flags.description,
        });
        return { kind: 'data', view: 'workspaces', data: { created: result.created, workspaces: [result.workspace] } };
      }),
    );
  command
    .command('remove')
    .description('Remove a workspace (its items stay; default is protected)')
    .argument('<name>', 'workspace name')
    .action(
      run(async (ctx: CliContext, name: string): Promise<CommandOutput> => {
        const engram = await ctx.open();
        const { removed } = await engram.removeWorkspace(name);
        return { kind: 'data', view: 'workspaces', data: { removed: true, workspaces: [removed] } };
      }),
    );
}

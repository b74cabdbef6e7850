/**
 * `engram status`: the store at a glance (size, items, what waits for review, pending vectors, last
 * consolidation, synced folders' lag, wired agent clients), as text for people or JSON for agents.
 * Clients are looked for in the project (the directory holding the discovered `.engram/`, else the
 * working directory) and the home directory.
 */
import { dirname } from 'node:path';
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

export function configure(command: Command, run: Runner): void {
  command.addHelpText('after', exampleText('engram status', 'engram status --json')).action(
    run(async (ctx: CliContext): Promise<CommandOutput> => {
      const engram = await ctx.open();
      const location = ctx.settings.store();
      const project = location.source === 'discovered' ? dirname(dirname(location.path)) : ctx.cwd;
      const report = await engram.status({ clients: { project, home: ctx.settings.home } });
      return { kind: 'data', view: 'status', data: { ...report } };
    }),
  );
}

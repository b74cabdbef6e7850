/** `engram consolidate [--dry-run] [--scope S]`: merge similar STM items, promote MTM items; JSON plan. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

export function configure(command: Command, run: Runner): void {
  command
    .option('--dry-run', 'print the plan; write nothing')
    .option('--scope <scope>', 'only items of this scope')
    .addHelpText('after', exampleText('engram consolidate --dry-run', 'engram consolidate --scope project'))
    .action(
      run(async (ctx: CliContext, flags: { dryRun?: boolean; scope?: string }): Promise<CommandOutput> => {
        const engram = await ctx.open({ write: flags.dryRun !== true });
        const plan = await engram.consolidate({ dryRun: flags.dryRun === true, scope: flags.scope });
        return { kind: 'data', view: 'consolidate', data: { ...plan } };
      }),
    );
}

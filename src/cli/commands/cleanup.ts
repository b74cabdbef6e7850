/**
 * `engram cleanup`: a dry run by default — what would be archived (expired, stale, weak) and, with
 * `--purge DAYS`, which archived items would be deleted; `--apply` does it, with an event each.
 */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText, intOption } from '../options.js';
import type { Runner } from '../runner.js';

interface CleanupFlags {
  apply?: boolean;
  purge?: number;
  scope?: string;
}

export function configure(command: Command, run: Runner): void {
  command
    .option('--apply', 'carry the plan out (default: only show it)')
    .addOption(intOption(command, '--purge <days>', 'also delete archived items unchanged for more than this many days'))
    .option('--scope <scope>', 'only items of this scope')
    .addHelpText('after', exampleText('engram cleanup', 'engram cleanup --purge 90 --apply'))
    .action(
      run(async (ctx: CliContext, flags: CleanupFlags): Promise<CommandOutput> => {
        const engram = await ctx.open();
        const plan = await engram.cleanup({ apply: flags.apply === true, purgeDays: flags.purge, scope: flags.scope });
        return { kind: 'data', view: 'cleanup', data: { ...plan } };
      }),
    );
}

/** `engram review`: quarantined, contradicted and soon-expiring items, and possible contradictions. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText, intOption } from '../options.js';
import type { Runner } from '../runner.js';

export function configure(command: Command, run: Runner): void {
  command
    .addOption(intOption(command, '--within <hours>', 'list items expiring within this many hours (default 24)', 1))
    .addOption(intOption(command, '-n, --limit <n>', 'at most n items per section (default 50)', 1))
    .addHelpText('after', exampleText('engram review', 'engram review --within 72 --json'))
    .action(
      run(async (ctx: CliContext, flags: { within?: number; limit?: number }): Promise<CommandOutput> => {
        const engram = await ctx.open();
        const report = await engram.review({ withinHours: flags.within, limit: flags.limit });
        return { kind: 'data', view: 'review', data: { ...report } };
      }),
    );
}

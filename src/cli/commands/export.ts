/** `engram export`: every item as JSONL on stdout, oldest first. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

export function configure(command: Command, run: Runner): void {
  command
    .option('--with-history', 'include every revision of each item')
    .addHelpText(
      'after',
      exampleText(
        'engram export > backup.jsonl',
        'engram export --with-history | gzip > full.jsonl.gz',
      ),
    )
    .action(
      run(async (ctx: CliContext, flags: { withHistory?: boolean }): Promise<CommandOutput> => {
        const engram = await ctx.open();
        return {
          kind: 'lines',
          lines: engram.exportLines({ withHistory: flags.withHistory === true }),
        };
      }),
    );
}

/** `engram export`: every item as JSONL on stdout, oldest first. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText, secrecyOption } from '../options.js';
import type { Secrecy } from '../../types.js';
import type { Runner } from '../runner.js';

export function configure(command: Command, run: Runner): void {
  command
    .option('--with-history', 'include every revision of each item')
    .addOption(secrecyOption(command))
    .addHelpText(
      'after',
      exampleText(
        'engram export > backup.jsonl',
        'engram export --with-history | gzip > full.jsonl.gz',
        'engram export --secrecy S0 > shareable.jsonl',
      ),
    )
    .action(
      run(async (ctx: CliContext, flags: { withHistory?: boolean; secrecy?: Secrecy }): Promise<CommandOutput> => {
        const engram = await ctx.open();
        return {
          kind: 'lines',
          lines: engram.exportLines({ withHistory: flags.withHistory === true, secrecy: flags.secrecy }),
        };
      }),
    );
}

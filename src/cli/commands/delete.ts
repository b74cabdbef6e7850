/** `engram delete ID`: archive an item (kept, with an event), or `--hard` remove it for good. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

export function configure(command: Command, run: Runner): void {
  command
    .argument('<id>', 'item id')
    .option('--hard', 'remove the row, its tags, revisions and links (events stay)')
    .addHelpText(
      'after',
      exampleText('engram delete MEM-0123456789ab', 'engram delete MEM-0123456789ab --hard'),
    )
    .action(
      run(
        async (ctx: CliContext, id: string, flags: { hard?: boolean }): Promise<CommandOutput> => {
          const engram = await ctx.open();
          const result = await engram.delete(id, { hard: flags.hard === true });
          return { kind: 'data', view: 'delete', data: { ...result } };
        },
      ),
    );
}

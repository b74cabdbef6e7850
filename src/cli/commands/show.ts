/** `engram show ID`: one item with its revision count and links. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

export function configure(command: Command, run: Runner): void {
  command
    .argument('<id>', 'item id')
    .addHelpText('after', exampleText('engram show MEM-0123456789ab'))
    .action(
      run(async (ctx: CliContext, id: string): Promise<CommandOutput> => {
        const engram = await ctx.open();
        return { kind: 'data', view: 'show', data: { ...(await engram.show(id)) } };
      }),
    );
}

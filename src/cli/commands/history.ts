/** `engram history ID`: every stored version of an item, oldest first. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

export function configure(command: Command, run: Runner): void {
  command
    .argument('<id>', 'item id')
    .addHelpText('after', exampleText('engram history MEM-0123456789ab'))
    .action(
      run(async (ctx: CliContext, id: string): Promise<CommandOutput> => {
        const engram = await ctx.open();
        return { kind: 'data', view: 'history', data: { id, versions: await engram.history(id) } };
      }),
    );
}

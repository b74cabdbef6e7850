/** `engram show ID`: one item with its revision count and links. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText, secrecyOption } from '../options.js';
import type { Secrecy } from '../../types.js';
import type { Runner } from '../runner.js';

export function configure(command: Command, run: Runner): void {
  command
    .argument('<id>', 'item id')
    .addOption(secrecyOption(command))
    .addHelpText('after', exampleText('engram show MEM-0123456789ab', 'engram show MEM-0123456789ab --secrecy S0'))
    .action(
      run(async (ctx: CliContext, id: string, flags: { secrecy?: Secrecy }): Promise<CommandOutput> => {
        const engram = await ctx.open();
        return { kind: 'data', view: 'show', data: { ...(await engram.show(id, { secrecy: flags.secrecy })) } };
      }),
    );
}

/** `engram stats`: counts by tier, type, layer and scope; archived; size; schema version. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

export function configure(command: Command, run: Runner): void {
  command.addHelpText('after', exampleText('engram stats --json')).action(
    run(async (ctx: CliContext): Promise<CommandOutput> => {
      const engram = await ctx.open();
      return { kind: 'data', view: 'stats', data: { ...(await engram.stats()) } };
    }),
  );
}

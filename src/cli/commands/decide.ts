/**
 * `engram verify ID` and `engram reject ID [--reason TEXT]`: the two decisions on an item that
 * `engram review` lists. Verify makes it injectable (the reject rules are checked again); reject
 * archives it. `engram forget ID` (mem-context): archived with weight 0, never injected again.
 */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

export function configure(command: Command, run: Runner): void {
  const verify = command.name() === 'verify';
  command.argument('<id>', 'item id');
  if (command.name() === 'reject') command.option('--reason <text>', 'why it was rejected (kept in the event)');
  command
    .addHelpText('after', exampleText(`engram ${command.name()} MEM-0123456789ab${command.name() === 'reject' ? ' --reason "outdated"' : ''}`))
    .action(
      run(async (ctx: CliContext, id: string, flags: { reason?: string }): Promise<CommandOutput> => {
        const engram = await ctx.open();
        const decision = verify
          ? await engram.verify(id)
          : command.name() === 'forget'
            ? await engram.forget(id)
            : await engram.reject(id, { reason: flags.reason });
        return { kind: 'data', view: 'decision', data: { ...decision } };
      }),
    );
}

/**
 * `engram link SRC DST --type T` and `engram links ID`: typed links between items. A `supersedes`
 * link hides its target from recall; `contradicts`, `supports`, `derived_from`, `related` are kept
 * for review and browsing.
 */
import type { Command } from 'commander';
import { LINK_TYPES, type LinkType } from '../../types.js';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, exampleText } from '../options.js';
import type { Runner } from '../runner.js';

export function configure(command: Command, run: Runner): void {
  if (command.name() === 'links') {
    command
      .argument('<id>', 'item id')
      .addHelpText('after', exampleText('engram links MEM-0123456789ab'))
      .action(
        run(async (ctx: CliContext, id: string): Promise<CommandOutput> => {
          const engram = await ctx.open();
          return { kind: 'data', view: 'links', data: { id, links: await engram.links(id) } };
        }),
      );
    return;
  }
  command
    .argument('<src>', 'source item id')
    .argument('<dst>', 'destination item id')
    .addOption(enumOption(command, '--type <type>', 'link type', LINK_TYPES).makeOptionMandatory())
    .addHelpText(
      'after',
      exampleText('engram link MEM-new000000001 MEM-old000000001 --type supersedes'),
    )
    .action(
      run(async (ctx: CliContext, src: string, dst: string, flags: { type: LinkType }): Promise<CommandOutput> => {
        const engram = await ctx.open();
        const result = await engram.link({ src_id: src, dst_id: dst, type: flags.type });
        return { kind: 'data', view: 'links', data: { id: src, created: result.created, links: [result.link] } };
      }),
    );
}

/** `engram list`: filter, sort and page through items, with a total count. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { addFilterOptions, type FilterFlags, filterFromFlags } from '../filter-options.js';
import { enumOption, exampleText, intOption } from '../options.js';
import type { Runner } from '../runner.js';

interface ListFlags extends FilterFlags {
  sort?: 'updated' | 'created';
  limit?: number;
  offset?: number;
}

export function configure(command: Command, run: Runner): void {
  addFilterOptions(command)
    .addOption(enumOption(command, '--sort <field>', 'sort by', ['updated', 'created']))
    .addOption(intOption(command, '--limit <n>', 'at most n items (default 50)', 1))
    .addOption(intOption(command, '--offset <n>', 'skip n items'))
    .addHelpText(
      'after',
      exampleText('engram list --layer run --task T123 --since 7d', 'engram list --tags auth,decision --limit 10'),
    )
    .action(run(listCommand));
}

async function listCommand(ctx: CliContext, flags: ListFlags): Promise<CommandOutput> {
  const engram = await ctx.open();
  const result = await engram.list({
    ...filterFromFlags(flags),
    sort: flags.sort,
    limit: flags.limit,
    offset: flags.offset,
  });
  return { kind: 'data', view: 'list', data: { ...result, count: result.items.length } };
}

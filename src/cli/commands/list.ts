/** `engram list`: filter, sort and page through items, with a total count. */
import type { Command } from 'commander';
import { ITEM_TYPES, LAYERS, TIERS } from '../../types.js';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, exampleText, intOption, listOption, timeOption } from '../options.js';
import type { Runner } from '../runner.js';

interface ListFlags {
  layer?: (typeof LAYERS)[number];
  type?: (typeof ITEM_TYPES)[number];
  tier?: (typeof TIERS)[number];
  task?: string;
  step?: string;
  key?: string;
  keyPrefix?: string;
  tags?: string[];
  scope?: string;
  archived?: boolean;
  includeArchived?: boolean;
  since?: string;
  until?: string;
  sort?: 'updated' | 'created';
  limit?: number;
  offset?: number;
}

export function configure(command: Command, run: Runner): void {
  command
    .addOption(enumOption('--layer <layer>', 'layer', LAYERS))
    .addOption(enumOption('--type <type>', 'item type', ITEM_TYPES))
    .addOption(enumOption('--tier <tier>', 'tier', TIERS))
    .option('--task <id>', 'task id')
    .option('--step <id>', 'step id')
    .option('--key <key>', 'exact key')
    .option('--key-prefix <prefix>', 'key starts with')
    .addOption(listOption('--tags <tags>', 'all of these tags'))
    .option('--scope <scope>', 'scope')
    .option('--archived', 'only archived items')
    .option('--include-archived', 'archived and active items')
    .addOption(timeOption('--since <when>', 'updated at or after', 'past'))
    .addOption(timeOption('--until <when>', 'updated before', 'past'))
    .addOption(enumOption('--sort <field>', 'sort by', ['updated', 'created']))
    .addOption(intOption('--limit <n>', 'at most n items (default 50)', 1))
    .addOption(intOption('--offset <n>', 'skip n items'))
    .addHelpText(
      'after',
      exampleText(
        'engram list --layer run --task T123 --since 7d',
        'engram list --tags auth,decision --limit 10',
      ),
    )
    .action(run(listCommand));
}

async function listCommand(ctx: CliContext, flags: ListFlags): Promise<CommandOutput> {
  const engram = await ctx.open();
  const result = await engram.list({
    layer: flags.layer,
    type: flags.type,
    tier: flags.tier,
    task_id: flags.task,
    step_id: flags.step,
    key: flags.key,
    key_prefix: flags.keyPrefix,
    tags: flags.tags,
    scope: flags.scope,
    archived: flags.archived ? 'only' : flags.includeArchived ? 'include' : 'exclude',
    since: flags.since,
    until: flags.until,
    sort: flags.sort,
    limit: flags.limit,
    offset: flags.offset,
  });
  return { kind: 'data', view: 'list', data: { ...result, count: result.items.length } };
}

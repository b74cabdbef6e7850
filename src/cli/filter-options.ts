/** The item filters shared by `list` and `search`: their flags and their translation to input. */
import type { Command } from 'commander';
import type { ListInput } from '../engram.js';
import { ITEM_TYPES, LAYERS, type TIERS } from '../types.js';
import { enumOption, TIER_VALUES, listOption, timeOption } from './options.js';

export interface FilterFlags {
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
  quarantined?: boolean;
  since?: string;
  until?: string;
}

/** Adds the filter flags to `command`. */
export function addFilterOptions(command: Command): Command {
  return command
    .addOption(enumOption(command, '--layer <layer>', 'layer', LAYERS))
    .addOption(enumOption(command, '--type <type>', 'item type', ITEM_TYPES))
    .addOption(enumOption(command, '--tier <tier>', 'tier', TIER_VALUES))
    .option('--task <id>', 'task id')
    .option('--step <id>', 'step id')
    .option('--key <key>', 'exact key')
    .option('--key-prefix <prefix>', 'key starts with')
    .addOption(listOption(command, '--tags <tags>', 'all of these tags'))
    .option('--scope <scope>', 'scope')
    .option('--archived', 'only archived items')
    .option('--include-archived', 'archived and active items')
    .option('--quarantined', 'only items held by the write policy')
    .addOption(timeOption(command, '--since <when>', 'updated at or after', 'past'))
    .addOption(timeOption(command, '--until <when>', 'updated before', 'past'));
}

/** The library filter for the given flags. */
export function filterFromFlags(flags: FilterFlags): Omit<ListInput, 'sort' | 'limit' | 'offset'> {
  return {
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
    ...(flags.quarantined ? { quarantined: 'only' as const } : {}),
    since: flags.since,
    until: flags.until,
  };
}

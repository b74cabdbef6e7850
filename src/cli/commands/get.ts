/** `engram get`: one item by id, or the newest at a logical key. */
import type { Command } from 'commander';
import { EngramError } from '../../errors.js';
import { LAYERS } from '../../types.js';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, exampleText } from '../options.js';
import type { Runner } from '../runner.js';

interface GetFlags {
  id?: string;
  layer?: (typeof LAYERS)[number];
  key?: string;
  task?: string;
  step?: string;
}

export function configure(command: Command, run: Runner): void {
  command
    .argument('[id]', 'item id (same as --id)')
    .option('--id <id>', 'item id')
    .addOption(enumOption(command, '--layer <layer>', 'layer of the logical key', LAYERS))
    .option('--key <key>', 'logical key')
    .option('--task <id>', 'task id')
    .option('--step <id>', 'step id')
    .addHelpText(
      'after',
      exampleText(
        'engram get MEM-0123456789ab',
        'engram get --layer feature --task T123 --key business_rules',
      ),
    )
    .action(run(getCommand));
}

async function getCommand(
  ctx: CliContext,
  idArg: string | undefined,
  flags: GetFlags,
): Promise<CommandOutput> {
  const id = idArg ?? flags.id;
  if (id === undefined && (flags.layer === undefined || flags.key === undefined)) {
    throw new EngramError('PARAM_ERROR', 'Give an id, or --layer and --key', {
      hint: 'engram get MEM-… or engram get --layer feature --key contract [--task T] [--step S]',
    });
  }
  const engram = await ctx.open();
  const item = await engram.get(
    id !== undefined
      ? { id }
      : {
          layer: flags.layer as (typeof LAYERS)[number],
          key: flags.key as string,
          task_id: flags.task,
          step_id: flags.step,
        },
  );
  return { kind: 'data', view: 'item', data: { item } };
}

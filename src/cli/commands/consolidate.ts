/**
 * `engram consolidate [--dry-run] [--scope S] [--candidates [--limit N] [--offset N]]`: lossless
 * folds, MTM promotion; JSON plan. With `--candidates`, a batch of groups for the host model.
 */
import type { Command } from 'commander';
import { EngramError } from '../../errors.js';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText, intOption } from '../options.js';
import type { Runner } from '../runner.js';

interface ConsolidateFlags {
  dryRun?: boolean;
  scope?: string;
  candidates?: boolean;
  limit?: number;
  offset?: number;
}

export function configure(command: Command, run: Runner): void {
  command
    .option('--dry-run', 'print the plan; write nothing')
    .option('--scope <scope>', 'only items of this scope')
    .option('--candidates', 'host-model consolidation: a batch of groups to extract and merge, each with a prompt (JSON)')
    .addOption(intOption(command, '--limit <n>', 'with --candidates: groups per batch (default 10; 0: only the counts)'))
    .addOption(intOption(command, '--offset <n>', 'with --candidates: groups to pass over first (default 0)'))
    .addHelpText('after', exampleText(
      'engram consolidate --dry-run',
      'engram consolidate --scope project',
      'engram consolidate --candidates --json | jq -r \'.extract[0].prompt\' | llm | engram pull',
      'engram consolidate --candidates --limit 3 --json | jq \'.more\'',
    ))
    .action(
      run(async (ctx: CliContext, flags: ConsolidateFlags): Promise<CommandOutput> => {
        if (flags.candidates) {
          const engram = await ctx.open();
          const { scope, limit, offset } = flags;
          const groups = await engram.consolidationCandidates({ scope, limit, offset });
          return { kind: 'data', view: 'candidates', data: { ...groups } };
        }
        if (flags.limit !== undefined || flags.offset !== undefined) {
          throw new EngramError('PARAM_ERROR', '--limit and --offset are options of --candidates', {
            hint: 'engram consolidate --candidates --limit N (consolidate itself always runs over the whole store)',
          });
        }
        const engram = await ctx.open();
        const plan = await engram.consolidate({ dryRun: flags.dryRun === true, scope: flags.scope });
        return { kind: 'data', view: 'consolidate', data: { ...plan } };
      }),
    );
}

/** `engram consolidate [--dry-run] [--scope S] [--candidates]`: lossless folds, MTM promotion; JSON plan. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

interface ConsolidateFlags {
  dryRun?: boolean;
  scope?: string;
  candidates?: boolean;
}

export function configure(command: Command, run: Runner): void {
  command
    .option('--dry-run', 'print the plan; write nothing')
    .option('--scope <scope>', 'only items of this scope')
    .option('--candidates', 'host-model consolidation: groups to extract and merge, each with a prompt (JSON)')
    .addHelpText('after', exampleText(
      'engram consolidate --dry-run',
      'engram consolidate --scope project',
      'engram consolidate --candidates --json | jq -r \'.extract[0].prompt\' | llm | engram pull',
    ))
    .action(
      run(async (ctx: CliContext, flags: ConsolidateFlags): Promise<CommandOutput> => {
        if (flags.candidates) {
          const engram = await ctx.open();
          const groups = await engram.consolidationCandidates({ scope: flags.scope });
          return { kind: 'data', view: 'candidates', data: { ...groups } };
        }
        const engram = await ctx.open();
        const plan = await engram.consolidate({ dryRun: flags.dryRun === true, scope: flags.scope });
        return { kind: 'data', view: 'consolidate', data: { ...plan } };
      }),
    );
}

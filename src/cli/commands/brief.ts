/**
 * `engram brief`: the session brief on stdout, the block `engram hook session-start` gives an
 * agent when a session starts (live, injectable memories, long-term first; no query).
 */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText, intOption, secrecyOption } from '../options.js';
import type { Runner } from '../runner.js';
import type { Secrecy } from '../../types.js';

interface BriefFlags {
  budget?: number;
  scope?: string;
  secrecy?: Secrecy;
}

export function configure(command: Command, run: Runner): void {
  command
    .addOption(intOption(command, '--budget <tokens>', 'token budget (default 600)', 1))
    .option('--scope <scope>', 'scope')
    .addOption(secrecyOption(command))
    .addHelpText('after', exampleText('engram brief', 'engram brief --budget 300 | llm "What should I know about this project?"'))
    .action(run(async (ctx: CliContext, flags: BriefFlags): Promise<CommandOutput> => {
      const engram = await ctx.open();
      const result = await engram.brief({ budget: flags.budget, scope: flags.scope, secrecy: flags.secrecy });
      return { kind: 'block', text: result.inject_text, data: { ...result } };
    }));
}

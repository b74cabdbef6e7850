/** `engram suggest [CONTEXT] --task T --tags … --key-prefix …`: memtool's ranked recommendations. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText, intOption, listOption } from '../options.js';
import type { Runner } from '../runner.js';

interface SuggestFlags {
  task?: string;
  tags?: string[];
  keyPrefix?: string;
  k?: number;
}

export function configure(command: Command, run: Runner): void {
  command
    .argument('[context]', 'what you are working on (its words are matched)')
    .option('--task <id>', 'candidates of this task')
    .addOption(listOption(command, '--tags <tags>', 'candidates with all of these tags'))
    .option('--key-prefix <prefix>', 'candidates whose key starts with this')
    .addOption(intOption(command, '-k, --k <n>', 'at most n suggestions (default 5)', 1))
    .addHelpText(
      'after',
      exampleText('engram suggest --task T123', 'engram suggest "login rate limit" --tags auth -k 3'),
    )
    .action(
      run(async (ctx: CliContext, context: string | undefined, flags: SuggestFlags): Promise<CommandOutput> => {
        const engram = await ctx.open();
        const suggestions = await engram.suggest({
          context,
          task_id: flags.task,
          tags: flags.tags,
          key_prefix: flags.keyPrefix,
          k: flags.k,
        });
        return { kind: 'data', view: 'suggest', data: { count: suggestions.length, suggestions } };
      }),
    );
}

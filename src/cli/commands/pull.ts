/**
 * `engram pull`: an LLM's answer on stdin becomes memory — the proposals it contains (JSON,
 * `<memory>` blocks or ```memory fences, Markdown sections with Title:/Type:/Tags:), or one note.
 * All or nothing: the policy reads the whole input, then each proposal; if any is refused nothing
 * is stored and the error (POLICY_REJECTED, or the refusal's code) lists the refused proposals.
 */
import type { Command } from 'commander';
import { ITEM_TYPES } from '../../types.js';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, exampleText, listOption } from '../options.js';
import { readStdin } from '../read-input.js';
import type { Runner } from '../runner.js';
import { noteAutoConsolidation } from '../write-notes.js';

interface PullFlags {
  tags?: string[];
  title?: string;
  type?: (typeof ITEM_TYPES)[number];
  scope?: string;
  auto?: boolean;
}

export function configure(command: Command, run: Runner): void {
  command
    .addOption(listOption(command, '--tags <tags>', 'tags added to every item'))
    .option('--title <title>', 'title of a proposal that has none')
    .addOption(enumOption(command, '--type <type>', 'type of a proposal that has none (default note)', ITEM_TYPES))
    .option('--scope <scope>', 'scope of a proposal that has none')
    .option('--no-auto', 'no automatic consolidation after these writes (or ENGRAM_AUTO_CONSOLIDATE=off)')
    .addHelpText(
      'after',
      exampleText(
        'echo "We chose JWT for stateless auth" | engram pull --tags auth --title "Auth decision"',
        'engram push "API design" | llm "List decisions as a JSON array of {title, content, type, tags}" | engram pull',
      ),
    )
    .action(
      run(async (ctx: CliContext, flags: PullFlags): Promise<CommandOutput> => {
        const text = await readStdin(ctx.stdin);
        const engram = await ctx.open({ write: true, auto: flags.auto !== false });
        const { tags, title, type, scope } = flags;
        const result = await engram.pull(text, { tags, title, type, scope });
        for (const entry of result.items) {
          if (entry.status === 'quarantined') ctx.warn(`proposal ${entry.index} quarantined (${(entry.rules ?? []).join(', ')})`);
        }
        noteAutoConsolidation(ctx, result);
        return { kind: 'data', view: 'pull', data: { ...result } };
      }),
    );
}

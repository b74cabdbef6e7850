/** `engram reindex`: rebuild the full-text index from the items, the canonical data. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

export function configure(command: Command, run: Runner): void {
  command.addHelpText('after', exampleText('engram reindex')).action(
    run(async (ctx: CliContext): Promise<CommandOutput> => {
      const engram = await ctx.open();
      const result = await engram.reindex({ onProgress: (done, total) => ctx.progress(`indexed ${done}/${total}`) });
      ctx.progress('');
      if (!result.full_text) ctx.warn('FTS5 is unavailable in this SQLite build: nothing to index, search uses LIKE');
      return { kind: 'data', view: 'stats', data: { ...result } };
    }),
  );
}

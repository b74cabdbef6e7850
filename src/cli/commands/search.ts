/** `engram search QUERY`: full-text search (BM25 over FTS5, LIKE fallback) with list's filters. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { addFilterOptions, type FilterFlags, filterFromFlags } from '../filter-options.js';
import { exampleText, intOption } from '../options.js';
import type { Runner } from '../runner.js';

interface SearchFlags extends FilterFlags {
  k?: number;
}

export function configure(command: Command, run: Runner): void {
  addFilterOptions(command.argument('<query>', 'words to look for (any text is safe)'))
    .addOption(intOption('-k, --k <n>', 'at most n results (default 10)', 1))
    .addHelpText(
      'after',
      exampleText('engram search "password policy"', 'engram search 密码 --tags auth -k 5'),
    )
    .action(run(searchCommand));
}

async function searchCommand(ctx: CliContext, query: string, flags: SearchFlags): Promise<CommandOutput> {
  const engram = await ctx.open();
  const result = await engram.search({ ...filterFromFlags(flags), query, k: flags.k });
  if (!result.fts) ctx.warn('full-text index unavailable: substring (LIKE) search, unranked by BM25');
  return { kind: 'data', view: 'search', data: { ...result } };
}

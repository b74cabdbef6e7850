/** `engram search QUERY`: full-text search (BM25 over FTS5, LIKE fallback) with list's filters. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { addFilterOptions, type FilterFlags, filterFromFlags } from '../filter-options.js';
import { SORTS, type SearchSort } from '../../search/rank.js';
import { enumOption, exampleText, intOption, secrecyOption } from '../options.js';
import type { Secrecy } from '../../types.js';
import type { Runner } from '../runner.js';

interface SearchFlags extends FilterFlags {
  k?: number;
  sort?: SearchSort;
  explain?: boolean;
  injectable?: boolean;
  includeQuarantined?: boolean;
  secrecy?: Secrecy;
}

export function configure(command: Command, run: Runner): void {
  addFilterOptions(command.argument('<query>', 'words to look for (any text is safe)'))
    .addOption(intOption('-k, --k <n>', 'at most n results (default 10)', 1))
    .addOption(enumOption('--sort <order>', 'order of the hits (default relevance)', SORTS))
    .option('--injectable', 'only items that recall may paste into prompts')
    .option('--include-quarantined', 'also items held by the write policy (flagged [QUARANTINED])')
    .addOption(secrecyOption())
    .option('--explain', 'show every ranking factor of each hit')
    .addHelpText(
      'after',
      exampleText('engram search "password policy" --explain', 'engram search 密码 --tags auth -k 5 --sort mixed'),
    )
    .action(run(searchCommand));
}

async function searchCommand(ctx: CliContext, query: string, flags: SearchFlags): Promise<CommandOutput> {
  const engram = await ctx.open();
  const result = await engram.search({
    ...filterFromFlags(flags),
    query,
    k: flags.k,
    sort: flags.sort,
    explain: flags.explain,
    injectable: flags.injectable,
    ...(flags.includeQuarantined && !flags.quarantined ? { quarantined: 'include' } : {}),
    secrecy: flags.secrecy,
  });
  if (!result.fts) ctx.warn('full-text index unavailable: substring (LIKE) search, unranked by BM25');
  return { kind: 'data', view: 'search', data: { ...result } };
}

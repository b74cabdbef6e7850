/**
 * `engram search QUERY`: full-text search (BM25 over FTS5, LIKE fallback), search by meaning over
 * the stored vectors, or both fused (`--mode`), with list's filters.
 */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { addFilterOptions, type FilterFlags, filterFromFlags } from '../filter-options.js';
import { SORTS, type SearchSort } from '../../search/rank.js';
import { enumOption, exampleText, intOption, secrecyOption } from '../options.js';
import { RETRIEVAL_MODES, type RetrievalMode } from '../../retrieval/retrieve.js';
import type { Secrecy } from '../../types.js';
import type { Runner } from '../runner.js';

interface SearchFlags extends FilterFlags {
  k?: number;
  sort?: SearchSort;
  explain?: boolean;
  injectable?: boolean;
  includeQuarantined?: boolean;
  secrecy?: Secrecy;
  mode?: RetrievalMode;
}

export function configure(command: Command, run: Runner): void {
  addFilterOptions(command.argument('<query>', 'words to look for (any text is safe)'))
    .addOption(intOption(command, '-k, --k <n>', 'at most n results (default 10)', 1))
    .addOption(enumOption(command, '--sort <order>', 'order of the hits (default relevance)', SORTS))
    .option('--injectable', 'only items that recall may paste into prompts')
    .option('--include-quarantined', 'also items held by the write policy (flagged [QUARANTINED])')
    .addOption(secrecyOption(command))
    .addOption(enumOption(command,
      '--mode <mode>',
      'lexical (words), semantic (meaning, needs vectors) or hybrid (both fused); default hybrid when vectors match the embedder',
      RETRIEVAL_MODES,
    ))
    .option('--explain', 'show every ranking factor of each hit (and lexical rank, vector rank, similarity, fused score)')
    .addHelpText(
      'after',
      exampleText(
        'engram search "password policy" --explain',
        'engram search 密码 --tags auth -k 5 --sort mixed',
        'engram search "automobile wheels" --mode hybrid --explain',
      ),
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
    mode: flags.mode,
  });
  for (const warning of result.warnings ?? []) ctx.warn(warning);
  if (!result.fts && result.mode !== 'semantic') ctx.warn('full-text index unavailable: substring (LIKE) search, unranked by BM25');
  return { kind: 'data', view: 'search', data: { ...result } };
}

/**
 * `engram recall QUERY` (and `engram push QUERY`): the token-budgeted injection block on stdout,
 * ready to paste into a prompt. Nothing is printed when nothing matches; when only items that are
 * not injectable matched, or when the budget leaves every match out, a warning on stderr says so
 * and how to change it. `--json` gives the
 * structured result instead. `push --tags` tags the chunks `--source` ingests (memctl, RAGIX) and
 * `push --filter-tags` filters; recall's `--tags` filters, as in search and list.
 */
import type { Command } from 'commander';
import { RETRIEVAL_MODES, type RetrievalMode } from '../../retrieval/retrieve.js';
import { ITEM_TYPES, type Secrecy, type TIERS } from '../../types.js';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, TIER_VALUES, exampleText, intOption, listOption, secrecyOption } from '../options.js';
import type { Runner } from '../runner.js';
import { plural } from '../plural.js';

interface RecallFlags {
  budget?: number;
  mode?: 'inject' | 'catalog' | 'hybrid';
  header?: boolean;
  tier?: (typeof TIERS)[number];
  type?: (typeof ITEM_TYPES)[number];
  scope?: string;
  tags?: string[];
  filterTags?: string[];
  secrecy?: Secrecy;
  source?: string[];
  searchMode?: RetrievalMode;
}

/** The hint's pointer when `--mode` is given a retrieval mode. */
const SEARCH_MODE_POINTER = '--mode is the output form; the retrieval mode (lexical, semantic, hybrid) is --search-mode.';

export function configure(command: Command, run: Runner): void {
  command
    .argument('<query>', 'what the prompt is about')
    .addOption(intOption(command, '--budget <tokens>', 'token budget, counted by --tokenizer (default 1500, ENGRAM_BUDGET)', 1))
    .addOption(enumOption(command,
      '--mode <mode>',
      'output form: block, list of candidates, or block plus what did not fit (how matches are found is --search-mode)',
      ['inject', 'catalog', 'hybrid'],
      { lexical: SEARCH_MODE_POINTER, semantic: SEARCH_MODE_POINTER },
    ))
    .addOption(enumOption(command,
      '--search-mode <mode>',
      'how matches are found: lexical, semantic (needs vectors) or hybrid; default hybrid when vectors match the embedder',
      RETRIEVAL_MODES,
    ))
    .option('--no-header', 'omit the opening and closing lines of the block')
    .addOption(enumOption(command, '--tier <tier>', 'tier', TIER_VALUES))
    .addOption(enumOption(command, '--type <type>', 'item type', ITEM_TYPES))
    .option('--scope <scope>', 'scope');
  if (command.name() === 'push') {
    // As in memctl and RAGIX, push's --tags tags what --source ingests; filtering is --filter-tags.
    command
      .option('--source <paths...>', 'first ingest these files, directories or globs (injectable, --format auto)')
      .addOption(listOption(command, '--tags <tags>', 'tags for every chunk --source ingests (without --source: filter, as before; prefer --filter-tags)'))
      .addOption(listOption(command, '--filter-tags <tags>', 'recall only items with all of these tags'));
  } else {
    command.addOption(listOption(command, '--tags <tags>', 'all of these tags'));
  }
  command.addOption(secrecyOption(command));
  command
    .addHelpText(
      'after',
      exampleText(
        `engram ${command.name()} "authentication flow" | llm "Summarise how login works"`,
        `engram ${command.name()} "database schema" --budget 800 --mode hybrid`,
        `engram ${command.name()} "automobile wheels" --search-mode semantic`,
        ...(command.name() === 'push'
          ? ['engram push "how does auth work" --source src/auth docs/*.md | llm', 'engram push "release steps" --source docs/release.md --tags release']
          : []),
      ),
    )
    .action(run((ctx: CliContext, query: string, flags: RecallFlags) => recallCommand(ctx, query, flags, command.name() === 'push')));
}

/**
 * The tags recall filters on. `push --tags` tags the files of `--source`; without `--source`
 * there is nothing to tag and it filters as it did before `--filter-tags`, with a warning.
 */
function filterTags(ctx: CliContext, flags: RecallFlags, push: boolean): string[] | undefined {
  if (!push) return flags.tags;
  const ingesting = flags.source !== undefined && flags.source.length > 0;
  if (ingesting || flags.tags === undefined) return flags.filterTags;
  ctx.warn('push --tags without --source filters the recall, as before; say --filter-tags (with --source, --tags tags the ingested files)');
  return [...new Set([...flags.tags, ...(flags.filterTags ?? [])])];
}

async function recallCommand(ctx: CliContext, query: string, flags: RecallFlags, push: boolean) {
  const budget = ctx.settings.budget(flags.budget);
  const tags = filterTags(ctx, flags, push);
  if (flags.source !== undefined && flags.source.length > 0) {
    const { runIngest } = await import('./ingest.js');
    const report = await runIngest(ctx, flags.source, { format: 'auto', injectable: true, scope: flags.scope, tags: flags.tags });
    const t = report.totals;
    for (const f of report.files) {
      if (f.status === 'failed' || f.status === 'partial') ctx.warn(`${f.path}: ${f.reason ?? f.status}`);
    }
    const more = `${t.retagged ? `${t.retagged} retagged, ` : ''}${t.partial ? `${t.partial} partial, ` : ''}${t.removed ? `${t.removed} removed, ` : ''}`;
    ctx.info(`ingested ${t.ingested} file(s), ${t.unchanged} unchanged, ${more}${t.skipped} skipped, ${t.failed} failed (${t.chunks} chunks)`);
  }
  const engram = await ctx.open();
  const result = await engram.recall({
    query,
    budget,
    mode: flags.mode,
    header: flags.header,
    tier: flags.tier,
    type: flags.type,
    scope: flags.scope,
    tags,
    secrecy: flags.secrecy,
    search_mode: flags.searchMode,
  });
  for (const warning of result.warnings ?? []) ctx.warn(warning);
  if (result.non_injectable > 0) {
    const n = result.non_injectable;
    ctx.warn(`nothing injectable matched; ${n} matching item${n === 1 ? ' is' : 's are'} not injectable: ${result.hint ?? ''}`);
  }
  // Matches that the budget left out entirely: an empty block is then never a silent surprise.
  if (result.mode !== 'catalog' && result.matched > 0 && result.injected.length === 0) {
    ctx.warn(`${plural(result.matched, 'item')} matched but none fits in a budget of ${plural(result.budget, 'token')}: raise --budget`);
  }
  return { kind: 'block', text: result.inject_text, data: { ...result } } satisfies CommandOutput;
}

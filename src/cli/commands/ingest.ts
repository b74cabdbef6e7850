/**
 * `engram ingest SOURCE...`: files, directories, globs and `-` (stdin) into chunk items with
 * provenance. A progress line on stderr (on a terminal), a per-file report on stdout; exit 1 when
 * any file failed or had a chunk refused by the policy (the rest is stored all the same).
 */
import type { Command } from 'commander';
import { MAX_FILE_BYTES } from '../../ingest/formats.js';
import type { Tier } from '../../types.js';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, TIER_VALUES, exampleText, intOption, listOption } from '../options.js';
import { readStdinBytes } from '../read-input.js';
import type { Runner } from '../runner.js';
import { noteAutoConsolidation } from '../write-notes.js';

export interface IngestFlags {
  chunkTokens?: number;
  tags?: string[];
  format?: 'text' | 'auto';
  injectable?: boolean;
  scope?: string;
  corpus?: string;
  tier?: Tier;
  include?: string[];
  exclude?: string[];
  dryRun?: boolean;
  prune?: boolean;
  auto?: boolean;
  followSymlinks?: boolean;
  workers?: number;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Runs an ingest with a progress line; shared with `push --source`. */
export async function runIngest(ctx: CliContext, sources: string[], flags: IngestFlags) {
  const dryRun = flags.dryRun === true;
  const engram = await ctx.open({ write: !dryRun, preview: dryRun, auto: flags.auto !== false });
  const report = await engram.ingest({
    sources,
    cwd: ctx.cwd,
    chunk_tokens: flags.chunkTokens,
    tags: flags.tags,
    format: flags.format,
    injectable: flags.injectable,
    scope: flags.scope,
    corpus: flags.corpus,
    tier: flags.tier,
    include: flags.include,
    exclude: flags.exclude,
    dry_run: flags.dryRun,
    prune: flags.prune,
    follow_symlinks: flags.followSymlinks,
    workers: flags.workers,
    // Bytes, not text: invalid UTF-8 gets the same fallback and file hash as on disk.
    readStdin: () => readStdinBytes(ctx.stdin, MAX_FILE_BYTES),
    onProgress: (p) =>
      ctx.progress(
        p.current === ''
          ? ''
          : `ingest ${p.files_done}/${p.files_total} files · ${megabytes(p.bytes)} · ${p.chunks} chunks · ${p.current}`,
      ),
  });
  if (report.symlinks_outside.length > 0) {
    const n = report.symlinks_outside.length;
    ctx.warn(`skipped ${n} symlink${n === 1 ? '' : 's'} pointing outside the ingest root: ${report.symlinks_outside.join(', ')} (--follow-symlinks to ingest them)`);
  }
  noteAutoConsolidation(ctx, report);
  return report;
}

export function configure(command: Command, run: Runner): void {
  command
    .argument('<sources...>', 'files, directories, glob patterns, or - for stdin')
    .addOption(intOption(command, '--chunk-tokens <n>', 'chunk budget in tokens (characters/4), capped by the 2,000-character policy limit (default 1800)', 1))
    .addOption(listOption(command, '--tags <tags>', 'tags for every chunk'))
    .addOption(enumOption(command, '--format <format>', 'auto infers title, type and tags from path and content', ['text', 'auto']))
    .option('--injectable', 'let recall inject the chunks (default: not, until consolidated or verified)')
    .option('--scope <scope>', 'scope of the chunks (default project)')
    .option('--corpus <id>', 'corpus id: separates collections of documents')
    .addOption(enumOption(command, '--tier <tier>', 'tier of the chunks (default stm)', TIER_VALUES))
    .addOption(listOption(command, '--include <globs>', 'only files matching these globs (relative to each directory)'))
    .addOption(listOption(command, '--exclude <globs>', 'skip files matching these globs'))
    .option('--dry-run', 'read, extract, chunk and check everything; write nothing')
    .option('--follow-symlinks', 'follow symlinks whose target is outside the directory ingested (default: skipped and reported)')
    .option('--no-prune', 'keep the chunks of files gone from a re-ingested directory (default: archive them)')
    .option('--no-auto', 'no automatic consolidation after this ingest (or ENGRAM_AUTO_CONSOLIDATE=off)')
    .addOption(intOption(command, '--workers <n>', 'threads judging chunks by the policy (default: the idle cores, for 512 KB or more; 0: none)'))
    .addHelpText(
      'after',
      exampleText(
        'engram ingest docs/ --tags docs --format auto',
        'engram ingest . --include "*.md,*.ts" --exclude "*.test.ts" --dry-run',
        'git log -p -n 20 | engram ingest - --tags history',
      ),
    )
    .action(
      run(async (ctx: CliContext, sources: string[], flags: IngestFlags): Promise<CommandOutput> => {
        const report = await runIngest(ctx, sources, flags);
        // Exit 1 when a file failed or a chunk was refused: the report on stdout says which.
        const incomplete = report.totals.failed + report.totals.partial > 0;
        return { kind: 'data', view: 'ingest', data: { ...report }, exitCode: incomplete ? 1 : 0 };
      }),
    );
}

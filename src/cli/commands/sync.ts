/**
 * `engram sync [NAME...]`, `sync --watch`, `sync add PATH`, `sync list`, `sync remove NAME`: folders
 * kept in sync with the store (memctl's `mount`/`sync`). A sync prints the ingest report of each
 * folder and exits 1 when a file failed, a chunk was refused or a folder is missing. `--watch`
 * syncs once, then on every change (a line per sync on stderr) until SIGINT or SIGTERM, and prints
 * what it did when it stops.
 */
import type { Command } from 'commander';
import type { SyncReport } from '../../engram.js';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, exampleText, intOption, listOption } from '../options.js';
import type { Runner } from '../runner.js';
import { noteAutoConsolidation } from '../write-notes.js';
import type { WatchSummary } from '../views/sync.js';

interface SyncFlags {
  watch?: boolean;
  debounce?: number;
  auto?: boolean;
}

interface AddFlags {
  name?: string;
  include?: string[];
  exclude?: string[];
  tags?: string[];
  format?: 'text' | 'auto';
  scope?: string;
  corpus?: string;
}

/** One line on what a sync of a folder did: `docs: 1 ingested, 2 removed, 14 unchanged`. */
function syncLine(folder: SyncReport['folders'][number]): string {
  if (folder.missing) return `${folder.name}: folder not found (${folder.path}); nothing changed`;
  const t = folder.report.totals;
  const parts = [
    t.ingested ? `${t.ingested} ingested` : '',
    t.retagged ? `${t.retagged} retagged` : '',
    t.partial ? `${t.partial} partial` : '',
    t.removed ? `${t.removed} removed` : '',
    t.failed ? `${t.failed} failed` : '',
    `${t.unchanged} unchanged`,
  ].filter((x) => x !== '');
  return `${folder.name}: ${parts.join(', ')}`;
}

function incomplete(report: SyncReport): boolean {
  return report.totals.failed + report.totals.partial > 0 || report.folders.some((f) => f.missing);
}

async function watchCommand(ctx: CliContext, names: string[], flags: SyncFlags): Promise<CommandOutput> {
  const engram = await ctx.open({ auto: flags.auto !== false });
  const totals = {
    files: 0, ingested: 0, unchanged: 0, retagged: 0, partial: 0, removed: 0, skipped: 0, failed: 0,
    chunks: 0, bytes: 0,
  };
  const summary: WatchSummary = { watched: [], runs: 0, totals };
  const stop = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const watcher = await engram.watch({
    names,
    debounceMs: flags.debounce,
    onSync(report) {
      summary.runs++;
      for (const key of Object.keys(summary.totals) as (keyof SyncReport['totals'])[]) summary.totals[key] += report.totals[key];
      for (const folder of report.folders) ctx.info(`synced ${syncLine(folder)}`);
      noteAutoConsolidation(ctx, report);
    },
    onError(error, folder) {
      const message = error instanceof Error ? error.message : String(error);
      ctx.warn(`${folder === undefined ? 'sync' : `watching ${folder}`}: ${message}`);
    },
  });
  summary.watched = [...watcher.folders];
  ctx.info(`watching ${watcher.folders.join(', ')}; Ctrl-C stops`);
  await stop;
  await watcher.close();
  return { kind: 'data', view: 'watch', data: summary };
}

export function configure(command: Command, run: Runner): void {
  command
    .argument('[names...]', 'the folders to sync (default: every one)')
    .option('--watch', 'sync, then sync again whenever files change, until Ctrl-C')
    .addOption(intOption(command, '--debounce <ms>', 'with --watch: quiet time after a change before syncing (default 300)', 0))
    .option('--no-auto', 'no automatic consolidation after this sync (or ENGRAM_AUTO_CONSOLIDATE=off)')
    .addHelpText(
      'after',
      exampleText('engram sync add docs --include "*.md"', 'engram sync', 'engram sync docs --watch', 'engram sync list'),
    )
    .action(
      run(async (ctx: CliContext, names: string[], flags: SyncFlags): Promise<CommandOutput> => {
        if (flags.watch === true) return watchCommand(ctx, names, flags);
        const engram = await ctx.open({ auto: flags.auto !== false });
        const report = await engram.sync({
          names,
          onProgress: (p) =>
            ctx.progress(p.current === '' ? '' : `sync ${p.folder} ${p.files_done}/${p.files_total} files · ${p.chunks} chunks · ${p.current}`),
        });
        if (report.folders.length === 0) ctx.info('no folder is synced yet: engram sync add PATH');
        noteAutoConsolidation(ctx, report);
        return { kind: 'data', view: 'sync', data: { ...report }, exitCode: incomplete(report) ? 1 : 0 };
      }),
    );
  command
    .command('add')
    .description('Keep a directory in sync: register it (the next `engram sync` ingests it)')
    .argument('<path>', 'the directory')
    .option('--name <name>', 'the folder\'s name (default: the directory\'s)')
    .addOption(listOption(command, '--include <globs>', 'only files matching these globs'))
    .addOption(listOption(command, '--exclude <globs>', 'skip files matching these globs'))
    .addOption(listOption(command, '--tags <tags>', 'tags for every chunk'))
    .addOption(enumOption(command, '--format <format>', 'auto infers title, type and tags from path and content', ['text', 'auto']))
    .option('--scope <scope>', 'scope of the chunks (default project)')
    .option('--corpus <id>', 'corpus id of the chunks')
    .addHelpText('after', exampleText('engram sync add docs', 'engram sync add ~/notes --name notes --include "*.md" --tags notes'))
    .action(
      run(async (ctx: CliContext, path: string, flags: AddFlags): Promise<CommandOutput> => {
        const engram = await ctx.open({ write: true });
        const { created, folder } = await engram.addFolder({ path, cwd: ctx.cwd, ...flags });
        if (created) ctx.info(`run \`engram sync ${folder.name}\` to ingest it, or \`engram sync --watch\``);
        return { kind: 'data', view: 'folders', data: { created, folders: [folder] } };
      }),
    );
  command
    .command('list')
    .description('The synced folders: path, last sync, files added, changed and removed since')
    .action(
      run(async (ctx: CliContext): Promise<CommandOutput> => {
        const engram = await ctx.open();
        return { kind: 'data', view: 'folders', data: { folders: await engram.folders() } };
      }),
    );
  command
    .command('remove')
    .description('Stop syncing a folder (its chunks stay)')
    .argument('<name>', 'the folder\'s name')
    .action(
      run(async (ctx: CliContext, name: string): Promise<CommandOutput> => {
        const engram = await ctx.open();
        const { removed } = await engram.removeFolder(name);
        return { kind: 'data', view: 'folders', data: { removed: true, folders: [removed] } };
      }),
    );
}

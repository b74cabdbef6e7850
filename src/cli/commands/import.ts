/**
 * `engram import FILE|-`: upsert items by id from JSON Lines. Invalid lines (a malformed id among
 * them) are reported with their numbers and skipped, the valid ones imported; the run then exits
 * 1. Unknown keys are ignored with a warning per key, or with `--strict` make their line invalid.
 *
 * `engram import --from SOURCE PATH [--dry-run]`: another tool's store (see `importers/`). The
 * report is the data; the run exits 1 when anything of the source is not in engram afterwards
 * (refused by the policy, invalid, not mapped, a link without its other end), 0 otherwise.
 */
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { EngramError } from '../../errors.js';
import { IMPORT_SOURCES, type ImportSourceName } from '../../importers/source.js';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

/** Fails early, before the store is opened, when the source cannot be read. */
function checkSource(source: string): void {
  if (source === '-') return;
  let isDirectory: boolean;
  try {
    isDirectory = statSync(source).isDirectory();
  } catch (error) {
    throw new EngramError(
      'PARAM_ERROR',
      `Cannot read file ${source} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      {
        hint: 'Check the path, or use - to read standard input.',
        details: { path: source },
        cause: error,
      },
    );
  }
  if (isDirectory) {
    throw new EngramError('PARAM_ERROR', `${source} is a directory`, {
      hint: 'Give a JSONL file from `engram export`, or - for stdin.',
      details: { path: source },
    });
  }
}

// Created right before iteration: a readline interface left waiting on another await can miss
// its input's end and never finish.
function readLines(source: string, ctx: CliContext): AsyncIterable<string> {
  const input = source === '-' ? ctx.stdin : createReadStream(source, { encoding: 'utf8' });
  return createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
}

interface ImportFlags {
  strict?: boolean;
  from?: string;
  dryRun?: boolean;
}

function sourceName(name: string): ImportSourceName {
  if ((IMPORT_SOURCES as readonly string[]).includes(name)) return name as ImportSourceName;
  throw new EngramError('PARAM_ERROR', `Unknown source '${name}'`, {
    hint: `Valid values: ${IMPORT_SOURCES.join(', ')}`,
    details: { field: 'from', valid: [...IMPORT_SOURCES] },
  });
}

async function importFrom(ctx: CliContext, name: string, path: string, flags: ImportFlags): Promise<CommandOutput> {
  const from = sourceName(name);
  if (flags.strict === true) throw new EngramError('PARAM_ERROR', '--strict applies to JSONL files, not to --from');
  const dryRun = flags.dryRun === true;
  const engram = await ctx.open({ write: !dryRun, preview: dryRun });
  // Ctrl-C stops after the batch being written; what is committed stays, a re-run finishes.
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  process.once('SIGINT', interrupt);
  let result;
  try {
    result = await engram.importFrom({ from, path, dryRun, stdin: ctx.stdin, signal: stop.signal });
  } finally {
    process.off('SIGINT', interrupt);
  }
  const { embedding: _e, ...report } = result;
  if (report.interrupted === true) {
    ctx.warn(`interrupted after ${report.read} records; run the same command again to finish`);
    return { kind: 'data', view: 'importFrom', data: report, exitCode: 130 };
  }
  if (report.quarantined > 0) {
    const n = report.quarantined;
    const verb = dryRun ? 'would be' : n === 1 ? 'is' : 'are';
    ctx.warn(`${n} imported item${n === 1 ? '' : 's'} ${verb} quarantined: \`engram review\` lists them`);
  }
  if (report.read === 0 && report.not_mapped.length === 0) ctx.warn(`nothing to import in ${path}`);
  const left = report.refusals.length + report.not_mapped.length;
  if (left > 0) ctx.warn(`${left} refused or not mapped${dryRun ? ' (dry run)' : ''}: listed under refusals and not_mapped`);
  return { kind: 'data', view: 'importFrom', data: report, exitCode: left > 0 ? 1 : 0 };
}

export function configure(command: Command, run: Runner): void {
  command
    .argument('<file>', 'JSONL file, or \'-\' for stdin; with --from, the source\'s file or folder')
    .option('--strict', 'a line with a key import does not know is invalid (default: ignored, counted in unknown_keys)')
    .option('--from <source>', `import another tool's store: ${IMPORT_SOURCES.join(', ')}`)
    .option('--dry-run', 'with --from: read, map and check everything, show counts and the field mapping, write nothing')
    .addHelpText(
      'after',
      exampleText(
        'engram import backup.jsonl',
        'cat backup.jsonl | engram import -',
        'engram import --strict backup.jsonl',
        'engram import --from memtool memtool-export.jsonl --dry-run',
        'memtool export | engram import --from memtool -',
        'engram import --from basic-memory ~/basic-memory',
      ),
    )
    .action(
      run(async (ctx: CliContext, source: string, flags: ImportFlags): Promise<CommandOutput> => {
        if (flags.from !== undefined) return importFrom(ctx, flags.from, source, flags);
        if (flags.dryRun === true) {
          throw new EngramError('PARAM_ERROR', '--dry-run applies to --from only', {
            hint: `To preview another tool's store: engram import --from SOURCE ${source} --dry-run (SOURCE: ${IMPORT_SOURCES.join(', ')}).`,
          });
        }
        checkSource(source);
        const engram = await ctx.open({ write: true });
        const report = await engram.importLines(readLines(source, ctx), { strict: flags.strict === true });
        for (const [key, lines] of Object.entries(report.unknown_keys)) {
          ctx.warn(`unknown key ${key} ignored on ${lines} line${lines === 1 ? '' : 's'}`);
        }
        // The report, every invalid line included, is the data on stdout; a failed line fails the run.
        if (report.invalid > 0) {
          const lines = report.invalid === 1 ? '1 line was' : `${report.invalid} lines were`;
          ctx.warn(`${lines} not imported (listed under errors); the valid ones were`);
        }
        return { kind: 'data', view: 'import', data: { ...report }, exitCode: report.invalid > 0 ? 1 : 0 };
      }),
    );
}

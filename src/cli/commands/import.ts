/**
 * `engram import FILE|-`: upsert items by id from JSON Lines. Invalid lines (a malformed id among
 * them) are reported with their numbers and skipped, the valid ones imported; the run then exits
 * 1. Unknown keys are ignored with a warning per key, or with `--strict` make their line invalid.
 */
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { EngramError } from '../../errors.js';
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

export function configure(command: Command, run: Runner): void {
  command
    .argument('<file>', 'JSONL file, or \'-\' for stdin')
    .option('--strict', 'a line with a key import does not know is invalid (default: ignored, counted in unknown_keys)')
    .addHelpText(
      'after',
      exampleText('engram import backup.jsonl', 'cat backup.jsonl | engram import -', 'engram import --strict backup.jsonl'),
    )
    .action(
      run(async (ctx: CliContext, source: string, flags: { strict?: boolean }): Promise<CommandOutput> => {
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

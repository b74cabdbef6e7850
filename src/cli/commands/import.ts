/** `engram import FILE|-`: upsert items by id from JSON Lines. */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { EngramError } from '../../errors.js';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

async function openLines(source: string, ctx: CliContext): Promise<AsyncIterable<string>> {
  if (source === '-')
    return createInterface({ input: ctx.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  const stream = createReadStream(source, { encoding: 'utf8' });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new EngramError('PARAM_ERROR', `Cannot read file ${source} (${error.code ?? 'error'})`, {
          hint: 'Check the path, or use - to read standard input.',
          details: { path: source },
          cause: error,
        }),
      ),
    );
  });
  return createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
}

export function registerImport(program: Command, run: Runner): void {
  program
    .command('import')
    .description('Import JSON Lines (from `engram export`), upserting by id')
    .argument('<file>', "JSONL file, or '-' for stdin")
    .addHelpText(
      'after',
      exampleText('engram import backup.jsonl', 'cat backup.jsonl | engram import -'),
    )
    .action(
      run(async (ctx: CliContext, source: string): Promise<CommandOutput> => {
        const lines = await openLines(source, ctx);
        const engram = await ctx.open({ write: true });
        const report = await engram.importLines(lines);
        for (const failure of report.errors) {
          ctx.warn(`line ${failure.line}: ${failure.error}: ${failure.message}`);
        }
        return { kind: 'data', view: 'import', data: { ...report } };
      }),
    );
}

/**
 * `engram ask PATH… QUESTION --llm CMD`: ingest the paths (files, directories, globs; injectable,
 * `--format auto`, as `push --source` does), then the recall–answer loop on the question with
 * every flag of `engram loop` (the initial context is the recall of the question, in `--scope`
 * when given, which is also the scope of the ingested chunks).
 */
import type { Command } from 'commander';
import { EngramError } from '../../errors.js';
import type { CliContext, CommandOutput } from '../context.js';
import { addLoopOptions, type LoopFlags, requireLlm, runLoopCli } from '../loop-run.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

export function configure(command: Command, run: Runner): void {
  command.argument('<paths-and-question...>', 'files, directories or globs to ingest, then the question (last)');
  addLoopOptions(command, { replay: false })
    .addHelpText(
      'after',
      exampleText(
        'engram ask docs/ src/auth "How does login work?" --llm "claude -p"',
        'engram ask notes.md "What did we decide about caching?" --llm ollama:llama3 --protocol regex',
      ),
    )
    .action(run(askCommand));
}

async function askCommand(ctx: CliContext, words: string[], flags: LoopFlags): Promise<CommandOutput> {
  const question = words.at(-1);
  const paths = words.slice(0, -1);
  if (paths.length === 0 || question === undefined || question.trim() === '') {
    throw new EngramError('PARAM_ERROR', 'ask needs at least one path and a question', {
      hint: 'engram ask PATH... "QUESTION" --llm CMD',
    });
  }
  requireLlm(flags);
  const { runIngest } = await import('./ingest.js');
  const report = await runIngest(ctx, paths, { format: 'auto', injectable: true, scope: flags.scope });
  for (const f of report.files) {
    if (f.status === 'failed' || f.status === 'partial') ctx.warn(`${f.path}: ${f.reason ?? f.status}`);
  }
  const t = report.totals;
  ctx.info(`ingested ${t.ingested} file(s), ${t.unchanged} unchanged, ${t.skipped} skipped, ${t.failed} failed (${t.chunks} chunks)`);
  return runLoopCli(ctx, question, flags);
}

/**
 * `engram loop QUESTION --llm CMD`: memctl's bounded recall–answer loop. The initial context is
 * standard input when something is piped in (`engram push Q | engram loop Q --llm …`); when
 * nothing is, or only blank text, it is the recall of the question. The final answer goes to
 * stdout; `--trace` / `--trace-file` record the run as JSONL, and `--replay FILE` prints the
 * recorded answer again with no model call. See `src/loop/controller.ts` for the protocol and the
 * stopping conditions.
 */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { addLoopOptions, type LoopFlags, replayLoopCli, requireLlm, runLoopCli } from '../loop-run.js';
import { exampleText } from '../options.js';
import { readStdin } from '../read-input.js';
import type { Runner } from '../runner.js';
import { EngramError } from '../../errors.js';

export function configure(command: Command, run: Runner): void {
  command.argument('[question]', 'what to answer from memory (optional with --replay)');
  addLoopOptions(command, { replay: true })
    .addHelpText(
      'after',
      exampleText(
        'engram push "How does auth work?" --source docs/ | engram loop "How does auth work?" --llm "claude -p" --trace',
        'engram loop "database schema" --llm ollama:llama3 --trace-file run.jsonl',
        'engram loop --replay run.jsonl',
        'engram loop "what do we know about deploys" --llm cat --protocol passive   # shows the prompt',
      ),
    )
    .action(run(loopCommand));
}

async function loopCommand(ctx: CliContext, question: string | undefined, flags: LoopFlags): Promise<CommandOutput> {
  if (flags.replay !== undefined) return replayLoopCli(ctx, question, flags);
  if (question === undefined || question.trim() === '') {
    throw new EngramError('PARAM_ERROR', 'The loop needs a question', { hint: 'engram loop "QUESTION" --llm CMD' });
  }
  requireLlm(flags);
  // A pipe gives the initial context; an empty one (nothing piped, `< /dev/null`) falls back to recall.
  const context = ctx.stdin.isTTY === true ? undefined : await readStdin(ctx.stdin);
  return runLoopCli(ctx, question, flags, context);
}

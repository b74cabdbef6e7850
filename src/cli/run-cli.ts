/**
 * The CLI composition root: builds the run's settings (flags > environment > config file) once and
 * passes them down in the command context, declares every command, runs one, renders its data, and
 * maps every failure to the error contract.
 */

import { Command, CommanderError } from 'commander';
import { createSettings, type Environment } from '../config/settings.js';
import { toEngramError } from '../errors.js';
import { VERSION } from '../version.js';
import { fromCommander } from './commander-error.js';
import { COMMANDS } from './commands/index.js';
import { inCliTerms } from './error-terms.js';
import { type CliContext, type CommandOutput, commandContext } from './context.js';
import { commanderArgv, type GlobalFlags, invokedCommand, ownFormatAt, pickFormat } from './global-flags.js';
import { createStoreOpener } from './open-store.js';
import { createOutput, type Output, type OutputStream } from './output.js';
import type { Runner } from './runner.js';

export interface CliIo {
  argv: string[];
  env: Environment;
  cwd: string;
  stdin: CliContext['stdin'];
  stdout: OutputStream;
  stderr: OutputStream;
  /** Ends the run at once (default: the process); `engram daemon` ends only the command. */
  exit?: (code: number) => void;
}

async function buildProgram(run: Runner, io: CliIo): Promise<Command> {
  const program = new Command('engram')
    .description('Persistent, governed, searchable memory for LLM agents, in one SQLite file.')
    .version(VERSION, '-V, --version', 'print the version')
    .option(
      '--db <path>',
      'database file (default: nearest .engram/memory.db, else ~/.engram/memory.db)',
    )
    .option('--json', 'JSON output (default when stdout is not a terminal)')
    .option('-q, --quiet', 'no warnings or progress on stderr')
    .option('-v, --verbose', 'show error causes and stack traces')
    .option('--session <id>', 'actor recorded on writes (or ENGRAM_SESSION)')
    .option(
      '--embedder <spec>',
      'vectors for semantic search: model2vec:PATH, ollama:MODEL[@URL] or openai:MODEL[@BASE_URL] (or ENGRAM_EMBEDDER)',
    )
    .option(
      '--tokenizer <name>',
      'what recall budgets count: chars (built-in estimate, default), o200k or cl100k (or ENGRAM_TOKENIZER)',
    )
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      getOutHelpWidth: () => (io.stdout as { columns?: number }).columns ?? 80,
      getErrHelpWidth: () => (io.stderr as { columns?: number }).columns ?? 80,
      outputError: () => {},
    })
    .addHelpText(
      'after',
      '\nExamples:\n  $ engram init\n  $ engram put --type decision --tags auth --content "We chose JWT for stateless auth"\n  $ engram list --tags auth\n  $ engram <command> --help',
    );
  const invoked = invokedCommand(io.argv);
  // Commander would give a program option priority over a command's own option of the same name.
  if (ownFormatAt(io.argv) < 0) program.option('--format <format>', 'output format: text|json');
  // A line that names a command and asks no help parses as if the others were not there: they are
  // declared only for the program's help, an unknown command's error and `help` (some 40 commands).
  const alone = COMMANDS.some((entry) => entry.name === invoked)
    && !io.argv.some((arg) => arg === 'help' || arg === '--help' || arg === '-h');
  for (const entry of COMMANDS) {
    if (alone && entry.name !== invoked) continue;
    const command = program.command(entry.name).description(entry.summary);
    if (entry.name === invoked) (await entry.load()).configure(command, run);
    command.exitOverride().configureOutput(program.configureOutput());
  }
  return program;
}

/** Runs the CLI once and returns the process exit code. */
export async function runCli(io: CliIo): Promise<number> {
  const base = createSettings({ env: io.env, cwd: io.cwd });
  // A session hook answers in its client's protocol, whatever the format, and never fails the agent.
  const hook = invokedCommand(io.argv) === 'hook';
  const picked = pickFormat(io.argv, base.formatEnv, io.stdout.isTTY === true);
  const verbose = io.argv.includes('--verbose') || io.argv.includes('-v');
  const quiet = io.argv.includes('--quiet') || io.argv.includes('-q');
  const output: Output = createOutput({
    format: picked.format,
    explicit: picked.explicit && !hook,
    quiet,
    color: picked.format === 'text' && io.stdout.isTTY === true && !base.noColor && base.termColor,
    stdout: io.stdout,
    stderr: io.stderr,
  });
  const stores = createStoreOpener(output);
  let exitCode = 0;

  const run: Runner
    = (handler) =>
      async (...args) => {
        const command = args[args.length - 1] as Command;
        const globals = command.optsWithGlobals<GlobalFlags>();
        const settings = base.withFlags({
          db: globals.db, session: globals.session, embedder: globals.embedder, tokenizer: globals.tokenizer,
        });
        const ctx = commandContext({ settings, io, output, stores, verbose });
        let result: CommandOutput;
        try {
          result = await handler(ctx, ...args.slice(0, -1));
        } finally {
          await stores.settle();
        }
        await output.write(result);
        if (result.kind !== 'lines') exitCode = result.exitCode ?? 0;
      };

  const program = await buildProgram(run, io);
  try {
    if (picked.problem && !hook) throw picked.problem;
    await program.parseAsync(commanderArgv(io.argv), { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      if (hook) return 0;
      if (error.code === 'commander.help') return error.exitCode;
      output.error(fromCommander(error, program, io.argv), verbose);
      return 2;
    }
    const failure = inCliTerms(toEngramError(error));
    output.error(failure, verbose);
    return hook ? 0 : failure.exitCode;
  } finally {
    stores.close();
  }
}

/**
 * A command line read by commander: the program with its commands declared, parsed, and
 * commander's own errors turned into engram's (run-cli.ts reads the hot commands' plain lines
 * without it, fast-line.ts).
 */
import { Command, CommanderError } from 'commander';
import { VERSION } from '../version.js';
import { fromCommander } from './commander-error.js';
import { COMMANDS } from './commands/index.js';
import { FAST_COMMANDS, type FastSpec, fastSpecOf } from './fast-line.js';
import { commanderArgv, invokedCommand, ownFormatAt } from './global-flags.js';
import type { Output } from './output.js';
import type { CliIo } from './run-cli.js';
import type { Runner } from './runner.js';

/** The program as the CLI declares it for `io.argv` (only the command it names, when it asks no help). */
export async function buildProgram(run: Runner, io: CliIo): Promise<Command> {
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

/**
 * Parses `io.argv` with commander and runs the command it names; the exit code of commander's own
 * outcomes (help, version, a parse error), undefined when the command ran (other errors are thrown).
 */
export async function parseWithCommander(
  io: CliIo,
  run: Runner,
  output: Output,
  options: { verbose: boolean; hook: boolean },
): Promise<number | undefined> {
  const program = await buildProgram(run, io);
  try {
    await program.parseAsync(commanderArgv(io.argv), { from: 'user' });
    return undefined;
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
    if (options.hook) return 0;
    if (error.code === 'commander.help') return error.exitCode;
    output.error(fromCommander(error, program, io.argv), options.verbose);
    return 2;
  }
}

/**
 * The fast reading's table of the hot commands (fast-line.ts), from the program as this CLI
 * declares each of them: made by the bundle's build, and by the test that checks both readings agree.
 */
export async function fastLinesSpec(io: CliIo): Promise<FastSpec> {
  const spec: FastSpec = { program: { options: [], defaults: {} }, commands: {} };
  const idle: Runner = () => async () => {};
  for (const name of FAST_COMMANDS) {
    const one = fastSpecOf(await buildProgram(idle, { ...io, argv: [name] }), [name]);
    spec.program = one.program;
    Object.assign(spec.commands, one.commands);
  }
  return spec;
}

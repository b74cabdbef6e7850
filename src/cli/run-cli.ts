/**
 * The CLI composition root: reads flags, environment and config (the only CLI module that does),
 * declares every command, runs one, renders its data, and maps every failure to the error contract.
 */

import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { CONFIG_FILE, discoverStore, missingStoreError, STORE_DIR } from '../config/discover-store.js';
import { ftsTokenizerFromEnv, localeFtsTokenizer } from '../config/fts-tokenizer.js';
import type { Engram } from '../engram.js';
import { EngramError, toEngramError } from '../errors.js';
import { SECRECY_TIERS, type Secrecy } from '../types.js';
import { VERSION } from '../version.js';
import { COMMANDS } from './commands/index.js';
import type { CliContext, CommandOutput, OpenOptions } from './context.js';
import { deferredEngram } from './deferred-engram.js';
import { claimNewStore, dropIfEmpty, type NewStore } from './new-store.js';
import { createOutput, type Output, type OutputFormat } from './output.js';
import type { Runner } from './runner.js';

export interface CliIo {
  argv: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin: CliContext['stdin'];
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Program-level flags that take a value (their value is not a command name). */
const VALUE_FLAGS = new Set(['--db', '--format', '--session']);

/** The command named on the command line (`engram help put` names put), if any. */
/** Commands whose own --format flag is not the output format. */
const OWN_FORMAT_FLAG: ReadonlySet<string> = new Set(['ingest']);

function invokedCommand(argv: readonly string[]): string | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    if (VALUE_FLAGS.has(arg)) i++;
    else if (!arg.startsWith('-')) words.push(arg);
  }
  return words[0] === 'help' ? words[1] : words[0];
}

interface GlobalFlags {
  db?: string;
  json?: boolean;
  format?: OutputFormat;
  quiet?: boolean;
  verbose?: boolean;
  session?: string;
}

function formatError(value: string, source: string): EngramError {
  return new EngramError('PARAM_ERROR', `Invalid ${source} '${value}'`, {
    hint: 'Valid values: text, json',
  });
}

/**
 * Output format before commander runs, so that even a parse error is rendered as asked:
 * `--json` / `--format` > `ENGRAM_FORMAT` > JSON unless stdout is a terminal.
 */
function pickFormat(io: CliIo): { format: OutputFormat; explicit: boolean; problem?: EngramError } {
  let flag: string | undefined;
  const invoked = invokedCommand(io.argv);
  for (let i = 0; i < io.argv.length; i++) {
    const arg = io.argv[i] ?? '';
    if (arg === '--') break;
    // After `ingest`, --format is ingest's own (text|auto, as RAGIX); --json still picks JSON.
    if (invoked !== undefined && OWN_FORMAT_FLAG.has(invoked) && arg === invoked) {
      if (io.argv.slice(i + 1).includes('--json')) flag = 'json';
      break;
    }
    if (arg === '--json') flag = 'json';
    else if (arg === '--format') flag = io.argv[i + 1];
    else if (arg.startsWith('--format=')) flag = arg.slice('--format='.length);
  }
  const fallback: OutputFormat = io.stdout.isTTY ? 'text' : 'json';
  for (const [value, source] of [
    [flag, '--format'],
    [io.env.ENGRAM_FORMAT, 'ENGRAM_FORMAT'],
  ] as const) {
    if (value === undefined || value === '') continue;
    if (value === 'json' || value === 'text') return { format: value, explicit: true };
    return { format: fallback, explicit: false, problem: formatError(value, source) };
  }
  return { format: fallback, explicit: false };
}

function commandNames(program: Command): string[] {
  return program.commands.map((c) => c.name());
}

/** Turns commander's parse errors into PARAM_ERROR with a useful hint. */
function fromCommander(error: CommanderError, program: Command, argv: string[]): EngramError {
  const [first = '', ...rest] = error.message.replace(/^error: /, '').split('\n');
  const message = first.charAt(0).toUpperCase() + first.slice(1);
  const name = argv.find((a) => commandNames(program).includes(a));
  const command = program.commands.find((c) => c.name() === name);
  let hint = rest.join(' ').trim();
  if (error.code === 'commander.unknownCommand') {
    hint = `${hint} Commands: ${commandNames(program).join(', ')}`.trim();
  } else if (error.code === 'commander.unknownOption') {
    const flags = (command ?? program).options.map((o) => o.long).filter(Boolean);
    const globals = program.options.map((o) => o.long).filter(Boolean);
    hint
      = `${hint} Valid flags${command ? ` for ${command.name()}` : ''}: ${[...flags, ...globals].join(', ')}`.trim();
  } else if (hint === '') {
    hint = `Run \`engram ${command ? `${command.name()} ` : ''}--help\` for usage.`;
  }
  return new EngramError('PARAM_ERROR', message, { hint, details: { commander: error.code } });
}

function secrecyFromEnv(value: string | undefined): Secrecy | undefined {
  if (value === undefined || value === '') return undefined;
  if ((SECRECY_TIERS as readonly string[]).includes(value)) return value as Secrecy;
  throw new EngramError('PARAM_ERROR', `Invalid ENGRAM_SECRECY '${value}'`, {
    hint: `Valid values: ${SECRECY_TIERS.join(', ')}`,
  });
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
  if (invoked === undefined || !OWN_FORMAT_FLAG.has(invoked)) program.option('--format <format>', 'output format: text|json');
  for (const entry of COMMANDS) {
    const command = program.command(entry.name).description(entry.summary);
    if (entry.name === invoked) (await entry.load()).configure(command, run);
    command.exitOverride().configureOutput(program.configureOutput());
  }
  return program;
}

/** A store this run created, and the connection it opened on it (none if the open failed). */
interface Created {
  store: NewStore;
  engram: Engram | undefined;
}

/** Runs the CLI once and returns the process exit code. */
export async function runCli(io: CliIo): Promise<number> {
  const picked = pickFormat(io);
  const verbose = io.argv.includes('--verbose') || io.argv.includes('-v');
  const quiet = io.argv.includes('--quiet') || io.argv.includes('-q');
  const output: Output = createOutput({
    format: picked.format,
    explicit: picked.explicit,
    quiet,
    color: picked.format === 'text' && io.stdout.isTTY === true && !('NO_COLOR' in io.env),
    stdout: io.stdout as never,
    stderr: io.stderr as never,
  });
  const opened: Engram[] = [];
  /** Stores this run created (claimed with O_EXCL), with the connection it opened on each. */
  const created: Created[] = [];
  let exitCode = 0;

  /**
   * Once the command is done, whether it succeeded or not: a store it created that holds nothing
   * is removed (a failed command leaves everything as it was), and one that stays is announced.
   * Commands that create a store return plain data, so closing it before rendering is safe.
   */
  const settleCreated = async () => {
    for (const { store, engram } of created.splice(0)) {
      if (engram !== undefined) {
        engram.close();
        const at = opened.indexOf(engram);
        if (at >= 0) opened.splice(at, 1);
      }
      if (!(await dropIfEmpty(store))) output.info(`created store ${store.path}`);
    }
  };

  const run: Runner
    = (handler) =>
      async (...args) => {
        const command = args[args.length - 1] as Command;
        const globals = command.optsWithGlobals<GlobalFlags>();
        const locate = () =>
          discoverStore({
            flag: globals.db,
            env: io.env.ENGRAM_DB,
            cwd: io.cwd,
            home: io.env.HOME ?? homedir(),
          });
        const ctx: CliContext = {
          cwd: io.cwd,
          env: io.env,
          stdin: io.stdin,
          warn: (message) => output.warn(message),
          info: (message) => output.info(message),
          progress: (message) => output.progress(message),
          verbose,
          dbFlag: globals.db,
          async open(options: OpenOptions = {}) {
            const { write = false, defer = false, preview = false, auto = true, ftsTokenizer, secrecy } = options;
            const { checkPages } = options;
            const location = locate();
            let { path } = location;
            if (!location.exists && !write && !defer) {
              if (!preview) throw missingStoreError(location);
              output.info(`no store at ${path} yet: the dry run compares with an empty one (the real run creates it)`);
              path = ':memory:';
            }
            // One connection per store per run: `push --source` ingests, then recalls, on the same one.
            const reused = opened.find((e) => e.path === path && path !== ':memory:');
            if (reused !== undefined) return reused;
            const [{ openEngram, AUTO_CONSOLIDATE_DEFAULTS }, { autoConsolidateSettings, readProjectConfig }]
              = await Promise.all([import('../engram.js'), import('../config/project-config.js')]);
            // A store's config.json sits beside it in its .engram directory (never beside a --db file elsewhere).
            const config
              = basename(dirname(path)) === STORE_DIR ? readProjectConfig(join(dirname(path), CONFIG_FILE)) : {};
            const autoConsolidate = auto
              ? autoConsolidateSettings(AUTO_CONSOLIDATE_DEFAULTS, config, io.env.ENGRAM_AUTO_CONSOLIDATE)
              : undefined;
            const settings = {
              session: globals.session ?? io.env.ENGRAM_SESSION ?? null,
              fullText: io.env.ENGRAM_FTS !== 'off',
              secrecy: secrecy ?? secrecyFromEnv(io.env.ENGRAM_SECRECY),
              autoConsolidate,
              checkPages,
            };
            /**
             * Opens the store, creating it (and the user store's .engram/) when it is missing. A
             * store `serve` creates is announced at once; one a command creates is announced, or
             * removed if it holds nothing, when the command ends (`settleCreated`).
             */
            const openStore = async (announce: boolean) => {
              const missing = path !== ':memory:' && !existsSync(path);
              // Only a store created now takes a tokenizer: an existing one keeps the one recorded in it.
              const tokenizer = missing
                ? (ftsTokenizer
                  ?? ftsTokenizerFromEnv(io.env.ENGRAM_FTS_TOKENIZER)
                  ?? config.fts_tokenizer
                  ?? localeFtsTokenizer(io.env))
                : undefined;
              const claimed = missing ? claimNewStore(path, location.source === 'user') : undefined;
              const entry: Created | undefined = claimed && { store: claimed, engram: undefined };
              // Tracked before the open, so that a store whose creation fails half-way is removed too.
              if (entry !== undefined && !announce) created.push(entry);
              const engram = await openEngram({ path, ...settings, ftsTokenizer: tokenizer });
              if (entry === undefined) return engram;
              if (announce) output.info(`created store ${path}`);
              else entry.engram = engram;
              return engram;
            };
            const engram = location.exists || !defer || path === ':memory:'
              ? await openStore(false)
              : deferredEngram({
                  path,
                  empty: await openEngram({ path: ':memory:', ...settings, autoConsolidate: undefined }),
                  exists: () => existsSync(path),
                  open: () => openStore(true),
                });
            opened.push(engram);
            return engram;
          },
        };
        let result: CommandOutput;
        try {
          result = await handler(ctx, ...args.slice(0, -1));
        } finally {
          await settleCreated();
        }
        await output.write(result);
        if (result.kind === 'data') exitCode = result.exitCode ?? 0;
      };

  const program = await buildProgram(run, io);
  try {
    if (picked.problem) throw picked.problem;
    await program.parseAsync(io.argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      if (error.code === 'commander.help') return error.exitCode;
      output.error(fromCommander(error, program, io.argv), verbose);
      return 2;
    }
    const failure = toEngramError(error);
    output.error(failure, verbose);
    return failure.exitCode;
  } finally {
    for (const engram of opened) engram.close();
  }
}

/**
 * The CLI composition root: builds the run's settings (flags > environment > config file) once and
 * passes them down in the command context, reads the command line (a hot command's plain line
 * without commander, fast-line.ts; any other with it, commander-line.ts), runs the command, renders
 * its data, and maps every failure to the error contract.
 */

import type { Command } from 'commander';
import { createSettings, type Environment } from '../config/settings.js';
import { toEngramError } from '../errors.js';
import { COMMANDS } from './commands/index.js';
import { inCliTerms } from './error-terms.js';
import { type CliContext, type CommandOutput, commandContext } from './context.js';
import { type FastLine, type FastSpec, readFastLine, runFastLine } from './fast-line.js';
import { type GlobalFlags, invokedCommand, pickFormat } from './global-flags.js';
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

/**
 * The table of the hot commands' declarations, put in the bundle by its build (fast-line.ts);
 * undefined in the modules, which read every line with commander.
 */
declare const ENGRAM_FAST_LINES: string | undefined;
let fastSpec: FastSpec | undefined;

/** `argv` read without commander, when it is a hot command's plain line (fast-line.ts). */
function fastLine(argv: readonly string[]): FastLine | undefined {
  if (typeof ENGRAM_FAST_LINES !== 'string') return undefined;
  fastSpec ??= JSON.parse(ENGRAM_FAST_LINES) as FastSpec;
  return readFastLine(argv, fastSpec);
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

  try {
    if (picked.problem && !hook) throw picked.problem;
    const line = fastLine(io.argv);
    const entry = line === undefined ? undefined : COMMANDS.find((e) => e.name === line.name);
    if (line !== undefined && entry !== undefined) {
      await runFastLine(line, (await entry.load()).configure, run);
      return exitCode;
    }
    const { parseWithCommander } = await import('./commander-line.js');
    return (await parseWithCommander(io, run, output, { verbose, hook })) ?? exitCode;
  } catch (error) {
    const failure = inCliTerms(toEngramError(error));
    output.error(failure, verbose);
    return hook ? 0 : failure.exitCode;
  } finally {
    stores.close();
  }
}

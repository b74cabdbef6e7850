#!/usr/bin/env node
/**
 * The `engram` executable, bundled apart as a small CommonJS file (`dist/bundle/engram.js`, see
 * `scripts/bundle.ts`) so that what needs no CLI starts as fast as node itself: `--version`, and
 * `--help` from the copy rendered at build time; the commands agents call in loops, sent to the
 * user's `engram daemon` when one of this build listens (`daemon/client.ts`). Everything else
 * loads the CLI (`start.ts`) with the real process streams.
 */
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { VERSION } from '../version.js';
import { DAEMON_COMMANDS } from './daemon/commands.js';
import { usePack } from './chunk-loader.js';
import { invokedCommand } from './command-word.js';
import { launchError } from './launch-error.js';
import { stdStream } from './std-stream.js';

// Node 22.1+ can keep the compiled code of the modules it loads in a cache directory, so later
// runs skip that compilation; Node 20 has no such cache and ignores this.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

function prebuiltHelp(): string | undefined {
  try {
    return readFileSync(new URL('./help.txt', import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
}

// A reader that stops early (`engram export | head`) is normal in a pipeline, not an error. Node's
// stdout gets the handler whoever makes it: the stream below, or code that reads `process.stdout`
// itself (the MCP SDK's stdio transport, whose client may stop reading).
const readerGone = () => process.exit(process.exitCode ?? 0);
function endsQuietly(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  return stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    readerGone();
  });
}
const makeStdout = Object.getOwnPropertyDescriptor(process, 'stdout')?.get;
if (makeStdout === undefined) endsQuietly(process.stdout);
else {
  let made: NodeJS.WriteStream | undefined;
  Object.defineProperty(process, 'stdout', {
    configurable: true,
    enumerable: true,
    get: () => (made ??= endsQuietly(makeStdout.call(process) as NodeJS.WriteStream)),
  });
}
const stdout = stdStream(1, () => process.stdout, (error) => {
  if (error.code === 'EPIPE') readerGone();
  return false;
});
// A warning or progress line that cannot be written (stderr closed, on a full disk) is dropped: the
// command goes on and its result still reaches stdout.
const stderr = stdStream(2, () => process.stderr, () => true);

async function main(argv: readonly string[]): Promise<void> {
  const only = argv.length === 1 ? argv[0] : undefined;
  const help = only === '--help' || only === '-h' ? prebuiltHelp() : undefined;
  if (only === '--version' || only === '-V') {
    stdout.write(`${VERSION}\n`);
    return;
  }
  if (help !== undefined) {
    stdout.write(help);
    return;
  }
  const { env } = process;
  const io = {
    env,
    cwd: process.cwd(),
    stdout,
    stderr,
    // Made on first read: node sets up a piped stdin as a socket, milliseconds a command that reads
    // no input (list, search, recall) never needs.
    get stdin() {
      return process.stdin as NodeJS.ReadableStream & { isTTY?: boolean };
    },
  };
  // With `engram daemon` running, the commands agents call in loops run there, warm (daemon/client.ts).
  const command = invokedCommand(argv);
  const client = command !== undefined && DAEMON_COMMANDS.has(command) && env.ENGRAM_DAEMON !== 'off'
    ? await import('./daemon/client.js')
    : undefined;
  const answer = client === undefined || command === undefined
    ? undefined
    : await client.runInDaemon(command, argv, io);
  if (answer !== undefined && 'code' in answer) {
    process.exitCode = answer.code;
    return;
  }
  // Turned away, the input the client read ahead is the command's stdin here. The chunks of a
  // command agents call in loops load from its pack (chunk-loader.ts).
  if (command !== undefined) usePack(command);
  const { start } = await import('./start.js');
  process.exitCode = await start(argv, io, answer?.input);
}

// What escapes every command's own error handling (a damaged install: start.cjs missing; a
// current folder removed) still ends with one line, its stack only with --verbose.
main(process.argv.slice(2)).catch((error: unknown) => {
  const gone = (error as NodeJS.ErrnoException | undefined)?.syscall === 'uv_cwd';
  const message = gone
    ? 'The current folder no longer exists'
    : (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  const hint = gone ? 'Change to a folder that exists (cd) and run the command again.' : undefined;
  const verbose = process.argv.includes('--verbose') || process.argv.includes('-v');
  const stack = verbose && error instanceof Error && error.stack !== undefined ? `\n${error.stack}` : '';
  stderr.write(launchError(message, hint, stdout.isTTY !== true, stack));
  process.exitCode = 1;
});

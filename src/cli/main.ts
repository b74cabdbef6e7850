#!/usr/bin/env node
/**
 * The `engram` executable. `--version`, and `--help` from the copy rendered at build time, answer
 * without loading the CLI; the commands agents call in loops run in the user's `engram daemon`
 * when one of this build listens (`daemon/client.ts`); an agent client's session hook runs
 * without the command-line parser (`hook-fast.ts`); everything else runs the CLI with the real
 * process streams.
 */
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { Readable } from 'node:stream';
import { VERSION } from '../version.js';
import { DAEMON_COMMANDS } from './daemon/commands.js';
import { invokedCommand } from './command-word.js';

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

// A reader that stops early (`engram export | head`) is normal in a pipeline, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

const argv = process.argv.slice(2);
const only = argv.length === 1 ? argv[0] : undefined;
const help = only === '--help' || only === '-h' ? prebuiltHelp() : undefined;
if (only === '--version' || only === '-V') {
  process.stdout.write(`${VERSION}\n`);
} else if (help !== undefined) {
  process.stdout.write(help);
} else {
  const { env, stdin, stdout, stderr } = process;
  const io = { env, cwd: process.cwd(), stdin: stdin as NodeJS.ReadableStream & { isTTY?: boolean }, stdout, stderr };
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
  } else {
    // The input the client read ahead for a daemon that then turned the command away.
    if (answer?.input !== undefined) io.stdin = Object.assign(Readable.from([answer.input]), { isTTY: false });
    // An agent client's session hook is answered without the command-line parser (hook-fast.ts).
    const hook = argv.includes('hook') ? await import('./hook-fast.js') : undefined;
    const line = hook?.parseHookLine(argv);
    if (hook !== undefined && line !== undefined) {
      process.exitCode = await hook.runHookLine(line, io);
    } else {
      const { runCli } = await import('./run-cli.js');
      process.exitCode = await runCli({ argv, ...io });
    }
  }
}

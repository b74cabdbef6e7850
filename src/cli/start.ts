/**
 * The CLI in this process, loaded by the `engram` executable (`main.ts`) for a command that does not
 * run in a daemon: an agent client's session hook without the command-line parser
 * (`hook-fast.ts`), anything else through the full CLI (`run-cli.ts`). An ES module, like every
 * part of the CLI but the executable.
 */
import type { CliIo } from './run-cli.js';

/**
 * Runs `argv` on `io`; `input` is what a client read ahead for a daemon that then turned the command
 * away (the command reads it as its stdin). Resolves to the exit code.
 */
export async function start(argv: readonly string[], io: Omit<CliIo, 'argv'>, input?: Buffer): Promise<number> {
  // Copied as properties: stdin may be a getter, made only for a command that reads it.
  const own = Object.getOwnPropertyDescriptors(io);
  if (input !== undefined) {
    const { Readable } = await import('node:stream');
    own.stdin = { value: Object.assign(Readable.from([input]), { isTTY: false }), enumerable: true };
  }
  const streams = Object.defineProperties({}, own) as Omit<CliIo, 'argv'>;
  const hook = argv.includes('hook') ? await import('./hook-fast.js') : undefined;
  const line = hook?.parseHookLine([...argv]);
  if (hook !== undefined && line !== undefined) return hook.runHookLine(line, streams);
  const { runCli } = await import('./run-cli.js');
  return runCli(Object.defineProperties({ argv: [...argv] }, own) as CliIo);
}

/**
 * The command a command line names, read before anything else is loaded (`main.ts` decides from it
 * where the command runs; `run-cli.ts` which command module to load). No imports: it is on every
 * command's start-up path.
 */

/** Program-level flags that take a value (their value is not a command name). */
export const PROGRAM_VALUE_FLAGS: ReadonlySet<string> = new Set(['--db', '--format', '--session', '--embedder', '--tokenizer']);

/**
 * Where in `argv` the command named on the command line is (`engram help put`: put's place), -1
 * when none is: a word that is the value of a program flag (`--session ingest`) is not one.
 */
export function commandWordAt(argv: readonly string[]): number {
  const words: number[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    if (PROGRAM_VALUE_FLAGS.has(arg)) i++;
    else if (!arg.startsWith('-')) words.push(i);
  }
  const [first = -1, second = -1] = words;
  return argv[first] === 'help' ? second : first;
}

/** The command named on the command line (`engram help put` names put), if any. */
export function invokedCommand(argv: readonly string[]): string | undefined {
  const at = commandWordAt(argv);
  return at < 0 ? undefined : argv[at];
}

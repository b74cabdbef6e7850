/**
 * Whether a command line sent to the daemon reads its standard input, decided before it is sent
 * as the command would decide it, so that the client reads a piped input whole first and the
 * daemon never waits on a slow writer (`build | engram put`) while other commands queue behind.
 * `put` reads it for `-`, `--file -`, or when no `--content` or `--file` is given; `hook` for a
 * known event, within that event's bound. A terminal is never read ahead: what is typed goes over
 * as the command asks for it. Light: no imports but the hook events and the program's flags.
 */
import { HOOK_BOUNDS_MS, HOOK_EVENTS } from '../../setup/hook-events.js';
import { PROGRAM_VALUE_FLAGS } from '../command-word.js';
import { MAX_HOOK_PAYLOAD_BYTES, MAX_STDIN_BYTES } from '../input-limits.js';

export interface StdinPlan {
  read: boolean;
  /** Give up reading after this many ms (a hook's bound); none for `put`, which waits as it would. */
  boundMs?: number;
  /**
   * The most the command itself reads: past it, reading ahead stops and what was read goes over,
   * so that the command refuses it as it would in its own process, with nothing more held.
   */
  limitBytes?: number;
}

/** Flags of the program and of `hook` / `put` that take a value (their value is not a word of their own). */
const VALUE_FLAGS = new Set([
  ...PROGRAM_VALUE_FLAGS, '--budget',
  '--id', '--content', '--file', '--title', '--type', '--tier', '--layer', '--key', '--task', '--step', '--scope',
  '--corpus', '--tags', '--entities', '--source', '--provenance', '--confidence', '--validation', '--weight',
  '--secrecy', '--expires', '--if-version',
]);

/** The words of `argv` after `command` that are not flags nor flag values, and the flags with their values. */
function read(argv: readonly string[], command: string): { words: string[]; flags: Map<string, string | true> } {
  const words: string[] = [];
  const flags = new Map<string, string | true>();
  let seen = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') {
      words.push(...argv.slice(i + 1));
      break;
    }
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) flags.set(arg.slice(0, eq), arg.slice(eq + 1));
    else if (VALUE_FLAGS.has(arg)) flags.set(arg, argv[++i] ?? '');
    else if (arg.startsWith('-') && arg !== '-') flags.set(arg, true);
    else if (!seen && arg === command) seen = true;
    else if (seen) words.push(arg);
  }
  return { words, flags };
}

/** Flags of the program and of `put` that take no value. */
const PUT_SWITCHES = new Set(['--json', '-q', '--quiet', '-v', '--verbose', '--injectable', '--no-injectable', '--merge-similar', '--no-auto']);

/**
 * True when `put`'s command line holds only flags it knows and at most `-`: one it would refuse
 * (an unknown flag, a stray word) is sent at once, so that it is refused at once, as in its own
 * process; should it read its input after all, the input goes over as it comes.
 */
function plainPut(words: readonly string[], flags: ReadonlyMap<string, string | true>): boolean {
  if (words.length > 1 || (words.length === 1 && words[0] !== '-')) return false;
  return [...flags.keys()].every((flag) => VALUE_FLAGS.has(flag) || PUT_SWITCHES.has(flag));
}

export function stdinPlan(command: string, argv: readonly string[], stdinIsTTY: boolean): StdinPlan {
  if (stdinIsTTY) return { read: false };
  const { words, flags } = read(argv, command);
  if (flags.has('--help') || flags.has('-h') || flags.has('--version') || flags.has('-V')) return { read: false };
  // `engram help put` shows help; it reads nothing.
  if (argv.some((arg) => arg === 'help') && !words.includes('help')) return { read: false };
  if (command === 'hook') {
    const event = HOOK_EVENTS.find((e) => e === words[0]);
    return event === undefined
      ? { read: false }
      : { read: true, boundMs: HOOK_BOUNDS_MS[event], limitBytes: MAX_HOOK_PAYLOAD_BYTES };
  }
  if (command !== 'put' || !plainPut(words, flags)) return { read: false };
  if (flags.has('--content')) return { read: false };
  const file = flags.get('--file');
  if (file !== undefined) return file === '-' ? { read: true, limitBytes: MAX_STDIN_BYTES } : { read: false };
  return { read: true, limitBytes: MAX_STDIN_BYTES };
}

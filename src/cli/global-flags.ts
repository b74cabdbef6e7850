/**
 * The program-level flags, read from the raw arguments before commander runs where they must be
 * known early: the command named, and the output format (so that even a parse error is rendered
 * as asked).
 */
import { EngramError } from '../errors.js';
import type { OutputFormat } from './output.js';

import { commandWordAt, invokedCommand } from './command-word.js';

export { invokedCommand };

/** Commands whose own --format is not the output format (ingest, `sync add`: text|auto; capture, hook: a client). */
const OWN_FORMAT_FLAG: ReadonlySet<string> = new Set(['ingest', 'capture', 'hook', 'sync add']);

/**
 * Where the words of a command with its own --format end (`ingest`, or `add` of `sync add`): after
 * that place, --format is the command's; -1 when the command has none of its own.
 */
export function ownFormatAt(argv: readonly string[]): number {
  const at = commandWordAt(argv);
  if (at < 0) return -1;
  if (OWN_FORMAT_FLAG.has(argv[at] ?? '')) return at;
  // A subcommand: the next word that is not a flag.
  const sub = argv.findIndex((arg, i) => i > at && !arg.startsWith('-'));
  return sub > at && argv.slice(at + 1, sub).every((arg) => arg !== '--') && OWN_FORMAT_FLAG.has(`${argv[at]} ${argv[sub]}`)
    ? sub
    : -1;
}

/**
 * The arguments commander parses. For a command with its own --format, an output --format given
 * before the command word (`engram --format text ingest docs/`) is the program's: {@link pickFormat}
 * reads it, and it is left out here, since the program defines no --format of its own for such a
 * command (commander would prefer it to the command's).
 */
export function commanderArgv(argv: readonly string[]): string[] {
  if (ownFormatAt(argv) < 0) return [...argv];
  const at = commandWordAt(argv);
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    // The command word by its place: a flag's value may be the same word (`--session ingest`).
    if (arg === '--' || i === at) return [...out, ...argv.slice(i)];
    if (arg === '--format') i++;
    else if (!arg.startsWith('--format=')) out.push(arg);
  }
  return out;
}

/** The program-level flags as commander parses them. */
export interface GlobalFlags {
  db?: string;
  json?: boolean;
  format?: OutputFormat;
  quiet?: boolean;
  verbose?: boolean;
  session?: string;
  embedder?: string;
  tokenizer?: string;
}

function formatError(value: string, source: string): EngramError {
  return new EngramError('PARAM_ERROR', `Invalid ${source} '${value}'`, {
    hint: 'Valid values: text, json',
  });
}

/** The output format of a run, whether it was asked for, and why an asked-for value was refused. */
export interface PickedFormat {
  format: OutputFormat;
  explicit: boolean;
  problem?: EngramError;
}

/**
 * Output format before commander runs, so that even a parse error is rendered as asked:
 * `--json` / `--format` > `ENGRAM_FORMAT` (`formatEnv`) > JSON unless stdout is a terminal.
 */
export function pickFormat(argv: readonly string[], formatEnv: string | undefined, isTTY: boolean): PickedFormat {
  let flag: string | undefined;
  const own = ownFormatAt(argv);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    // After `ingest`, `sync add`, `capture` or `hook`, --format is the command's own (ingest: text|auto,
    // as RAGIX; capture and hook: the transcript's client); --json still picks JSON.
    if (i === own) {
      if (argv.slice(i + 1).includes('--json')) flag = 'json';
      break;
    }
    if (arg === '--json') flag = 'json';
    else if (arg === '--format') flag = argv[i + 1];
    else if (arg.startsWith('--format=')) flag = arg.slice('--format='.length);
  }
  const fallback: OutputFormat = isTTY ? 'text' : 'json';
  for (const [value, source] of [
    [flag, '--format'],
    [formatEnv, 'ENGRAM_FORMAT'],
  ] as const) {
    if (value === undefined || value === '') continue;
    if (value === 'json' || value === 'text') return { format: value, explicit: true };
    return { format: fallback, explicit: false, problem: formatError(value, source) };
  }
  return { format: fallback, explicit: false };
}

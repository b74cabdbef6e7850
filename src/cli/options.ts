/**
 * Option parsers shared by the commands. Each throws PARAM_ERROR naming the flag, with the valid
 * values as the hint, so a wrong flag value never reaches the store.
 *
 * Options are made by the command they are for (`command.createOption`), so that this module does
 * not load commander: the fast reading of a hot command's line (fast-line.ts) declares the command
 * on a stand-in and parses its line itself. Each option also carries what its value is
 * ({@link ValueKind}), which the build reads into the fast reading's table; the values are checked
 * by the same functions (option-values.ts) either way.
 */
import type { Command, Option } from 'commander';
import { checkedValue, SECRECY_TIERS, type ValueKind } from './option-values.js';

export type { ValueKind } from './option-values.js';

/** The property of an option that says what its value is (read by fast-line.ts). */
export const VALUE_KIND = 'engramValue';

/** An option of `command` whose value `kind` checks (and converts). */
function valueOption(command: Command, flags: string, description: string, kind: ValueKind): Option {
  const option = command.createOption(flags, description);
  const flag = option.long ?? flags;
  option.argParser((value: string, previous: unknown) => checkedValue(kind, flag, value, previous));
  Object.defineProperty(option, VALUE_KIND, { value: kind });
  return option;
}

/**
 * `--flag <value>` restricted to `values`; a value of `elsewhere` (one that belongs to another
 * flag) adds that sentence to the hint.
 */
export function enumOption(
  command: Command,
  flags: string,
  description: string,
  values: readonly string[],
  elsewhere: Readonly<Record<string, string>> = {},
): Option {
  return valueOption(command, flags, `${description} (${values.join('|')})`, { kind: 'enum', values, elsewhere });
}

/** `--flag <n>`: a whole number >= `min`. */
export function intOption(command: Command, flags: string, description: string, min = 0): Option {
  return valueOption(command, flags, description, { kind: 'int', min });
}

/** `--flag <x>`: a number within [min, max]. */
export function numberOption(command: Command, flags: string, description: string, min: number, max: number): Option {
  return valueOption(command, flags, description, { kind: 'number', min, max });
}

/** Repeatable, comma-separated list flag: `--tags a,b --tags c` → [a, b, c]. */
export function listOption(command: Command, flags: string, description: string): Option {
  return valueOption(command, flags, `${description} (comma-separated, repeatable)`, { kind: 'list' });
}

/** A date (`2026-11-01`, ISO-8601) or a duration (`24h`, `7d`) relative to now. */
export function timeOption(command: Command, flags: string, description: string, direction: 'past' | 'future'): Option {
  return valueOption(command, flags, `${description} (ISO date or duration like 7d, 24h)`, { kind: 'time', direction });
}

/** `--provenance '{"source_kind":"doc"}'`: a JSON object. */
export function jsonObjectOption(command: Command, flags: string, description: string): Option {
  return valueOption(command, flags, description, { kind: 'json-object' });
}

export { TIER_VALUES } from './option-values.js';

/** `--secrecy S0|S2|S3`: output redaction tier (KOAS); ENGRAM_SECRECY gives the default. */
export function secrecyOption(command: Command): Option {
  return enumOption(
    command,
    '--secrecy <tier>',
    'redact output: S0 paths, e-mails, IPs, hosts, hashes; S2 IPs, hosts, hashes; S3 nothing (default, ENGRAM_SECRECY)',
    SECRECY_TIERS,
  );
}

export { exampleText } from './example-text.js';

/**
 * Option parsers shared by the commands. Each throws PARAM_ERROR naming the flag, with the valid
 * values as the hint, so a wrong flag value never reaches the store.
 */
import { Option } from 'commander';
import { EngramError } from '../errors.js';
import { splitCommaList } from '../util/terms.js';
import { parseTime } from '../util/time.js';
import { SECRECY_TIERS, TIER_ALIASES, TIERS } from '../types.js';

function paramError(flag: string, value: string, hint: string): never {
  throw new EngramError('PARAM_ERROR', `Invalid value '${value}' for ${flag}`, {
    hint,
    details: { flag, value },
  });
}

/**
 * `--flag <value>` restricted to `values`; a value of `elsewhere` (one that belongs to another
 * flag) adds that sentence to the hint.
 */
export function enumOption(
  flags: string,
  description: string,
  values: readonly string[],
  elsewhere: Readonly<Record<string, string>> = {},
): Option {
  const option = new Option(flags, `${description} (${values.join('|')})`);
  return option.argParser((value: string) => {
    if (values.includes(value)) return value;
    const pointer = Object.hasOwn(elsewhere, value) ? `. ${elsewhere[value]}` : '';
    return paramError(option.long ?? flags, value, `Valid values: ${values.join(', ')}${pointer}`);
  });
}

/** `--flag <n>`: a whole number >= `min`. */
export function intOption(flags: string, description: string, min = 0): Option {
  const option = new Option(flags, description);
  return option.argParser((value: string) => {
    const n = Number(value);
    return Number.isInteger(n) && n >= min && value.trim() !== ''
      ? n
      : paramError(option.long ?? flags, value, `Expected a whole number >= ${min}`);
  });
}

/** `--flag <x>`: a number within [min, max]. */
export function numberOption(flags: string, description: string, min: number, max: number): Option {
  const option = new Option(flags, description);
  return option.argParser((value: string) => {
    const n = Number(value);
    return Number.isFinite(n) && n >= min && n <= max && value.trim() !== ''
      ? n
      : paramError(option.long ?? flags, value, `Expected a number from ${min} to ${max}`);
  });
}

/** Repeatable, comma-separated list flag: `--tags a,b --tags c` → [a, b, c]. */
export function listOption(flags: string, description: string): Option {
  return new Option(flags, `${description} (comma-separated, repeatable)`).argParser(
    (value: string, previous: string[] | undefined) => [
      ...(previous ?? []),
      ...splitCommaList([value]),
    ],
  );
}

/** A date (`2026-11-01`, ISO-8601) or a duration (`24h`, `7d`) relative to now. */
export function timeOption(
  flags: string,
  description: string,
  direction: 'past' | 'future',
): Option {
  const option = new Option(flags, `${description} (ISO date or duration like 7d, 24h)`);
  return option.argParser(
    (value: string) =>
      parseTime(value, new Date(), direction)
      ?? paramError(
        option.long ?? flags,
        value,
        'Use an ISO-8601 date (2026-11-01) or a duration (90m, 24h, 7d, 2w)',
      ),
  );
}

/** `--provenance '{"source_kind":"doc"}'`: a JSON object. */
export function jsonObjectOption(flags: string, description: string): Option {
  const option = new Option(flags, description);
  return option.argParser((value: string) => {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed;
    } catch {
      // fall through to the error below
    }
    return paramError(
      option.long ?? flags,
      value,
      'Expected a JSON object, e.g. \'{"source_kind":"doc"}\'',
    );
  });
}

/** Values `--tier` accepts: the tiers and mem-context's aliases (the library maps them). */
export const TIER_VALUES: readonly string[] = [...TIERS, ...Object.keys(TIER_ALIASES)];

/** `--secrecy S0|S2|S3`: output redaction tier (KOAS); ENGRAM_SECRECY gives the default. */
export function secrecyOption(): Option {
  return enumOption(
    '--secrecy <tier>',
    'redact output: S0 paths, e-mails, IPs, hosts, hashes; S2 IPs, hosts, hashes; S3 nothing (default, ENGRAM_SECRECY)',
    SECRECY_TIERS,
  );
}

export { exampleText } from './example-text.js';

/**
 * What an option's value may be, and the check (and conversion) of a value, with no commander:
 * shared by the options commander parses (options.ts) and the fast reading of a hot command's line
 * (fast-line.ts), so that both accept, convert and refuse the same values with the same errors.
 */
import { EngramError } from '../errors.js';
import { SECRECY_TIERS, TIER_ALIASES, TIERS } from '../types.js';
import { splitCommaList } from '../util/terms.js';
import { parseTime } from '../util/time.js';

/** What an option's value is; plain JSON, so that the build can record it. */
export type ValueKind
  = | { kind: 'enum'; values: readonly string[]; elsewhere: Readonly<Record<string, string>> }
    | { kind: 'int'; min: number }
    | { kind: 'number'; min: number; max: number }
    | { kind: 'list' }
    | { kind: 'time'; direction: 'past' | 'future' }
    | { kind: 'json-object' };

/** Values `--tier` accepts: the tiers and mem-context's aliases (the library maps them). */
export const TIER_VALUES: readonly string[] = [...TIERS, ...Object.keys(TIER_ALIASES)];

export { SECRECY_TIERS };

function paramError(flag: string, value: string, hint: string): never {
  throw new EngramError('PARAM_ERROR', `Invalid value '${value}' for ${flag}`, {
    hint,
    details: { flag, value },
  });
}

/**
 * `value` given to `flag`, checked and converted as `kind` says (`previous`: what the flag held
 * before, for a list); throws PARAM_ERROR naming the flag with the valid values as the hint.
 */
export function checkedValue(kind: ValueKind, flag: string, value: string, previous: unknown): unknown {
  switch (kind.kind) {
    case 'enum': {
      if (kind.values.includes(value)) return value;
      const pointer = Object.hasOwn(kind.elsewhere, value) ? `. ${kind.elsewhere[value]}` : '';
      return paramError(flag, value, `Valid values: ${kind.values.join(', ')}${pointer}`);
    }
    case 'int': {
      const n = Number(value);
      return Number.isInteger(n) && n >= kind.min && value.trim() !== ''
        ? n
        : paramError(flag, value, `Expected a whole number >= ${kind.min}`);
    }
    case 'number': {
      const n = Number(value);
      return Number.isFinite(n) && n >= kind.min && n <= kind.max && value.trim() !== ''
        ? n
        : paramError(flag, value, `Expected a number from ${kind.min} to ${kind.max}`);
    }
    case 'list':
      return [...((previous as string[] | undefined) ?? []), ...splitCommaList([value])];
    case 'time':
      return parseTime(value, new Date(), kind.direction)
        ?? paramError(flag, value, 'Use an ISO-8601 date (2026-11-01) or a duration (90m, 24h, 7d, 2w)');
    case 'json-object': {
      try {
        const parsed: unknown = JSON.parse(value);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed;
      } catch {
        // fall through to the error below
      }
      return paramError(flag, value, 'Expected a JSON object, e.g. \'{"source_kind":"doc"}\'');
    }
  }
}

/**
 * Helpers the readers share to turn a foreign value into engram's: timestamps in the forms other
 * tools write (RFC 3339, naive ISO taken as UTC, epoch seconds or milliseconds, a bare date; never
 * one in the future or before 1970), tag
 * lists (an array, a JSON array in a string, or comma-separated text) and the path checks.
 */
import { statSync } from 'node:fs';
import { EngramError } from '../errors.js';
import { parseRfc3339 } from '../util/rfc3339.js';
import type { Unmapped } from './source.js';

const NAIVE = /^(\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Epoch seconds from here (1973-03-03) up to 1e10 (2286); milliseconds from 1e12 (2001-09-09). */
const MIN_SECONDS = 1e8;
const MAX_SECONDS = 1e10;
const MIN_MILLISECONDS = 1e12;
const MAX_MILLISECONDS = 1e14;
/** How far past the clock a source's date may be (clock skew between machines). */
const SKEW_MS = 24 * 60 * 60 * 1000;

export interface TimestampOptions {
  /** A date after now is a deadline the source set (an expiry), not an error. */
  future?: boolean;
  /** The clock, in epoch milliseconds (tests). */
  now?: number;
}

/** A timestamp read: its canonical form, or why it is not one (for the report). */
export type TimestampRead = { at: string; problem?: undefined } | { at?: undefined; problem: string };

function epoch(value: number): TimestampRead {
  if (value < 0) return { problem: 'before 1970' };
  if (value < MIN_SECONDS) return { problem: 'not a date (too small for an epoch time)' };
  if (value >= MAX_SECONDS && value < MIN_MILLISECONDS) {
    return { problem: 'not a date (neither epoch seconds before 2286 nor milliseconds after 2001)' };
  }
  if (value >= MAX_MILLISECONDS) return { problem: 'not a date (too large for epoch milliseconds)' };
  return { at: new Date(value < MAX_SECONDS ? value * 1000 : value).toISOString() };
}

function parse(value: unknown): TimestampRead {
  if (typeof value === 'number') return Number.isFinite(value) ? epoch(value) : { problem: 'not a date' };
  if (typeof value !== 'string') return { problem: 'not a date' };
  const text = value.trim();
  // A bare year (`2024`) or a short number is not an epoch time, and not read as a date either.
  if (/^\d{1,4}$/.test(text)) return { problem: 'not a date (a bare number, or a year alone)' };
  if (/^-?\d+(?:\.\d+)?$/.test(text)) return epoch(Number(text));
  const naive = NAIVE.exec(text);
  const parsed = naive !== null
    ? parseRfc3339(`${naive[1] ?? ''}${naive[2] ?? ':00'}Z`)
    : DATE_ONLY.test(text) ? parseRfc3339(`${text}T00:00:00Z`) : parseRfc3339(text);
  return parsed === undefined ? { problem: 'not a date' } : { at: parsed };
}

/**
 * A timestamp in the forms other tools write, or why it is refused. A time without an offset is
 * UTC (memtool writes UTC without one; seconds may be left out); a number (or a string of 5 digits
 * or more) is epoch seconds from 1e8 to 1e10 or milliseconds from 1e12 to 1e14 — the range in
 * between is ambiguous and refused; a string of 1–4 digits (`"2024"`) is refused as not a date.
 * A date before 1970 is refused, and so is one later than now plus a day, unless `future` allows it
 * (an expiry): an imported date in the future would never decay and would rank first.
 *
 * @example
 * readTimestamp('2999-01-01'); // { problem: 'in the future' }
 */
export function readTimestamp(value: unknown, options: TimestampOptions = {}): TimestampRead {
  const read = parse(value);
  if (read.at === undefined) return read;
  const ms = Date.parse(read.at);
  if (ms < 0) return { problem: 'before 1970' };
  if (options.future !== true && ms > (options.now ?? Date.now()) + SKEW_MS) return { problem: 'in the future' };
  return read;
}

/**
 * The canonical UTC form of a timestamp, or undefined when {@link readTimestamp} refuses it.
 *
 * @example
 * toTimestamp('2025-01-02T03:04:05.123456'); // '2025-01-02T03:04:05.123Z'
 * toTimestamp(1735787045); // '2025-01-02T03:04:05.000Z'
 */
export function toTimestamp(value: unknown, options: TimestampOptions = {}): string | undefined {
  return readTimestamp(value, options).at;
}

/** Why {@link toTimestamp} refuses `value`, with the value shown (cut to 40 characters), for not_mapped. */
export function timestampProblem(value: unknown, options: TimestampOptions = {}): string {
  const shown = typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? String(value) : typeof value;
  return `${readTimestamp(value, options).problem ?? 'not a date'}: ${shown.slice(0, 40)}`;
}

/**
 * The notes for dates a record has but that were refused (each is then left to the default), one
 * per field of `fields` whose value is set and not a date.
 */
export function droppedDates(
  where: string,
  fields: Record<string, unknown>,
  names: readonly string[],
): { unmapped: Unmapped }[] {
  const set = (value: unknown) => value !== undefined && value !== null && value !== '';
  return names
    .filter((name) => set(fields[name]) && toTimestamp(fields[name]) === undefined)
    .map((name) => ({ unmapped: { where, field: name, reason: `${timestampProblem(fields[name])}; the default date applies` } }));
}

// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Tags as engram keeps them: each value cut at commas (`"a,b"` is two tags, as `--tags a,b` is and
 * as mcp-memory-service writes them), trimmed, empty ones dropped, each once; a tag holding a newline
 * or another control character is refused (`refused`, for not_mapped), the others kept.
 *
 * @example
 * splitTags(['a,b', ' c ', 'x\ny']); // { tags: ['a', 'b', 'c'], refused: ['x\ny'] }
 */
export function splitTags(values: readonly string[]): { tags: string[]; refused: string[] } {
  const tags = new Set<string>();
  const refused: string[] = [];
  for (const value of values) {
    for (const piece of value.split(',')) {
      const tag = piece.trim();
      if (tag === '') continue;
      if (CONTROL.test(tag)) refused.push(tag);
      else tags.add(tag);
    }
  }
  return { tags: [...tags], refused };
}

/** A refused tag as a not_mapped reason shows it: escaped, cut to 40 characters. */
export function refusedTag(tag: string): string {
  return `tag ${JSON.stringify(tag).slice(0, 40)} holds a newline or a control character; left out`;
}

/**
 * A tag list from an array, a JSON array in a string, or comma-separated text, through
 * {@link splitTags}; undefined when it is none of these.
 */
export function toTagList(value: unknown): { tags: string[]; refused: string[] } | undefined {
  const list = stringList(value);
  return list === undefined ? undefined : splitTags(list);
}

/**
 * A list of strings from an array, a JSON array in a string, or comma-separated text; undefined
 * otherwise, and undefined too when a value holds a newline or control character (a tag list the
 * reader then reports) — see {@link toTagList} to keep the other tags.
 */
export function toStringList(value: unknown): string[] | undefined {
  const list = stringList(value);
  if (list === undefined) return undefined;
  const { tags, refused } = splitTags(list);
  return refused.length > 0 ? undefined : tags;
}

function stringList(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text.startsWith('[')) {
    try {
      return stringList(JSON.parse(text));
    } catch {
      return undefined;
    }
  }
  return text === '' ? [] : text.split(',').map((t) => t.trim()).filter((t) => t !== '');
}

/** A plain object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Fails (PARAM_ERROR) unless `path` is a file (`kind` 'file') or a folder ('folder'). */
export function requirePath(path: string, kind: 'file' | 'folder', what: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    throw new EngramError('PARAM_ERROR', `Cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, {
      hint: `Give ${what}.`,
      details: { path },
      cause: error,
    });
  }
  if (isDirectory !== (kind === 'folder')) {
    throw new EngramError('PARAM_ERROR', `${path} is ${isDirectory ? 'a folder' : 'a file'}`, {
      hint: `Give ${what}.`,
      details: { path },
    });
  }
}

/** A foreign key name as reports show it: a short identifier as is, anything else by its length. */
export function shownField(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]{0,31}$/.test(name) ? name : `[key of ${name.length} characters]`;
}

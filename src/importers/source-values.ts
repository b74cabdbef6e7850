/**
 * Helpers the readers share to turn a foreign value into engram's: timestamps in the forms other
 * tools write (RFC 3339, naive ISO taken as UTC, epoch seconds or milliseconds, a bare date), tag
 * lists (an array, a JSON array in a string, or comma-separated text) and the path checks.
 */
import { statSync } from 'node:fs';
import { EngramError } from '../errors.js';
import { parseRfc3339 } from '../util/rfc3339.js';

const NAIVE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The canonical UTC form of a timestamp, or undefined when it is none. A time without an offset is
 * UTC (memtool writes UTC without one); a number is epoch seconds, or milliseconds past 1e11.
 *
 * @example
 * toTimestamp('2025-01-02T03:04:05.123456'); // '2025-01-02T03:04:05.123Z'
 * toTimestamp(1735787045); // '2025-01-02T03:04:05.000Z'
 */
export function toTimestamp(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
    const ms = value < 1e11 ? value * 1000 : value;
    const date = new Date(ms);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return toTimestamp(Number(text));
  if (NAIVE.test(text)) return parseRfc3339(`${text}Z`);
  if (DATE_ONLY.test(text)) return parseRfc3339(`${text}T00:00:00Z`);
  return parseRfc3339(text);
}

/** A list of strings from an array, a JSON array in a string, or comma-separated text; undefined otherwise. */
export function toStringList(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text.startsWith('[')) {
    try {
      return toStringList(JSON.parse(text));
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

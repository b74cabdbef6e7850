/**
 * Field conversions shared by the readers of SQLite sources (memctl / RAGIX, mcp-memory-service):
 * timestamps in whatever form the source kept them → RFC 3339, JSON columns, tag lists, and the
 * schema notes every reader gives when a table or a column it maps is missing.
 */
import type { ForeignDatabase, ForeignRow } from '../../store/store.js';
import type { Unmapped } from '../source.js';
import { splitTags, type TimestampOptions, toTimestamp } from '../source-values.js';

/**
 * A timestamp as the source stored it, in engram's canonical RFC 3339 form (UTC, milliseconds):
 * what {@link toTimestamp} reads (epoch seconds or milliseconds, RFC 3339, naive ISO as UTC, SQLite's
 * `datetime('now')`), and SQLite integers read as bigints. Undefined when it is none of these, or
 * a date {@link toTimestamp} refuses (in the future unless `options.future`, before 1970).
 *
 * @example
 * toRfc3339(1767225600.5); // '2026-01-01T00:00:00.500Z'
 * toRfc3339('2026-01-01 10:00:00'); // '2026-01-01T10:00:00.000Z'
 */
export function toRfc3339(value: unknown, options: TimestampOptions = {}): string | undefined {
  return toTimestamp(typeof value === 'bigint' ? Number(value) : value, options);
}

/** Parses a JSON column; undefined when it is empty or not JSON. */
export function parseJson(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** A non-empty trimmed string, or undefined. */
export function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * A content column as text: text as it is, a number (SQLite's type affinity turns `42` into an
 * integer) as its decimal form; undefined for a BLOB or NULL, which the reader reports.
 */
export function contentOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value))) return String(value);
  return undefined;
}

/** Why a row's content is not imported: a BLOB, or nothing but whitespace. */
export function contentProblem(value: unknown): string {
  return Buffer.isBuffer(value) ? 'content is binary (a BLOB), not text' : 'empty content';
}

/** A finite number from a number, bigint or numeric string, or undefined. */
export function numberOf(value: unknown): number | undefined {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^-?\d+(?:\.\d+)?$/.test(value.trim())) return Number(value);
  return undefined;
}

/** Distinct non-empty strings, first occurrence first. */
export function distinct(values: Iterable<unknown>): string[] {
  const seen = new Set<string>();
  for (const value of values) {
    const item = typeof value === 'number' ? String(value) : text(value);
    if (item !== undefined) seen.add(item);
  }
  return [...seen];
}

/**
 * A list column: a JSON array of strings, or comma-separated text (`a,b, c`). `ok` is false when
 * the column holds something else (a JSON object, a number), which the reader reports. A tag
 * column (`tags`) goes through {@link splitTags}: `"a,b"` in a JSON array is two tags, and a tag
 * holding a newline or control character is in `refused`, for the reader to report.
 */
export function listOf(value: unknown, { tags = false } = {}): { values: string[]; ok: boolean; refused: string[] } {
  const read = rawList(value);
  if (!tags) return { ...read, refused: [] };
  const split = splitTags(read.values);
  return { values: split.tags, ok: read.ok, refused: split.refused };
}

function rawList(value: unknown): { values: string[]; ok: boolean } {
  if (value === null || value === undefined) return { values: [], ok: true };
  if (typeof value !== 'string') return { values: [], ok: false };
  const trimmed = value.trim();
  if (trimmed === '') return { values: [], ok: true };
  if (trimmed.startsWith('{')) return { values: [], ok: false };
  if (trimmed.startsWith('[')) {
    const parsed = parseJson(trimmed);
    if (!Array.isArray(parsed)) return { values: [], ok: false };
    return { values: distinct(parsed), ok: parsed.every((v) => typeof v === 'string' || typeof v === 'number') };
  }
  return { values: distinct(trimmed.split(',')), ok: true };
}

/** A column value that JSON can hold as it is (Buffers and bigints are converted or dropped). */
export function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Buffer.isBuffer(value)) return undefined;
  return value;
}

/** Float32 values from a BLOB of packed little-endian float32; undefined when the length is off. */
export function float32Of(blob: unknown, dimension?: number): Float32Array | undefined {
  if (!Buffer.isBuffer(blob) || blob.length === 0 || blob.length % 4 !== 0) return undefined;
  if (dimension !== undefined && blob.length !== dimension * 4) return undefined;
  const copy = new Float32Array(blob.length / 4);
  for (let i = 0; i < copy.length; i += 1) copy[i] = blob.readFloatLE(i * 4);
  return copy;
}

/**
 * The tables of `db` a reader neither reads nor needs to: everything except `read`, SQLite's own
 * tables and the shadow tables of virtual tables (FTS5, vec0), which only index what is read.
 */
export function unreadTables(db: ForeignDatabase, read: readonly string[]): string[] {
  const all = db.tables();
  const virtual = all.filter((name) => /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(db.schemaOf(name) ?? ''));
  return all.filter(
    (name) =>
      !read.includes(name) && !virtual.includes(name) && !virtual.some((v) => name.startsWith(`${v}_`)),
  );
}

/** The notes for mapped columns that `table` lacks: each field is then left to engram's default. */
export function missingColumns(
  table: string,
  present: readonly string[],
  mapped: readonly string[],
): Unmapped[] {
  return mapped
    .filter((column) => !present.includes(column))
    .map((column) => ({
      where: table,
      field: column,
      reason: `no ${column} column in this database; the field takes engram's default`,
    }));
}

/** The columns of `row` outside `known`, JSON-safe, for provenance; undefined when none has a value. */
export function extraColumns(row: ForeignRow, known: ReadonlySet<string>): Record<string, unknown> | undefined {
  const extra: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (known.has(column)) continue;
    const kept = plain(value);
    if (kept !== undefined && kept !== null) extra[column] = kept;
  }
  return Object.keys(extra).length > 0 ? extra : undefined;
}

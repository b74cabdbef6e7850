/**
 * The one error type of engram, its stable codes, and the single table that maps each code to a
 * process exit code. Every entry point (CLI, MCP, library) renders errors from here.
 */

/** Stable error codes. Agents branch on these strings; never rename one. */
export type ErrorCode
  = | 'GENERAL_ERROR'
    | 'CONFLICT'
    | 'EMPTY_INPUT'
    | 'POLICY_REJECTED'
    | 'PARAM_ERROR'
    | 'NOT_FOUND'
    | 'DB_ERROR'
    | 'DB_BUSY'
    | 'STORE_CORRUPT'
    | 'RATE_LIMITED'
    | 'UNAUTHORIZED';

/**
 * Exit code per error code (memtool's table). `Record<ErrorCode, …>` makes the compiler reject a
 * code without an exit code.
 *
 * @example
 * process.exitCode = EXIT_CODES[error.code]; // NOT_FOUND → 3
 */
export const EXIT_CODES: Readonly<Record<ErrorCode, 1 | 2 | 3 | 4>> = Object.freeze({
  GENERAL_ERROR: 1,
  CONFLICT: 1,
  EMPTY_INPUT: 1,
  POLICY_REJECTED: 1,
  PARAM_ERROR: 2,
  NOT_FOUND: 3,
  DB_ERROR: 4,
  DB_BUSY: 4,
  STORE_CORRUPT: 4,
  RATE_LIMITED: 1,
  UNAUTHORIZED: 1,
});

/** Codes a caller may retry after a short delay. */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set(['DB_BUSY', 'RATE_LIMITED']);

export interface EngramErrorOptions {
  /** One line telling the user what to do next. */
  hint?: string;
  /** Extra machine-readable context merged into the JSON form (id, current_version, …). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** The JSON form of an error, identical for the CLI and MCP tools. */
export interface ErrorPayload {
  ok: false;
  error: ErrorCode;
  message: string;
  hint?: string;
  retryable?: true;
  [key: string]: unknown;
}

/**
 * An error with a stable code, a one-line message and an optional hint.
 *
 * @example
 * throw new EngramError('NOT_FOUND', 'No memory item MEM-0123456789ab', {
 *   hint: 'Use `engram list` to find ids.',
 *   details: { id: 'MEM-0123456789ab' },
 * });
 */
export class EngramError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, options: EngramErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EngramError';
    this.code = code;
    this.hint = options.hint;
    this.details = Object.freeze({ ...options.details });
  }

  get exitCode(): number {
    return EXIT_CODES[this.code];
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.code);
  }

  toJSON(): ErrorPayload {
    const payload: ErrorPayload = { ok: false, error: this.code, message: this.message };
    if (this.hint !== undefined) payload.hint = this.hint;
    if (this.retryable) payload.retryable = true;
    for (const [key, value] of Object.entries(this.details)) {
      if (!(key in payload)) payload[key] = value;
    }
    return payload;
  }
}

/**
 * Type guard for {@link EngramError}.
 *
 * @example
 * try { await engram.get({ id }); } catch (e) { if (isEngramError(e) && e.code === 'NOT_FOUND') … }
 */
export function isEngramError(value: unknown): value is EngramError {
  return value instanceof EngramError;
}

/**
 * Turns anything thrown into an EngramError. Unknown failures become a generic GENERAL_ERROR whose
 * message does not leak internals; the original stays available as `cause` for `--verbose`.
 */
export function toEngramError(value: unknown): EngramError {
  if (isEngramError(value)) return value;
  return new EngramError('GENERAL_ERROR', 'Unexpected internal error', {
    hint: 'Run again with --verbose for details.',
    cause: value,
  });
}

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
    | 'UNAUTHORIZED'
    | 'EMBEDDER_UNAVAILABLE'
    | 'LLM_ERROR'
    | 'LLM_TIMEOUT';

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
  EMBEDDER_UNAVAILABLE: 1,
  LLM_ERROR: 1,
  LLM_TIMEOUT: 1,
});

/** Codes a caller may retry after a short delay. */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set(['DB_BUSY', 'RATE_LIMITED', 'EMBEDDER_UNAVAILABLE']);

/**
 * What would fix an error, named apart from any caller: the core never names a CLI flag or an
 * `engram` command line. The error's `hint` says the fix neutrally, with the sentence
 * {@link FIX_HINTS} holds for it (as is, or inside a longer hint); a shell that speaks to people
 * in its own terms (the CLI: flags and command lines; MCP: tool arguments) replaces that sentence,
 * and the message where {@link FIX_MESSAGES} holds one, with its own. A shell that does nothing
 * shows the neutral text.
 */
export type ErrorFix
  = | 'list_ids'
    | 'review_ids'
    | 'restore_item'
    | 'check_address'
    | 'key_needs_layer'
    | 'register_workspace'
    | 'give_content'
    | 'give_pull_text'
    | 'chunk_long_text'
    | 'see_policy_rules'
    | 'lenient_import'
    | 'plain_import'
    | 'rewrite_config'
    | 'verbose'
    // The store's errors (src/store/sqlite/).
    | 'check_store_path'
    | 'store_dir_writable'
    | 'create_store_dir'
    | 'check_pages'
    | 'not_a_store'
    // Vectors and embedders (src/items/embed-items.ts, src/maintenance/embed.ts).
    | 'rebuild_vectors'
    | 'configure_embedder';

/**
 * The neutral sentence of each fix, the one put in the hint. `Record<ErrorFix, …>` makes the
 * compiler reject a fix without one.
 *
 * @example
 * throw new EngramError('NOT_FOUND', `No memory item with id ${id}`, { hint: FIX_HINTS.list_ids, fix: 'list_ids' });
 */
export const FIX_HINTS: Readonly<Record<ErrorFix, string>> = Object.freeze({
  list_ids: 'List the items to find ids.',
  review_ids: 'Review lists the items waiting for a decision.',
  restore_item: 'Only live items can be verified; restore it first by writing it again by id with its content.',
  check_address: 'Check layer, key, task_id and step_id, or list the items by key_prefix.',
  key_needs_layer: 'Give layer (project, feature or run) with key, or id to update by id.',
  register_workspace: 'Register one first.',
  give_content: 'Give the content to store.',
  give_pull_text: 'Give the model\'s answer as the text to pull.',
  chunk_long_text: 'Ingest it as a file (ingest chunks long text) or store it as type pointer.',
  see_policy_rules: 'See the policy rules.',
  lenient_import: 'Without strict, unknown keys are ignored and counted under unknown_keys.',
  plain_import: 'Import it as engram\'s own export, with no source named: that keeps every engram field.',
  rewrite_config: 'Fix or delete the file; initialising the store again writes a fresh one.',
  verbose: 'Run again with verbose output for details.',
  check_store_path: 'Check the store path; restore from an export if the file is damaged.',
  store_dir_writable: 'Check that the directory exists and is writable, or initialise the store.',
  create_store_dir: 'Create the directory, or initialise the store where it should live.',
  check_pages: 'Nothing was written. Run the doctor for SQLite\'s full check; restore from an export or a backup.',
  not_a_store: 'Point the store path at an engram store, or at a new file.',
  rebuild_vectors: 'Rebuild the vectors with the configured embedder (embed with rebuild).',
  configure_embedder: 'Configure an embedder (model2vec:PATH, ollama:MODEL[@URL] or openai:MODEL[@BASE_URL]).',
});

/** The neutral message of the fixes whose message names what the caller gave (key_needs_layer). */
export const FIX_MESSAGES = Object.freeze({
  key_needs_layer: 'key needs layer to address an item',
} satisfies Partial<Record<ErrorFix, string>>);

export interface EngramErrorOptions {
  /** One line telling the user what to do next, in no caller's terms (see {@link ErrorFix}). */
  hint?: string;
  /** What would fix it, for a shell to say in its own terms; not part of the JSON form. */
  fix?: ErrorFix;
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
 *   hint: FIX_HINTS.list_ids,
 *   fix: 'list_ids',
 *   details: { id: 'MEM-0123456789ab' },
 * });
 */
export class EngramError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  /** What would fix it, when a shell may say it in its own terms (see {@link ErrorFix}). */
  readonly fix: ErrorFix | undefined;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, options: EngramErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EngramError';
    this.code = code;
    this.hint = options.hint;
    this.fix = options.fix;
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
    hint: FIX_HINTS.verbose,
    fix: 'verbose',
    cause: value,
  });
}

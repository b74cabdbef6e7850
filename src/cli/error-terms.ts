/**
 * Errors in the CLI's terms: the core says what would fix an error without naming a flag or a
 * command line (`EngramError.fix`, `FIX_HINTS`); the CLI says it with the flags and `engram`
 * commands a person types.
 */
import { EngramError, type ErrorFix, FIX_HINTS, FIX_MESSAGES } from '../errors.js';

/** How the CLI says a fix: the sentence of its hint, and its message where the core's names fields. */
interface CliFix {
  hint: string;
  message?: string;
}

const CLI_FIXES: Readonly<Record<ErrorFix, CliFix>> = Object.freeze({
  list_ids: { hint: 'Use `engram list` to find ids.' },
  review_ids: { hint: 'Use `engram review` to list items waiting for a decision.' },
  restore_item: { hint: 'Only live items can be verified; restore it with `engram put --id ID --content …` first.' },
  check_address: { hint: 'Check --layer/--key/--task/--step, or use `engram list --key-prefix`.' },
  key_needs_layer: {
    message: '--key needs --layer to address an item',
    hint: 'Use --layer project|feature|run with --key, or --id to update by id.',
  },
  register_workspace: { hint: 'Register one with `engram workspace add`.' },
  give_content: { hint: 'Give content with --content, --file PATH, or on stdin.' },
  give_pull_text: { hint: 'Pipe an LLM answer in: llm "…" | engram pull' },
  chunk_long_text: { hint: 'Use `engram ingest FILE` (it chunks long text) or store it as --type pointer.' },
  see_policy_rules: { hint: 'See `engram policy rules`.' },
  lenient_import: { hint: 'Without --strict unknown keys are ignored and counted under unknown_keys.' },
  plain_import: { hint: 'Import it with `engram import FILE` (no --from): that keeps every engram field.' },
  rewrite_config: { hint: 'Fix or delete the file; `engram init` writes a fresh one.' },
  verbose: { hint: 'Run again with --verbose for details.' },
  check_store_path: { hint: 'Check --db / ENGRAM_DB; restore from an `engram export` if the file is damaged.' },
  store_dir_writable: { hint: 'Check that the directory exists and is writable, or run `engram init`.' },
  create_store_dir: { hint: 'Create the directory, or run `engram init` where the store should live.' },
  check_pages: {
    hint: 'Nothing was written. Run `engram doctor` for SQLite\'s full check; restore from an `engram export` or a backup.',
  },
  not_a_store: { hint: 'Point --db at an engram store, or at a new file.' },
  rebuild_vectors: { hint: 'Run `engram embed --rebuild` to re-embed every item with the configured embedder.' },
  configure_embedder: {
    hint: 'Give --embedder model2vec:PATH|ollama:MODEL[@URL]|openai:MODEL[@BASE_URL], ENGRAM_EMBEDDER, or "embedder" in .engram/config.json.',
  },
});

/** The CLI's sentence for `fix` (`rebuild_vectors` → "Run `engram embed --rebuild` …"). */
export function cliHint(fix: ErrorFix): string {
  return CLI_FIXES[fix].hint;
}

const NEUTRAL_MESSAGES: Readonly<Partial<Record<ErrorFix, string>>> = FIX_MESSAGES;

/**
 * The error as the CLI shows it: the neutral sentence of its fix replaced by the CLI's (in the
 * hint, and in the message where the core's names fields). An error without a fix is returned as is.
 *
 * @example
 * const error = new EngramError('NOT_FOUND', 'No item X', { hint: FIX_HINTS.list_ids, fix: 'list_ids' });
 * inCliTerms(error).hint;
 * // 'Use `engram list` to find ids.'
 */
export function inCliTerms(error: EngramError): EngramError {
  const { fix } = error;
  if (fix === undefined) return error;
  const cli = CLI_FIXES[fix];
  const neutralMessage = NEUTRAL_MESSAGES[fix];
  const message = neutralMessage !== undefined && cli.message !== undefined
    ? error.message.replace(neutralMessage, cli.message)
    : error.message;
  return new EngramError(error.code, message, {
    hint: error.hint?.replace(FIX_HINTS[fix], cli.hint),
    fix,
    details: error.details,
    cause: error.cause,
  });
}

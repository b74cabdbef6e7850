/**
 * The EMBEDDER_UNAVAILABLE error an HTTP embedder's failure becomes, with the hint that fits the
 * kind of failure. The reading of statuses, network errors and answers, and the hiding of the URL's
 * password and of the API key, are shared with the LLM providers (`util/http-failure.ts`).
 */
import { EngramError } from '../errors.js';
import { type AttemptFailure, type FailureContext, shownFailure, unusableAnswer } from '../util/http-failure.js';

const DOWN_HINT = 'Check that the embedding server is running and reachable at that URL, then retry.';
const ANSWER_HINT = 'Check that the URL serves an embedding model (the same model the stored vectors came from).';
const ABORTED_HINT = 'The caller stopped waiting for the embedding server; retry when it answers in time.';

function refusedHint(status: number): string {
  if (status === 401 || status === 403) return 'Check the API key given for this server.';
  if (status === 404) return 'Check the model name (is it pulled or served there?) and the URL.';
  return 'Check the model name and that the URL serves embeddings.';
}

function refusedWhat(status: number): string {
  if (status === 401 || status === 403) return 'the API key is wrong or missing';
  if (status === 404) return 'the model or the URL is wrong';
  return 'the model or the URL is wrong, or the server does not take this request';
}

function hintFor(failure: AttemptFailure): string {
  if (failure.hint !== undefined) return failure.hint;
  if (failure.aborted === true) return ABORTED_HINT;
  if (failure.refusedStatus !== undefined) return refusedHint(failure.refusedStatus);
  return failure.unusable === true ? ANSWER_HINT : DOWN_HINT;
}

/** The failure of an embedding answer that came but cannot be used (wrong shape or size). */
export function answerFailure(cause: string): AttemptFailure {
  return unusableAnswer(cause, ANSWER_HINT);
}

/**
 * The EMBEDDER_UNAVAILABLE error for a failure after `attempts` attempts, with
 * `details: { url, cause }`.
 *
 * @example
 * throw embedderUnavailable({ id: 'ollama:m', url }, { cause: 'connection refused', retry: true }, 4);
 * // Embedder ollama:m at http://127.0.0.1:11434/api/embed is unavailable: connection refused (4 attempts)
 */
export function embedderUnavailable(
  context: FailureContext,
  failure: AttemptFailure,
  attempts: number,
  cause?: unknown,
): EngramError {
  const { where, url, why } = shownFailure(context, failure);
  const message = failure.refusedStatus === undefined
    ? `Embedder ${where} is unavailable: ${why}${failure.retry && attempts > 1 ? ` (${attempts} attempts)` : ''}`
    : `Embedder ${where} refused the request (${refusedWhat(failure.refusedStatus)}): ${why}`;
  return new EngramError('EMBEDDER_UNAVAILABLE', message, {
    hint: hintFor(failure),
    details: { url, cause: why },
    ...(cause === undefined ? {} : { cause }),
  });
}

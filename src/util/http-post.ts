/**
 * One JSON POST to a model server (an embedder, an LLM), with a per-request timeout, retries on
 * 408, 429, 5xx, timeouts and network errors (exponential backoff with jitter, or the server's
 * `Retry-After`, both capped), and a bounded number of attempts. A non-retryable answer (another
 * 4xx, malformed JSON, a redirect: none is followed) fails at once, and so does a `Retry-After`
 * reaching past the deadline.
 * Every failure goes through the caller's `fail`, which makes its own error of it (see
 * `http-failure.ts`).
 *
 * Worst case before the error: `attempts × timeoutMs + (attempts − 1) × maxDelayMs`, or the
 * policy's `deadline` when it has one: no attempt runs and no wait lasts past it. The caller's
 * signal cuts it short at any point, during a request or a wait.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type AttemptFailure,
  type FailureContext,
  bodyExcerpt,
  networkFailure,
  redirectFailure,
  statusFailure,
  unusableAnswer,
} from './http-failure.js';
import { MAX_TIMER_MS } from './time.js';

/** How hard to try: the resolved client options. */
export interface RetryPolicy {
  timeoutMs: number;
  attempts: number;
  backoffMs: number;
  maxDelayMs: number;
  /** `Date.now()` past which nothing more is tried: the whole call's time limit. */
  deadline?: number;
}

/** A request to send: where (`context.url`), with which headers, and the JSON body. */
export interface JsonPost {
  context: FailureContext;
  headers: Readonly<Record<string, string>>;
  body: unknown;
  /**
   * The largest answer read, in bytes (default {@link MAX_ANSWER_BYTES}): past it the reading
   * stops and the attempt fails for good (not retried).
   */
  maxBytes?: number;
}

/** The default cap on an answer: 256 MiB (an embedder's batch of vectors is large, not this large). */
export const MAX_ANSWER_BYTES = 256 * 1024 * 1024;
/** What is read of an error answer (for its excerpt). */
const ERROR_BODY_BYTES = 64 * 1024;

/** Makes the caller's error of the last failure, after `attempts` attempts. */
export type FailureError = (failure: AttemptFailure, attempts: number, cause?: unknown) => Error;

type Outcome = { json: unknown } | { failure: AttemptFailure; error?: unknown };

const ABORTED: AttemptFailure = { cause: 'aborted by the caller', retry: false, aborted: true };

/**
 * The wait before attempt `attempt + 1`: the server's `Retry-After` when it gave one, else
 * `backoffMs × 2^(attempt−1)` with equal jitter (between half and all of it); never more than
 * `maxDelayMs`.
 *
 * @example
 * retryDelay(3, undefined, { backoffMs: 250, maxDelayMs: 10_000 }); // 500..1000
 */
export function retryDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  policy: Pick<RetryPolicy, 'backoffMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxDelayMs);
  const full = Math.min(policy.maxDelayMs, policy.backoffMs * 2 ** (attempt - 1));
  return full / 2 + (random() * full) / 2;
}

function timeLeft(policy: RetryPolicy): number {
  return policy.deadline === undefined ? Number.POSITIVE_INFINITY : policy.deadline - Date.now();
}

/**
 * Posts `post.body` as JSON and resolves the parsed JSON answer, retrying as the policy allows;
 * rejects with the error `fail` makes of the last failure. A retry whose wait would end past the
 * deadline is not made: the last failure is the answer.
 *
 * @example
 * const answer = await postJson({ context: { id, url }, headers: {}, body: { model, input } }, policy, fail, signal);
 */
export async function postJson(
  post: JsonPost,
  policy: RetryPolicy,
  fail: FailureError,
  signal?: AbortSignal,
): Promise<unknown> {
  const payload = JSON.stringify(post.body);
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted === true) throw fail(ABORTED, attempt - 1);
    const timeoutMs = Math.max(0, Math.min(policy.timeoutMs, timeLeft(policy), MAX_TIMER_MS));
    const outcome = await attemptPost(post, payload, timeoutMs, signal);
    if ('json' in outcome) return outcome.json;
    const { failure } = outcome;
    if (!failure.retry || attempt >= policy.attempts) throw fail(failure, attempt, outcome.error);
    // The server asks for a wait the deadline does not leave: no retry can succeed in time.
    if (failure.retryAfterMs !== undefined && failure.retryAfterMs >= timeLeft(policy)) {
      throw fail({ ...failure, waitPastDeadline: true }, attempt, outcome.error);
    }
    const delay = retryDelay(attempt, failure.retryAfterMs, policy);
    if (delay >= timeLeft(policy)) throw fail(failure, attempt, outcome.error);
    try {
      await sleep(delay, undefined, { signal });
    } catch {
      throw fail(ABORTED, attempt);
    }
  }
}

/**
 * One attempt, cut by its own timer or the caller's signal. A controller of its own, the timer
 * cleared and the listener removed when done: `AbortSignal.any` with a long-lived caller signal
 * (a server's shutdown signal) keeps every combined signal alive (nodejs/node#55351).
 */
async function attemptPost(
  post: JsonPost,
  payload: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<Outcome> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const stop = (): void => controller.abort();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const response = await fetch(post.context.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json', ...post.headers },
      body: payload,
      signal: controller.signal,
      // The body (a prompt, texts to embed) goes to the URL given and nowhere else.
      redirect: 'manual',
    });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => {});
      return { failure: redirectFailure(response.status, response.headers.get('location')) };
    }
    if (!response.ok) {
      const { text } = await readCapped(response, ERROR_BODY_BYTES, controller);
      return { failure: statusFailure(response.status, text, response.headers.get('retry-after')) };
    }
    const maxBytes = post.maxBytes ?? MAX_ANSWER_BYTES;
    const { text, over } = await readCapped(response, maxBytes, controller);
    if (over) return { failure: unusableAnswer(`answer over ${sizeText(maxBytes)}; it was not read further`, OVERSIZE_HINT) };
    return parseAnswer(text);
  } catch (error) {
    if (signal?.aborted === true) return { failure: ABORTED };
    if (timedOut) return { failure: { cause: `no answer within ${timeoutMs} ms`, retry: true, timedOut: true } };
    return { failure: networkFailure(error), error };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
  }
}

const OVERSIZE_HINT = 'Check that the URL serves this API and the model answers briefly; a larger answer is not read.';

function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/**
 * The answer's body as text, read as it streams in and stopped (the request aborted) once past
 * `maxBytes`: `over` is then true and `text` holds the first `maxBytes`.
 */
async function readCapped(
  response: Response,
  maxBytes: number,
  controller: AbortController,
): Promise<{ text: string; over: boolean }> {
  if (response.body === null) return { text: '', over: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size));
      controller.abort();
      await reader.cancel().catch(() => {});
      return { text: Buffer.concat(chunks).toString('utf8'), over: true };
    }
    size += value.length;
    chunks.push(value);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), over: false };
}

function parseAnswer(text: string): Outcome {
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return { failure: unusableAnswer(`malformed JSON: ${bodyExcerpt(text)}`) };
  }
}

/**
 * Why a request to an embedding server failed, in words a person can act on, and the
 * EMBEDDER_UNAVAILABLE error that says it. Pure: no I/O. The error names the endpoint URL (its
 * user and password removed) and the cause; a secret (the API key) is cut out of everything shown,
 * including excerpts of the server's answer, which may echo it.
 */
import { EngramError } from '../errors.js';

/** Why one attempt failed, and whether another attempt may succeed. */
export interface AttemptFailure {
  /** The cause in words: `HTTP 500: "overloaded"`, `connection refused`, `no answer within 10000 ms`, … */
  cause: string;
  /** True for 408, 429, 5xx, timeouts and network errors; false for answers that will not change. */
  retry: boolean;
  /** The wait the server asked for (`Retry-After`), in ms. */
  retryAfterMs?: number;
  /** The status of a request the server refused for good (a 4xx other than 408 and 429). */
  refusedStatus?: number;
  /** What would fix it, when it is not "start the server". */
  hint?: string;
}

/** Where the failure happened: the embedder, the URL shown, the secret never shown. */
export interface FailureContext {
  id: string;
  url: string;
  secret?: string | undefined;
}

/** The longest excerpt of a server's answer quoted in a message. */
const EXCERPT_CHARS = 160;

const DOWN_HINT = 'Check that the embedding server is running and reachable at that URL, then retry.';
const ANSWER_HINT = 'Check that the URL serves an embedding model (the same model the stored vectors came from).';

/** Statuses worth another attempt besides 5xx: request timeout and rate limiting. */
const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 429]);

/** The network error codes of Node's fetch (undici), said in words. */
const NETWORK_CAUSES: Readonly<Record<string, string>> = Object.freeze({
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the server',
  UND_ERR_SOCKET: 'connection closed by the server',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS lookup failed)',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
});

/** `url` without its user and password, for messages. */
export function displayUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

/** `text` with every occurrence of `secret` replaced by `[redacted]`. */
export function redact(text: string, secret: string | undefined): string {
  return secret === undefined || secret === '' ? text : text.split(secret).join('[redacted]');
}

/**
 * A short, one-line, quoted excerpt of a server's answer: the `error` message of a JSON error
 * answer (Ollama's `{ error }`, OpenAI's `{ error: { message } }`), else the text itself.
 *
 * @example
 * bodyExcerpt('{"error":{"message":"Incorrect API key"}}'); // '"Incorrect API key"'
 */
export function bodyExcerpt(body: string): string {
  const text = errorMessageOf(body) ?? body;
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const line = text.replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, ' ').trim();
  if (line === '') return '(empty answer)';
  return JSON.stringify(line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS)}…` : line);
}

function errorMessageOf(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || !('error' in parsed)) return undefined;
  const error = parsed.error;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  return undefined;
}

/**
 * The wait a `Retry-After` header asks for, in ms: delay-seconds (decimals accepted) or an HTTP
 * date; undefined when absent or unreadable.
 *
 * @example
 * retryAfterMs('2'); // 2000
 */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  // An HTTP date starts with the day's name (`Sun, 06 Nov 1994 08:49:37 GMT`).
  const date = /^[a-z]{3}/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The failure an HTTP answer other than 2xx means. */
export function statusFailure(status: number, body: string, retryAfter: string | null): AttemptFailure {
  const cause = `HTTP ${status}: ${bodyExcerpt(body)}`;
  if (status >= 500 || RETRY_STATUSES.has(status)) {
    const wait = retryAfterMs(retryAfter);
    return wait === undefined ? { cause, retry: true } : { cause, retry: true, retryAfterMs: wait };
  }
  return { cause, retry: false, refusedStatus: status, hint: refusedHint(status) };
}

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

/** The failure a rejected fetch means (the network, not the server, failed). */
export function networkFailure(error: unknown): AttemptFailure {
  const code = networkCode(error);
  const cause = code === undefined
    ? `network error (${error instanceof Error ? error.message : String(error)})`
    : NETWORK_CAUSES[code] ?? `network error (${code})`;
  return { cause, retry: true };
}

function networkCode(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    if ('code' in current && typeof current.code === 'string') return current.code;
    if (current instanceof AggregateError && current.errors.length > 0) current = current.errors[0];
    else current = 'cause' in current ? current.cause : undefined;
  }
  return undefined;
}

/** The failure of an answer that came but cannot be used (malformed JSON, wrong shape or size). */
export function answerFailure(cause: string): AttemptFailure {
  return { cause, retry: false, hint: ANSWER_HINT };
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
  const url = redact(displayUrl(context.url), context.secret);
  const why = redact(failure.cause, context.secret);
  const where = `Embedder ${context.id} at ${url}`;
  const message = failure.refusedStatus === undefined
    ? `${where} is unavailable: ${why}${failure.retry && attempts > 1 ? ` (${attempts} attempts)` : ''}`
    : `${where} refused the request (${refusedWhat(failure.refusedStatus)}): ${why}`;
  return new EngramError('EMBEDDER_UNAVAILABLE', message, {
    hint: failure.hint ?? DOWN_HINT,
    details: { url, cause: why },
    ...(cause === undefined ? {} : { cause }),
  });
}

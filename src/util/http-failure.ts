/**
 * Why a JSON request to a model server (an embedder, an LLM) failed, in words a person can act on.
 * Pure: no I/O. Each caller turns a failure into its own error (EMBEDDER_UNAVAILABLE, LLM_ERROR)
 * with its own hints; what is shared is the reading of statuses, `Retry-After`, network errors and
 * answers, and the two rules of every message: the URL without its user and password, and the
 * secret (the API key) cut out of everything shown, excerpts of the server's answer included.
 */

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
  /** What would fix it, when the caller's default hint for this kind of failure does not fit. */
  hint?: string;
  /** The attempt ran out of time (its own timeout, or the caller's deadline). */
  timedOut?: true;
  /** The caller's signal stopped it. */
  aborted?: true;
  /** An answer came but cannot be used (malformed JSON, the wrong shape). */
  unusable?: true;
  /** The server limits the rate of requests (HTTP 429). */
  rateLimited?: true;
  /** The server's `Retry-After` reaches past the caller's deadline: no retry was made. */
  waitPastDeadline?: true;
}

/** Where the failure happened: the client's id, the URL shown, the secret never shown. */
export interface FailureContext {
  id: string;
  url: string;
  secret?: string | undefined;
}

/** The longest excerpt of a server's answer quoted in a message. */
const EXCERPT_CHARS = 160;

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

/** The failure an HTTP answer other than 2xx means (a refusal carries its status, for the hint). */
export function statusFailure(status: number, body: string, retryAfter: string | null): AttemptFailure {
  const cause = `HTTP ${status}: ${bodyExcerpt(body)}`;
  if (status >= 500 || RETRY_STATUSES.has(status)) {
    const wait = retryAfterMs(retryAfter);
    const failure: AttemptFailure = { cause, retry: true };
    if (wait !== undefined) failure.retryAfterMs = wait;
    if (status === 429) failure.rateLimited = true;
    return failure;
  }
  return { cause, retry: false, refusedStatus: status };
}

/**
 * The failure of a redirect (3xx): never followed, since the request's body (a prompt, texts to
 * embed) and its key were meant for the URL given only.
 */
export function redirectFailure(status: number, location: string | null): AttemptFailure {
  const where = location === null ? 'elsewhere' : `to ${JSON.stringify(displayUrl(location).slice(0, EXCERPT_CHARS))}`;
  return {
    cause: `HTTP ${status}: redirected ${where}; redirects are not followed`,
    retry: false,
    refusedStatus: status,
    hint: 'Give the URL the server redirects to (if it is the one meant) as the base URL.',
  };
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
export function unusableAnswer(cause: string, hint?: string): AttemptFailure {
  return hint === undefined ? { cause, retry: false, unusable: true } : { cause, retry: false, unusable: true, hint };
}

/**
 * Where and why, for an error message: `<id> at <url>` and the cause, both with the secret cut
 * out and the URL without its user and password.
 *
 * @example
 * shownFailure({ id: 'openai:m', url: 'http://u:KEY@h/v1', secret: 'KEY' }, { cause: 'HTTP 500: "x"', retry: true });
 * // { where: 'openai:m at http://h/v1', url: 'http://h/v1', why: 'HTTP 500: "x"' }
 */
export function shownFailure(
  context: FailureContext,
  failure: AttemptFailure,
): { where: string; url: string; why: string } {
  const url = redact(displayUrl(context.url), context.secret);
  return { where: `${context.id} at ${url}`, url, why: redact(failure.cause, context.secret) };
}

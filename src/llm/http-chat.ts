/**
 * The client shared by the HTTP LLMs (OpenAI-compatible, Ollama): one chat request per call, no
 * shell, through the JSON POST the embedders use (`util/http-post.ts`). The call's `timeoutMs` is
 * its whole time: the first attempt may take all of it; 408, 429, 5xx and network errors are
 * retried (at most {@link HTTP_CHAT_DEFAULTS}.attempts attempts, the server's `Retry-After` or a
 * doubling backoff, capped) only while the time left allows the wait. Past the time, LLM_TIMEOUT;
 * any other failure, LLM_ERROR naming the URL and the status, never the key.
 */
import { EngramError } from '../errors.js';
import { type AttemptFailure, type FailureContext, shownFailure, unusableAnswer } from '../util/http-failure.js';
import { postJson } from '../util/http-post.js';
import { isHttpUrl } from '../util/model-url.js';
import { type LlmProvider, type LlmRequest, MAX_REPLY_BYTES } from './provider.js';

/** How one HTTP chat API asks and answers. */
export interface ChatProtocol {
  /** What messages call it: `openai:MODEL`. */
  readonly id: string;
  /** The URL requests are posted to. */
  readonly endpoint: string;
  /** Extra request headers (authorisation). Never shown. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A value cut out of every message (the API key), should a server echo it. */
  readonly secret?: string | undefined;
  /** The JSON body asking for a reply to `system` and `prompt`. */
  body(system: string, prompt: string): unknown;
  /** The reply's text, or what is wrong with the answer's shape. */
  reply(answer: unknown): { text: string } | { problem: string };
}

/** The retry policy of every call, apart from its time. */
export const HTTP_CHAT_DEFAULTS = Object.freeze({ attempts: 4, backoffMs: 500, maxDelayMs: 10_000 });

export interface HttpChatOptions {
  /** Attempts per call, the first one included (default 4). */
  attempts?: number;
  /** The first wait before a retry, in ms (default 500), doubled per attempt, with jitter. */
  backoffMs?: number;
  /** The longest wait between two attempts, in ms, a server's `Retry-After` included (default 10 000). */
  maxDelayMs?: number;
}

const DOWN_HINT = 'Check that the server is running and reachable at that URL, then retry.';
const RATE_HINT = 'The server limits the request rate: retry later, give the call more time (--timeout), or check the account\'s rate limits.';
const ANSWER_HINT = 'Check that the URL serves the chat API of this kind of provider.';

function refusedHint(status: number): string {
  if (status === 401 || status === 403) return 'Check the API key (ENGRAM_LLM_API_KEY; OPENAI_API_KEY goes to api.openai.com only).';
  if (status === 404) return 'Check the model name (is it pulled or served there?) and the URL.';
  return 'Check the model name and that the URL serves this chat API.';
}

function llmFailure(
  context: FailureContext,
  failure: AttemptFailure,
  attempts: number,
  timeoutMs: number,
  cause?: unknown,
): EngramError {
  const { where, url, why } = shownFailure(context, failure);
  const extra = { ...(cause === undefined ? {} : { cause }) };
  if (failure.timedOut === true) {
    return new EngramError('LLM_TIMEOUT', `LLM ${where} gave no answer within ${timeoutMs / 1000} s`, {
      hint: 'Give the model more time, or check that the server is not overloaded.',
      details: { url, timeout_ms: timeoutMs },
      ...extra,
    });
  }
  if (failure.aborted === true) {
    return new EngramError('LLM_ERROR', `LLM ${where} was not waited for: the caller stopped`, { details: { url }, ...extra });
  }
  if (failure.waitPastDeadline === true) {
    const wait = Math.ceil((failure.retryAfterMs ?? 0) / 1000);
    return new EngramError('LLM_ERROR', `LLM ${where} is rate-limited: ${why}, retry after ${wait} s, past the call's time limit of ${timeoutMs / 1000} s`, {
      hint: RATE_HINT,
      details: { url, cause: why, rate_limited: true, retry_after_s: wait },
      ...extra,
    });
  }
  const tries = failure.retry && attempts > 1 ? ` (${attempts} attempts)` : '';
  const message = failure.refusedStatus === undefined
    ? `LLM ${where} failed: ${why}${tries}`
    : `LLM ${where} refused the request: ${why}`;
  const fallback = failure.unusable === true ? ANSWER_HINT : failure.rateLimited === true ? RATE_HINT : DOWN_HINT;
  const hint = failure.hint ?? (failure.refusedStatus === undefined ? fallback : refusedHint(failure.refusedStatus));
  const limited = failure.rateLimited === true ? { rate_limited: true } : {};
  return new EngramError('LLM_ERROR', message, { hint, details: { url, cause: why, ...limited }, ...extra });
}

function checkEndpoint(id: string, endpoint: string): void {
  if (!isHttpUrl(endpoint)) {
    throw new EngramError('PARAM_ERROR', `Invalid URL for LLM ${id}: '${endpoint}'`, { hint: 'Give an http:// or https:// URL.' });
  }
}

/**
 * An {@link LlmProvider} over an HTTP chat protocol (see `chat-protocols.ts`).
 *
 * @example
 * const llm = createHttpChatProvider(openAiChat({ model: 'gpt-4o-mini', url, apiKey }));
 * const reply = await llm.complete({ system, prompt, timeoutMs: 120_000 });
 */
export function createHttpChatProvider(protocol: ChatProtocol, options: HttpChatOptions = {}): LlmProvider {
  checkEndpoint(protocol.id, protocol.endpoint);
  const retry = { ...HTTP_CHAT_DEFAULTS, ...options };
  const context: FailureContext = { id: protocol.id, url: protocol.endpoint, secret: protocol.secret };
  const headers = { ...protocol.headers };
  return Object.freeze({
    label: protocol.id,
    async complete(request: LlmRequest): Promise<string> {
      const { timeoutMs } = request;
      const policy = { ...retry, timeoutMs, deadline: Date.now() + timeoutMs };
      const fail = (failure: AttemptFailure, attempts: number, cause?: unknown) =>
        llmFailure(context, failure, attempts, timeoutMs, cause);
      const body = protocol.body(request.system, request.prompt);
      const post = { context, headers, body, maxBytes: MAX_REPLY_BYTES };
      const answer = await postJson(post, policy, fail, request.signal);
      const reply = protocol.reply(answer);
      if ('problem' in reply) throw fail(unusableAnswer(`unexpected answer: ${reply.problem}`), 1);
      return reply.text;
    },
  });
}

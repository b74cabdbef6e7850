/**
 * Opens the LLM a spelling names (see `spec.ts`): a shell command, or an HTTP chat API. Nothing is
 * contacted or run until the first `complete`.
 */
import { EngramError } from '../errors.js';
import { displayUrl } from '../util/http-failure.js';
import { isHostedOpenAi } from '../util/model-url.js';
import { ollamaChat, openAiChat } from './chat-protocols.js';
import { type HttpChatOptions, createHttpChatProvider } from './http-chat.js';
import type { LlmMode, LlmProvider } from './provider.js';
import { createShellProvider } from './shell-provider.js';
import { parseLlmSpec } from './spec.js';

export interface LlmProviderOptions {
  /** How a shell command gets the prompt (default `stdin`); `file` is for shell commands only. */
  mode?: LlmMode;
  /**
   * The environment: a shell command runs in it; an `openai:` provider takes its key from
   * `ENGRAM_LLM_API_KEY`, else `OPENAI_API_KEY` for the hosted OpenAI API only (an empty
   * variable is unset).
   */
  env: Readonly<Record<string, string | undefined>>;
  /** Where a shell command's prompt file goes in `file` mode (default: the system's temporary directory). */
  tmpDir?: string;
  /** Retries of the HTTP providers (see `http-chat.ts`). */
  http?: HttpChatOptions;
}

/** True for the hosted OpenAI API, which needs a key (a local or self-hosted server may not). */
function needsKey(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return host === 'openai.com' || host.endsWith('.openai.com');
}

/** True for a host on this machine (`localhost`, 127.0.0.0/8, `::1`). */
function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(host) || host === '::1';
}

/**
 * The key an `openai:` provider sends: `ENGRAM_LLM_API_KEY` (engram's own setting for the LLM's
 * URL), else `OPENAI_API_KEY` to the hosted OpenAI API over https only (another server never
 * gets the OpenAI key). PARAM_ERROR rather than a key sent in clear to another machine.
 */
function apiKeyFor(model: string, url: string, env: LlmProviderOptions['env']): string | undefined {
  const own = env.ENGRAM_LLM_API_KEY || undefined;
  if (own !== undefined) {
    if (new URL(url).protocol === 'http:' && !isLoopback(url)) {
      throw new EngramError('PARAM_ERROR', `LLM openai:${model} at ${displayUrl(url)}: ENGRAM_LLM_API_KEY would go in clear over http to another machine`, {
        hint: 'Give an https:// base URL, or unset ENGRAM_LLM_API_KEY for a server that needs no key.',
      });
    }
    return own;
  }
  return isHostedOpenAi(url) ? env.OPENAI_API_KEY || undefined : undefined;
}

/**
 * The provider `spec` names; PARAM_ERROR (with a hint) for a malformed spelling, for `file` mode
 * with an HTTP provider, and for the hosted OpenAI API without a key.
 *
 * @example
 * const llm = createLlmProvider('claude -p', { env: process.env });
 * const local = createLlmProvider('openai:qwen2.5@http://127.0.0.1:1234/v1', { env: process.env });
 * const reply = await llm.complete({ system: '', prompt: 'Say hi', timeoutMs: 60_000 });
 */
export function createLlmProvider(spec: string, options: LlmProviderOptions): LlmProvider {
  const { mode = 'stdin', env } = options;
  if (mode !== 'stdin' && mode !== 'file') {
    throw new EngramError('PARAM_ERROR', `Invalid LLM mode '${String(mode)}'`, { hint: 'The mode is stdin or file.' });
  }
  const parsed = parseLlmSpec(spec);
  if (parsed.kind === 'shell') {
    const { tmpDir } = options;
    return createShellProvider({ command: parsed.command, mode, env, ...(tmpDir === undefined ? {} : { tmpDir }) });
  }
  if (mode === 'file') {
    throw new EngramError('PARAM_ERROR', `The file mode is for shell commands; ${parsed.kind}:${parsed.model} is called over HTTP`, {
      hint: 'Leave the mode at stdin for an HTTP provider.',
    });
  }
  if (parsed.kind === 'ollama') return createHttpChatProvider(ollamaChat(parsed), options.http);
  const apiKey = apiKeyFor(parsed.model, parsed.url, env);
  if (apiKey === undefined && needsKey(parsed.url)) {
    throw new EngramError('PARAM_ERROR', `LLM openai:${parsed.model} at ${parsed.url} needs an API key`, {
      hint: 'Set ENGRAM_LLM_API_KEY (or OPENAI_API_KEY), or give the base URL of a local server (openai:MODEL@http://127.0.0.1:1234/v1).',
    });
  }
  return createHttpChatProvider(openAiChat({ ...parsed, apiKey }), options.http);
}

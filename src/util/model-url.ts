/**
 * The `MODEL[@URL]` part of a model server's spelling (`ollama:MODEL[@URL]`,
 * `openai:MODEL[@BASE_URL]`), shared by the embedders and the LLM providers, with the servers'
 * default URLs.
 */

/** Ollama's default address. */
export const OLLAMA_URL = 'http://127.0.0.1:11434';
/** The OpenAI API's base URL. */
export const OPENAI_URL = 'https://api.openai.com/v1';

/**
 * `MODEL@URL` → model and URL (`fallback` without `@URL`), or what is wrong with it. The first `@`
 * followed by `http://` or `https://` splits them, since model names may hold `@` (LM Studio's
 * `…@q8_0`). An `@host:port` without a scheme is refused rather than read as part of the model name
 * (it would send the request, and the key, elsewhere), and so is a URL of another scheme
 * (`@ftp://…`). The URL loses its trailing slashes.
 *
 * @example
 * splitModelUrl('llama3@http://gpu:11434/', OLLAMA_URL); // { model: 'llama3', url: 'http://gpu:11434' }
 * splitModelUrl('m@gpu:11434', OLLAMA_URL); // 'the URL after @ needs http:// or https://'
 */
export function splitModelUrl(rest: string, fallback: string): { model: string; url: string } | string {
  const elsewhere = [/@(?!https?:\/\/)[\w.-]+:\d+(?:\/|$)/i, /@localhost(?:[:/]|$)/i, /@(?!https?:\/\/)[a-z][\w+.-]*:\/\//i];
  if (elsewhere.some((pattern) => pattern.test(rest))) return 'the URL after @ needs http:// or https://';
  const at = rest.search(/@https?:\/\//);
  const model = at < 0 ? rest : rest.slice(0, at);
  const url = at < 0 ? fallback : rest.slice(at + 1);
  if (model.trim() === '') return 'the model name is missing';
  if (at >= 0 && !URL.canParse(url)) return `'${url}' is not a URL`;
  return { model: model.trim(), url: url.replace(/\/+$/, '') };
}

/** True for a URL a model server can be reached at: `http:` or `https:`. */
export function isHttpUrl(url: string): boolean {
  const protocol = URL.canParse(url) ? new URL(url).protocol : '';
  return protocol === 'http:' || protocol === 'https:';
}

/** True for the hosted OpenAI API over https: the only server the `OPENAI_API_KEY` fallback is sent to. */
export function isHostedOpenAi(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol, hostname } = new URL(url);
  const host = hostname.toLowerCase();
  return protocol === 'https:' && (host === 'openai.com' || host.endsWith('.openai.com'));
}

/**
 * The one spelling of an LLM (`--llm`):
 *
 * - `openai:MODEL[@BASE_URL]`: an OpenAI-compatible `/chat/completions` over HTTP, no shell (base
 *   URL default `https://api.openai.com/v1`);
 * - `ollama:MODEL[@URL]`: Ollama's `/api/chat` over HTTP, no shell (URL default
 *   `http://127.0.0.1:11434`);
 * - anything else: a shell command line run by `/bin/sh -c` (`claude -p`, `ollama run llama3`).
 *
 * A single word shaped like `kind:something` with another kind is refused rather than run as a
 * command: it is far more likely a misspelt provider than a program with a colon in its name.
 */
import { EngramError } from '../errors.js';
import { OLLAMA_URL, OPENAI_URL, splitModelUrl } from '../util/model-url.js';

export type LlmSpec
  = | { kind: 'shell'; command: string }
    | { kind: 'openai'; model: string; url: string }
    | { kind: 'ollama'; model: string; url: string };

const SPELLING = 'a shell command line ("claude -p", "ollama run llama3"), openai:MODEL[@BASE_URL] or ollama:MODEL[@URL]';

function badSpec(spec: string, why: string): EngramError {
  return new EngramError('PARAM_ERROR', `Invalid LLM '${spec}': ${why}`, { hint: `Give the LLM as ${SPELLING}.` });
}

/**
 * Parses an LLM's spelling; PARAM_ERROR with the accepted spellings when it is empty, holds a
 * control character other than a tab, or names an unknown `kind:`.
 *
 * @example
 * parseLlmSpec('claude -p'); // { kind: 'shell', command: 'claude -p' }
 * parseLlmSpec('openai:gpt-4o-mini'); // { kind: 'openai', model: 'gpt-4o-mini', url: 'https://api.openai.com/v1' }
 * parseLlmSpec('ollama:llama3@http://gpu:11434'); // { kind: 'ollama', model: 'llama3', url: 'http://gpu:11434' }
 */
export function parseLlmSpec(spec: string): LlmSpec {
  const text = spec.trim();
  if (text === '') throw badSpec(spec, 'it is empty');
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(text)) throw badSpec(JSON.stringify(spec).slice(1, -1), 'it holds a control character');
  const prefixed = /^([a-z][a-z0-9+.-]*):(\S*)$/i.exec(text);
  if (prefixed === null) return { kind: 'shell', command: text };
  const kind = (prefixed[1] ?? '').toLowerCase();
  const rest = prefixed[2] ?? '';
  if (kind !== 'openai' && kind !== 'ollama') throw badSpec(spec, `unknown kind '${prefixed[1] ?? ''}'`);
  const split = splitModelUrl(rest, kind === 'openai' ? OPENAI_URL : OLLAMA_URL);
  if (typeof split === 'string') throw badSpec(spec, split);
  return { kind, ...split };
}

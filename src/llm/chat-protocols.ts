/**
 * The two HTTP chat APIs an LLM provider speaks, without a shell:
 *
 * - OpenAI-compatible (OpenAI, LM Studio, vLLM, llama.cpp server, Ollama's `/v1`):
 *   `POST {base}/chat/completions` with `{ model, messages, stream: false }`, the reply in
 *   `choices[0].message.content` (a string, or a list of text parts). The API key, when given,
 *   goes in `Authorization: Bearer KEY` and nowhere else.
 * - Ollama: `POST {url}/api/chat` with `{ model, messages, stream: false }`, the reply in
 *   `message.content`. Ollama takes no key.
 *
 * The system text is the `system` message (left out when empty); the prompt is the `user` message.
 */
import type { ChatProtocol } from './http-chat.js';

type Message = { role: 'system' | 'user'; content: string };

function messages(system: string, prompt: string): Message[] {
  const list: Message[] = system.trim() === '' ? [] : [{ role: 'system', content: system }];
  list.push({ role: 'user', content: prompt });
  return list;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && name in value ? (value as Record<string, unknown>)[name] : undefined;
}

/** A content that is a string, or OpenAI's list of parts whose text parts are joined. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.map((part) => field(part, 'text'));
  return texts.every((text) => typeof text === 'string') ? texts.join('') : undefined;
}

function openAiReply(answer: unknown): { text: string } | { problem: string } {
  const choices = field(answer, 'choices');
  if (!Array.isArray(choices) || choices.length === 0) return { problem: 'no "choices"' };
  const text = contentText(field(field(choices[0], 'message'), 'content'));
  return text === undefined ? { problem: 'choices[0].message.content is not text' } : { text };
}

function ollamaReply(answer: unknown): { text: string } | { problem: string } {
  const text = contentText(field(field(answer, 'message'), 'content'));
  return text === undefined ? { problem: 'message.content is not text' } : { text };
}

/**
 * The OpenAI-compatible chat protocol; its id is `openai:MODEL` (neither the URL nor the key).
 *
 * @example
 * createHttpChatProvider(openAiChat({ model: 'gpt-4o-mini', url: 'https://api.openai.com/v1', apiKey }));
 */
export function openAiChat(options: { model: string; url: string; apiKey?: string | undefined }): ChatProtocol {
  const { model, url, apiKey } = options;
  const key = apiKey === undefined || apiKey === '' ? undefined : apiKey;
  return {
    id: `openai:${model}`,
    endpoint: `${url.replace(/\/+$/, '')}/chat/completions`,
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
    secret: key,
    body: (system, prompt) => ({ model, messages: messages(system, prompt), stream: false }),
    reply: openAiReply,
  };
}

/**
 * Ollama's chat protocol; its id is `ollama:MODEL`.
 *
 * @example
 * createHttpChatProvider(ollamaChat({ model: 'llama3', url: 'http://127.0.0.1:11434' }));
 */
export function ollamaChat(options: { model: string; url: string }): ChatProtocol {
  const { model, url } = options;
  return {
    id: `ollama:${model}`,
    endpoint: `${url.replace(/\/+$/, '')}/api/chat`,
    body: (system, prompt) => ({ model, messages: messages(system, prompt), stream: false }),
    reply: ollamaReply,
  };
}

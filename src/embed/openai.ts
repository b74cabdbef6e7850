/**
 * The OpenAI-compatible embedder (OpenAI, LM Studio, vLLM, llama.cpp server, Ollama's `/v1`):
 * `POST {base}/embeddings` with `{ model, input: string[] }`, answered by
 * `{ data: [{ index, embedding }] }`, put back in the order of `index`. The API key, when given,
 * goes in `Authorization: Bearer KEY` and nowhere else: not in the id, not in the returned object,
 * not in any error (cut out even when a server echoes it). Batching, timeout, retries and checks:
 * see `http-embedder.ts`.
 */
import { OPENAI_URL, type Embedder } from './embedder.js';
import { type HttpEmbedderOptions, createHttpEmbedder } from './http-embedder.js';

export interface OpenAiEmbedderOptions extends HttpEmbedderOptions {
  /** The model name (`text-embedding-3-small`, or what the server lists under `/models`). */
  model: string;
  /** The API base URL, ending in `/v1` or the like (default `https://api.openai.com/v1`). */
  url?: string;
  /** The API key; no `Authorization` header without one (local servers need none). */
  apiKey?: string | undefined;
}

/** The `embedding` of each entry of `data`, ordered by `index` (the position when no entry has one). */
function embeddingsOf(answer: unknown): unknown[] | string {
  if (typeof answer !== 'object' || answer === null || !('data' in answer)) return 'no "data" field';
  if (!Array.isArray(answer.data)) return '"data" is not a list';
  const entries = answer.data as unknown[];
  const vectors: unknown[] = new Array<unknown>(entries.length);
  for (const [position, entry] of entries.entries()) {
    if (typeof entry !== 'object' || entry === null || !('embedding' in entry)) return `data[${position}] has no "embedding"`;
    const index = 'index' in entry ? entry.index : position;
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= entries.length) {
      return `data[${position}] has index ${JSON.stringify(index)}, outside 0..${entries.length - 1}`;
    }
    if ((index as number) in vectors) return `index ${index as number} appears twice in "data"`;
    vectors[index as number] = entry.embedding;
  }
  return vectors;
}

/**
 * An embedder speaking the OpenAI embeddings API; its id is `openai:MODEL` (neither the URL nor
 * the key is part of it).
 *
 * @example
 * const embedder = createOpenAiEmbedder({ model: 'text-embedding-3-small', apiKey: key });
 * const local = createOpenAiEmbedder({ model: 'nomic-embed-text', url: 'http://127.0.0.1:1234/v1' });
 */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const { model, url = OPENAI_URL, apiKey, ...client } = options;
  const key = apiKey === undefined || apiKey === '' ? undefined : apiKey;
  return createHttpEmbedder({
    id: `openai:${model}`,
    endpoint: `${url.replace(/\/+$/, '')}/embeddings`,
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
    secret: key,
    body: (texts) => ({ model, input: texts }),
    vectors: embeddingsOf,
  }, client);
}

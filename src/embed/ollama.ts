/**
 * The Ollama embedder: `POST {url}/api/embed` with `{ model, input: string[] }`, answered by
 * `{ embeddings: number[][] }` in the order of the inputs (Ollama 0.3.4 and later). Ollama takes
 * no API key. Batching, timeout, retries and checks: see `http-embedder.ts`.
 */
import { OLLAMA_URL, type Embedder } from './embedder.js';
import { type HttpEmbedderOptions, createHttpEmbedder } from './http-embedder.js';

export interface OllamaEmbedderOptions extends HttpEmbedderOptions {
  /** The model name as Ollama knows it (`nomic-embed-text`, `nomic-embed-text:latest`). */
  model: string;
  /** The server's base URL (default `http://127.0.0.1:11434`). */
  url?: string;
}

function embeddingsOf(answer: unknown): unknown[] | string {
  if (typeof answer !== 'object' || answer === null || !('embeddings' in answer)) return 'no "embeddings" field';
  return Array.isArray(answer.embeddings) ? answer.embeddings as unknown[] : '"embeddings" is not a list';
}

/**
 * An embedder speaking Ollama's `/api/embed`; its id is `ollama:MODEL` (the URL is not part of it).
 *
 * @example
 * const embedder = createOllamaEmbedder({ model: 'nomic-embed-text' });
 * const [vector] = await embedder.embed(['the car needs new tires']);
 */
export function createOllamaEmbedder(options: OllamaEmbedderOptions): Embedder {
  const { model, url = OLLAMA_URL, ...client } = options;
  return createHttpEmbedder({
    id: `ollama:${model}`,
    endpoint: `${url.replace(/\/+$/, '')}/api/embed`,
    body: (texts) => ({ model, input: texts }),
    vectors: embeddingsOf,
  }, client);
}

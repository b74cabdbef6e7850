/**
 * Opens the embedder an `EmbedderSpec` (or its spelling, `ollama:MODEL[@URL]`, …) names. HTTP
 * embedders take the client defaults of `http-embedder.ts`: 10 s per request, 4 attempts per
 * batch (backoff from 250 ms, doubled, with jitter; at most 10 s between attempts, a server's
 * `Retry-After` included), at most 32 texts per request. The local Model2Vec model is loaded only
 * when it is the one asked for.
 */
import { type Embedder, type EmbedderSpec, parseEmbedderSpec } from './embedder.js';
import { createOllamaEmbedder } from './ollama.js';
import { createOpenAiEmbedder } from './openai.js';

export interface OpenEmbedderOptions {
  /**
   * The key of an OpenAI-compatible server (the shell reads `ENGRAM_EMBED_API_KEY`, else
   * `OPENAI_API_KEY`). Sent only to `openai:` embedders; never shown or stored.
   */
  apiKey?: string | undefined;
  /** Milliseconds one HTTP request may take (default 10 000). */
  timeoutMs?: number | undefined;
}

/**
 * The embedder `spec` names. A malformed spelling fails with PARAM_ERROR; an HTTP embedder is not
 * contacted until its first `embed` (its `dimensions` are known after that answer) and then uses
 * `HTTP_EMBEDDER_DEFAULTS` (http-embedder.ts): 10 000 ms per request (or `timeoutMs`), 4 attempts
 * per batch, 32 texts per request. The API key goes to `openai:` embedders only, never to Ollama.
 *
 * @example
 * const embedder = await openEmbedder('ollama:nomic-embed-text');
 * const openai = await openEmbedder('openai:text-embedding-3-small', { apiKey });
 */
export async function openEmbedder(spec: EmbedderSpec | string, options: OpenEmbedderOptions = {}): Promise<Embedder> {
  const parsed = typeof spec === 'string' ? parseEmbedderSpec(spec) : spec;
  const { apiKey } = options;
  const client = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  switch (parsed.kind) {
    case 'ollama':
      return createOllamaEmbedder({ model: parsed.model, url: parsed.url, ...client });
    case 'openai':
      return createOpenAiEmbedder({ model: parsed.model, url: parsed.url, apiKey, ...client });
    case 'model2vec': {
      // Imported here only: the loader brings the tokenizer library, which the HTTP embedders don't need.
      const { loadModel2Vec } = await import('./model2vec.js');
      return loadModel2Vec(parsed.path);
    }
  }
}

/**
 * The embedder interface and its one spelling, shared by `--embedder`, `ENGRAM_EMBEDDER` and
 * `.engram/config.json` (`"embedder"`):
 *
 * - `model2vec:PATH`: a local Model2Vec static model directory (offline; see `model2vec.ts`);
 * - `ollama:MODEL[@URL]`: Ollama's `/api/embed` (URL default `http://127.0.0.1:11434`);
 * - `openai:MODEL[@BASE_URL]`: an OpenAI-compatible `/v1/embeddings` (base URL default
 *   `https://api.openai.com/v1`), key from `ENGRAM_EMBED_API_KEY` or `OPENAI_API_KEY`.
 *
 * No embedder configured means lexical search only; nothing is ever downloaded.
 */
import { EngramError } from '../errors.js';
import { OLLAMA_URL, OPENAI_URL, splitModelUrl } from '../util/model-url.js';

export interface Embedder {
  /**
   * Stable id of the model, recorded with the vectors it made (the URL and key are not part of
   * it: the same model behind another address makes the same vectors).
   */
  readonly id: string;
  /**
   * True while `id` is only the spelling's guess and the real one is known once the embedder has
   * answered (a Model2Vec model not loaded yet: its id holds a hash of its files). An HTTP
   * embedder's id comes from its spelling and is final before any contact.
   */
  readonly provisional?: boolean;
  /** The vector dimension; undefined for a remote model until its first answer. */
  readonly dimensions: number | undefined;
  /**
   * One L2-normalised vector per text, in order. Fails with EMBEDDER_UNAVAILABLE (retryable) when
   * the model cannot answer, or when `signal` aborts.
   */
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
}

export type EmbedderSpec
  = | { kind: 'model2vec'; path: string }
    | { kind: 'ollama'; model: string; url: string }
    | { kind: 'openai'; model: string; url: string };

export { OLLAMA_URL, OPENAI_URL };

const SPELLING = 'model2vec:PATH, ollama:MODEL[@URL] or openai:MODEL[@BASE_URL]';

function badSpec(spec: string, why: string): EngramError {
  return new EngramError('PARAM_ERROR', `Invalid embedder '${spec}': ${why}`, {
    hint: `Write the embedder as ${SPELLING}.`,
  });
}

function modelAndUrl(spec: string, rest: string, fallback: string): { model: string; url: string } {
  const split = splitModelUrl(rest, fallback);
  if (typeof split === 'string') throw badSpec(spec, split);
  return split;
}

/**
 * Parses the one spelling of an embedder.
 *
 * @example
 * parseEmbedderSpec('ollama:nomic-embed-text'); // { kind: 'ollama', model: 'nomic-embed-text', url: 'http://127.0.0.1:11434' }
 * parseEmbedderSpec('openai:text-embedding-3-small@http://localhost:1234/v1');
 */
export function parseEmbedderSpec(spec: string): EmbedderSpec {
  const colon = spec.indexOf(':');
  const kind = colon < 0 ? '' : spec.slice(0, colon).trim().toLowerCase();
  const rest = colon < 0 ? '' : spec.slice(colon + 1).trim();
  switch (kind) {
    case 'model2vec':
      if (rest === '') throw badSpec(spec, 'the model directory is missing');
      return { kind, path: rest };
    case 'ollama':
      return { kind, ...modelAndUrl(spec, rest, OLLAMA_URL) };
    case 'openai':
      return { kind, ...modelAndUrl(spec, rest, OPENAI_URL) };
    default:
      throw badSpec(spec, colon < 0 ? 'no kind before a colon' : `unknown kind '${spec.slice(0, colon)}'`);
  }
}

/** Scales `vector` to length 1 in place (a zero vector stays zero) and returns it. */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / norm;
  return vector;
}

/** The dot product of two vectors of one dimension: their cosine when both are normalised. */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

/**
 * The id the spelling gives without opening anything: final for the HTTP kinds (`ollama:MODEL`,
 * `openai:MODEL`, whatever the URL), undefined for a Model2Vec directory (its id is known once
 * loaded) and for a spelling that does not parse.
 *
 * @example
 * spelledId('ollama:nomic-embed-text@http://gpu:11434'); // 'ollama:nomic-embed-text'
 */
export function spelledId(spec: string): string | undefined {
  try {
    const parsed = parseEmbedderSpec(spec);
    return parsed.kind === 'model2vec' ? undefined : `${parsed.kind}:${parsed.model}`;
  } catch {
    return undefined;
  }
}

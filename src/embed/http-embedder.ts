/**
 * The client shared by the HTTP embedders (Ollama, OpenAI-compatible): texts go in batches of at
 * most `batchSize`, one request after another (gentle on a local server, order kept); each request
 * has its own timeout and retries (see `util/http-post.ts`). Every answer is checked: one vector per
 * text, numbers only, finite as 32-bit floats, every vector of the dimension of the first answer
 * ever (or of `expectedDimensions`). Vectors come back L2-normalised. A protocol only says how to
 * ask and where the vectors are in the answer.
 */
import { EngramError } from '../errors.js';
import { type Embedder, normalize } from './embedder.js';
import type { AttemptFailure, FailureContext } from '../util/http-failure.js';
import { type RetryPolicy, postJson } from '../util/http-post.js';
import { isHttpUrl } from '../util/model-url.js';
import { answerFailure, embedderUnavailable } from './http-failure.js';

/** How the client batches, waits and retries; every field has a default. */
export interface HttpEmbedderOptions {
  /** Milliseconds one request may take, its answer read in full (default 10 000). */
  timeoutMs?: number;
  /** Requests tried per batch, the first one included (default 4). */
  attempts?: number;
  /** Texts per request at most (default 32); more texts are sent in several requests. */
  batchSize?: number;
  /** The first wait before a retry, in ms (default 250), doubled per attempt, with jitter. */
  backoffMs?: number;
  /** The longest wait between two attempts, in ms, a server's `Retry-After` included (default 10 000). */
  maxDelayMs?: number;
  /** The dimension the vectors must have (say, the one the store recorded); default: the first answer's. */
  expectedDimensions?: number;
}

/** The defaults of {@link HttpEmbedderOptions}. */
export const HTTP_EMBEDDER_DEFAULTS = Object.freeze({
  timeoutMs: 10_000,
  attempts: 4,
  batchSize: 32,
  backoffMs: 250,
  maxDelayMs: 10_000,
});

/** How one HTTP embedding API asks and answers. */
export interface EmbeddingProtocol {
  /** The embedder's id (`ollama:MODEL`). */
  readonly id: string;
  /** The URL requests are posted to. */
  readonly endpoint: string;
  /** Extra request headers (authorisation). Never shown. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A value cut out of every message (the API key), should a server echo it. */
  readonly secret?: string | undefined;
  /** The JSON body asking for the vectors of `texts`. */
  body(texts: readonly string[]): unknown;
  /** The vectors of an answer in the order of the texts, or what is wrong with the answer's shape. */
  vectors(answer: unknown): unknown[] | string;
}

type Resolved = RetryPolicy & { batchSize: number };

function option(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    throw new EngramError('PARAM_ERROR', `Invalid embedder option ${name}: ${value} (an integer ≥ ${min})`);
  }
  return value;
}

function resolve(options: HttpEmbedderOptions): Resolved {
  const d = HTTP_EMBEDDER_DEFAULTS;
  return {
    timeoutMs: option('timeoutMs', options.timeoutMs, d.timeoutMs, 1),
    attempts: option('attempts', options.attempts, d.attempts, 1),
    batchSize: option('batchSize', options.batchSize, d.batchSize, 1),
    backoffMs: option('backoffMs', options.backoffMs, d.backoffMs, 0),
    maxDelayMs: option('maxDelayMs', options.maxDelayMs, d.maxDelayMs, 0),
  };
}

function checkEndpoint(id: string, endpoint: string): void {
  if (!isHttpUrl(endpoint)) {
    throw new EngramError('PARAM_ERROR', `Invalid URL for embedder ${id}: '${endpoint}'`, {
      hint: 'Give an http:// or https:// URL.',
    });
  }
}

/**
 * Checks the raw vectors of one answer and turns them into normalised Float32Arrays, or says what
 * is wrong: the count, a value that is not a finite number, or the dimension (`dimensions` when
 * known, else the answer's first vector's).
 */
export function checkVectors(raw: unknown[], count: number, dimensions: number | undefined): Float32Array[] | string {
  if (raw.length !== count) return `wrong count of vectors: ${raw.length} for ${count} texts`;
  const vectors: Float32Array[] = [];
  let expected = dimensions;
  for (const [i, values] of raw.entries()) {
    if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'number')) {
      return `vector ${i} is not a list of numbers`;
    }
    expected ??= values.length;
    if (values.length !== expected) return `wrong dimension: vector ${i} has ${values.length} values, expected ${expected}`;
    const vector = Float32Array.from(values as number[]);
    if (!vector.every(Number.isFinite)) return `vector ${i} holds a value that is not a finite 32-bit number`;
    vectors.push(normalize(vector));
  }
  return vectors;
}

/**
 * An {@link Embedder} over an HTTP protocol (see `ollama.ts`, `openai.ts`). Options are checked
 * here (PARAM_ERROR); `dimensions` is `expectedDimensions`, else undefined until the first answer.
 *
 * @example
 * const embedder = createHttpEmbedder(protocol, { timeoutMs: 5_000, batchSize: 16 });
 * const [vector] = await embedder.embed(['the car needs new tires']);
 */
export function createHttpEmbedder(protocol: EmbeddingProtocol, options: HttpEmbedderOptions = {}): Embedder {
  checkEndpoint(protocol.id, protocol.endpoint);
  const policy = resolve(options);
  let dimensions = options.expectedDimensions === undefined
    ? undefined
    : option('expectedDimensions', options.expectedDimensions, 0, 1);
  const context: FailureContext = { id: protocol.id, url: protocol.endpoint, secret: protocol.secret };
  const headers = { ...protocol.headers };
  const fail = (failure: AttemptFailure, attempts: number, cause?: unknown) =>
    embedderUnavailable(context, failure, attempts, cause);

  async function embedBatch(texts: readonly string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const answer = await postJson({ context, headers, body: protocol.body(texts) }, policy, fail, signal);
    const raw = protocol.vectors(answer);
    const checked = typeof raw === 'string'
      ? `unexpected answer: ${raw}`
      : checkVectors(raw, texts.length, dimensions);
    if (typeof checked === 'string') throw embedderUnavailable(context, answerFailure(checked), 1);
    dimensions ??= checked[0]?.length;
    return checked;
  }

  return Object.freeze({
    id: protocol.id,
    get dimensions() {
      return dimensions;
    },
    async embed(texts: readonly string[], embedOptions: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += policy.batchSize) {
        vectors.push(...await embedBatch(texts.slice(start, start + policy.batchSize), embedOptions.signal));
      }
      return vectors;
    },
  });
}

/**
 * The `model2vec:PATH` embedder: a local Model2Vec static model (a POTION model, say) computed in
 * TypeScript, offline. A directory holds `config.json`, `model.safetensors` (the token table, see
 * `static-embeddings.ts`) and `tokenizer.json` (see `model2vec-tokenizer.ts`).
 *
 * A text's vector is model2vec's: tokens without special tokens, the unknown token dropped, the
 * first 512 kept, their rows averaged (remapped and weighted when the file says so), then scaled to
 * length 1. Vectors are always unit length, as the {@link Embedder} contract says, whatever
 * `normalize` says in config.json: for a model that does not normalise, model2vec's vector points
 * the same way, so every cosine is the same. A text with no known token gives the zero vector.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { EngramError } from '../errors.js';
import { type Embedder, normalize } from './embedder.js';
import { modelFileError } from './model-error.js';
import { loadModelTokenizer, type ModelTokenizer } from './model2vec-tokenizer.js';
import { parseSafetensors } from './safetensors.js';
import { meanPool, readStaticEmbeddings, type StaticEmbeddings } from './static-embeddings.js';

/** Texts embedded between two returns to the event loop (so a timer or an abort can run). */
const TEXTS_PER_TURN = 32;

const DIRECTORY_HINT
  = 'Give the directory of a downloaded Model2Vec model (config.json, model.safetensors, tokenizer.json), a POTION model for example.';

async function checkDirectory(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info?.isDirectory() !== true) {
    const why = info === undefined ? 'does not exist or cannot be read' : 'is not a directory';
    throw new EngramError('PARAM_ERROR', `Model2Vec model directory ${dir} ${why}`, {
      hint: DIRECTORY_HINT,
      details: { path: dir },
    });
  }
}

async function readModelFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw modelFileError(path, code === 'ENOENT' ? 'the file is missing' : `it cannot be read (${code ?? 'error'})`, error);
  }
}

/** Checks config.json: a JSON object that, when it names a model type, names model2vec. */
function checkConfig(text: string, path: string): void {
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw modelFileError(path, 'it is not valid JSON', error);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw modelFileError(path, 'it is not a JSON object');
  }
  const type = (config as Record<string, unknown>).model_type;
  if (type !== undefined && type !== 'model2vec') {
    throw modelFileError(path, `model_type is ${JSON.stringify(type)}: not a Model2Vec static model`);
  }
}

/**
 * `model2vec:<directory name>@<12 hex digits>`: the digits are the start of the SHA-256 of
 * model.safetensors and tokenizer.json, the two files that decide every vector, so two
 * directories with one name but different models (potion-base-8M before and after an update, say)
 * get different ids, and a copied or moved model keeps its digits.
 */
function modelId(dir: string, weights: Uint8Array, tokenizer: Uint8Array): string {
  const digest = createHash('sha256').update(weights).update(tokenizer).digest('hex');
  return `model2vec:${basename(dir) || dir}@${digest.slice(0, 12)}`;
}

function cancelled(id: string, reason: unknown): EngramError {
  return new EngramError('EMBEDDER_UNAVAILABLE', `Embedding with ${id} was cancelled before it finished`, {
    hint: 'Try again; nothing was lost.',
    details: { embedder: id },
    cause: reason,
  });
}

function createEmbedder(id: string, table: StaticEmbeddings, tokenizer: ModelTokenizer): Embedder {
  const embedOne = (text: string): Float32Array => {
    try {
      return normalize(meanPool(table, tokenizer.ids(text)));
    } catch (error) {
      throw new EngramError('EMBEDDER_UNAVAILABLE', `The Model2Vec model ${id} failed on a text`, {
        hint: 'Try again later; the text is kept.',
        details: { embedder: id },
        cause: error,
      });
    }
  };
  return Object.freeze({
    id,
    dimensions: table.dims,
    async embed(texts: readonly string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
      const vectors: Float32Array[] = [];
      for (const text of texts) {
        if (vectors.length > 0 && vectors.length % TEXTS_PER_TURN === 0) await nextTurn();
        if (options.signal?.aborted === true) throw cancelled(id, options.signal.reason);
        vectors.push(embedOne(text));
      }
      return vectors;
    },
  });
}

/**
 * Loads a local Model2Vec model directory as an {@link Embedder}. The dimension comes from the
 * `embeddings` tensor (config.json's `hidden_dim` may disagree and is ignored). A missing,
 * damaged or unsupported file is a PARAM_ERROR naming the file and the problem.
 *
 * `embed` returns one unit vector per text, or the zero vector for a text with no known token
 * (empty, blank, or only unknown characters). It fails with EMBEDDER_UNAVAILABLE when its
 * `signal` aborts (checked between texts).
 *
 * @example
 * const embedder = await loadModel2Vec('/models/potion-base-8M');
 * embedder.id;                                  // 'model2vec:potion-base-8M@3f9a0c12b4e1'
 * const [vector] = await embedder.embed(['car needs new tires']); // Float32Array(256), length 1
 */
export async function loadModel2Vec(dir: string): Promise<Embedder> {
  const root = resolve(dir);
  await checkDirectory(root);
  const paths = {
    config: join(root, 'config.json'),
    weights: join(root, 'model.safetensors'),
    tokenizer: join(root, 'tokenizer.json'),
  };
  const [config, weights, tokenizerBytes] = await Promise.all(
    [paths.config, paths.weights, paths.tokenizer].map(readModelFile),
  ) as [Buffer, Buffer, Buffer];
  checkConfig(config.toString('utf8'), paths.config);
  const table = readStaticEmbeddings(parseSafetensors(weights, paths.weights));
  const tokenizer = await loadModelTokenizer(tokenizerBytes.toString('utf8'), paths.tokenizer);
  if (tokenizer.vocabularySize > table.tokens) {
    throw modelFileError(paths.weights, `it has vectors for ${table.tokens} tokens but tokenizer.json has `
      + `${tokenizer.vocabularySize}: the two files come from different models`);
  }
  return createEmbedder(modelId(root, weights, tokenizerBytes), table, tokenizer);
}

/**
 * A Model2Vec model's token table and its pooling, pure over plain arrays.
 *
 * The table is read from `model.safetensors`: `embeddings` (rows × dims; `0` in older files),
 * optionally `weights` (one per token id) and `mapping` (token id → row, for models whose
 * vocabulary was quantised into fewer rows). Token `id` contributes
 * `embeddings[mapping ? mapping[id] : id] × (weights ? weights[id] : 1)`; a text's vector is the
 * mean of its tokens' contributions, in float64, rounded to float32 at the end.
 */
import { decodeTensor, isIntegerDtype, type SafetensorsFile, type TensorEntry } from './safetensors.js';
import { modelFileError } from './model-error.js';

export interface StaticEmbeddings {
  /** The vector dimension: the `embeddings` tensor's second size (never config.json's `hidden_dim`). */
  readonly dims: number;
  /** How many token ids the table covers (`mapping`'s length, else the number of rows). */
  readonly tokens: number;
  /** rows × dims values, row-major. */
  readonly vectors: Float32Array;
  readonly mapping: Int32Array | undefined;
  readonly weights: Float64Array | undefined;
}

function tensor(file: SafetensorsFile, names: readonly string[], rank: number): TensorEntry | undefined {
  const entry = names.map((name) => file.tensors.get(name)).find((e) => e !== undefined);
  if (entry !== undefined && entry.shape.length !== rank) {
    throw modelFileError(file.path, `tensor '${entry.name}' has ${entry.shape.length} dimensions, expected ${rank}`);
  }
  return entry;
}

function finite(file: SafetensorsFile, name: string, values: Float32Array | Float64Array): void {
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) {
      throw modelFileError(file.path, `tensor '${name}' holds ${values[i]} at index ${i}, not a finite number`);
    }
  }
}

function readMapping(file: SafetensorsFile, entry: TensorEntry, rows: number): Int32Array {
  if (!isIntegerDtype(entry.dtype)) {
    throw modelFileError(file.path, `tensor 'mapping' has dtype ${entry.dtype}; token → row indices must be integers`);
  }
  const values = decodeTensor(file, entry, Float64Array);
  const mapping = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const row = values[i] as number;
    if (row < 0 || row >= rows) {
      throw modelFileError(file.path, `tensor 'mapping' sends token ${i} to row ${row}, outside the ${rows} rows of 'embeddings'`);
    }
    mapping[i] = row;
  }
  return mapping;
}

/**
 * Reads and checks a Model2Vec token table from a parsed safetensors file.
 *
 * @example
 * const table = readStaticEmbeddings(parseSafetensors(bytes, path)); // { dims: 256, tokens: 29528, … }
 */
export function readStaticEmbeddings(file: SafetensorsFile): StaticEmbeddings {
  const embeddings = tensor(file, ['embeddings', '0'], 2);
  if (embeddings === undefined) {
    const names = [...file.tensors.keys()].join(', ') || 'none';
    throw modelFileError(file.path, `it holds no 'embeddings' tensor (tensors: ${names})`);
  }
  const [rows = 0, dims = 0] = embeddings.shape;
  if (rows === 0 || dims === 0) {
    throw modelFileError(file.path, `tensor '${embeddings.name}' has shape [${rows}, ${dims}], with no vectors in it`);
  }
  const vectors = decodeTensor(file, embeddings, Float32Array);
  finite(file, embeddings.name, vectors);
  const mappingEntry = tensor(file, ['mapping'], 1);
  const mapping = mappingEntry === undefined ? undefined : readMapping(file, mappingEntry, rows);
  const tokens = mapping?.length ?? rows;
  const weightsEntry = tensor(file, ['weights'], 1);
  const weights = weightsEntry === undefined ? undefined : decodeTensor(file, weightsEntry, Float64Array);
  if (weights !== undefined) {
    finite(file, 'weights', weights);
    if (weights.length !== tokens) {
      throw modelFileError(file.path, `tensor 'weights' has ${weights.length} values for ${tokens} tokens`);
    }
  }
  return { dims, tokens, vectors, mapping, weights };
}

/**
 * The mean of the tokens' rows (weighted and remapped as the table says), as a new float32 vector.
 * No tokens gives the zero vector. Every id must be below `table.tokens` (the loader checks the
 * tokenizer against the table once).
 *
 * @example
 * meanPool(table, [6598, 1094]); // "hello world"
 */
export function meanPool(table: StaticEmbeddings, ids: readonly number[]): Float32Array {
  const { dims, vectors, mapping, weights } = table;
  const sum = new Float64Array(dims);
  for (const id of ids) {
    const start = (mapping === undefined ? id : mapping[id] as number) * dims;
    const weight = weights === undefined ? 1 : weights[id] as number;
    for (let j = 0; j < dims; j++) sum[j] = (sum[j] as number) + (vectors[start + j] as number) * weight;
  }
  const out = new Float32Array(dims);
  if (ids.length > 0) for (let j = 0; j < dims; j++) out[j] = (sum[j] as number) / ids.length;
  return out;
}

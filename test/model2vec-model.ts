/**
 * A generator of real Model2Vec model directories for tests and benches: `config.json`,
 * `model.safetensors` (one F32 `embeddings` tensor) and a BERT WordPiece `tokenizer.json`
 * (BertNormalizer, BertPreTokenizer, [PAD] [UNK] [CLS] [SEP] [MASK]), loadable by any Model2Vec
 * implementation.
 *
 * The vectors make meaning checkable: every word of a synonym group shares one vector (car,
 * automobile, vehicle; tires, tyres, wheels; …), every other word gets its own random one (random
 * directions are near-orthogonal: cosine ≈ ±1/√dims), and, like the Zipf/SIF weighting of real
 * POTION models, frequent words ({@link COMMON_WORDS}) have short vectors and subword pieces (letters,
 * digits, punctuation: what an unknown word breaks into) shorter still. So "car needs new tires"
 * and "automobile wheels" are close (cosine ≈ 0.95) while unrelated sentences are not.
 *
 * Deterministic: the same options write byte-identical files (a seeded generator, arithmetic only).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Words that mean the same here: each group shares one vector. */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['car', 'cars', 'automobile', 'automobiles', 'vehicle', 'vehicles', 'auto'],
  ['tire', 'tires', 'tyre', 'tyres', 'wheel', 'wheels'],
  ['doctor', 'doctors', 'physician', 'physicians'],
  ['house', 'home', 'dwelling', 'residence'],
  ['buy', 'bought', 'purchase', 'purchased'],
  ['big', 'large', 'huge', 'enormous'],
  ['fast', 'quick', 'quickly', 'rapid', 'speedy'],
  ['error', 'errors', 'bug', 'bugs', 'defect', 'fault', 'failure'],
  ['start', 'begin', 'launch', 'kickoff'],
  ['fix', 'fixed', 'repair', 'repaired', 'mend', 'patch'],
  ['meeting', 'meetings', 'appointment', 'standup'],
  ['money', 'cash', 'funds', 'payment'],
  ['child', 'children', 'kid', 'kids'],
  ['happy', 'glad', 'joyful', 'cheerful'],
  ['database', 'databases', 'db', 'datastore', 'postgres', 'sqlite'],
  ['delete', 'deleted', 'remove', 'removed', 'erase'],
  ['password', 'passwords', 'passphrase', 'credentials'],
  ['sick', 'ill', 'unwell'],
];

/** Frequent words: short vectors, so they weigh little in a mean (as in real static models). */
export const COMMON_WORDS: readonly string[] = [
  'a', 'an', 'the', 'is', 'are', 'was', 'were', 'be', 'been', 'it', 'this', 'that', 'these', 'those', 'to',
  'of', 'in', 'on', 'at', 'for', 'from', 'with', 'by', 'and', 'or', 'but', 'not', 'no', 'yes', 'i', 'you',
  'he', 'she', 'we', 'they', 'my', 'your', 'our', 'their', 'me', 'him', 'her', 'us', 'them', 'has', 'have',
  'had', 'do', 'does', 'did', 'will', 'would', 'can', 'could', 'should', 'must', 'need', 'needs', 'needed',
  'new', 'old', 'get', 'got', 'make', 'made', 'some', 'any', 'all', 'more', 'most', 'very', 'also', 'just',
  'than', 'then', 'there', 'here', 'when', 'what', 'which', 'who', 'how', 'why', 'where', 'up', 'down',
  'out', 'over', 'about', 'into', 'after', 'before', 'again', 'only', 'other', 'so', 'too', 'now', 'still',
  'even', 'well', 'back', 'much', 'many', 'each', 'every', 'both', 'because', 'while', 'if', 'as', 'its',
  'use', 'uses', 'used', 'run', 'runs', 'set', 'goes', 'go', 'see', 'said', 'says',
];

/** Other words, each with its own direction. */
export const WORDS: readonly string[] = [
  'deploy', 'pipeline', 'backup', 'backups', 'migration', 'server', 'servers', 'login', 'token', 'cache',
  'build', 'test', 'tests', 'release', 'branch', 'merge', 'commit', 'config', 'nightly', 'weekly', 'daily',
  'weather', 'sunny', 'rain', 'rainy', 'snow', 'today', 'tomorrow', 'yesterday', 'pasta', 'recipe', 'tomato',
  'sauce', 'garlic', 'coffee', 'tea', 'bread', 'cheese', 'dinner', 'lunch', 'breakfast', 'project', 'deadline',
  'budget', 'invoice', 'customer', 'report', 'team', 'office', 'travel', 'flight', 'hotel', 'train', 'ticket',
  'city', 'beach', 'mountain', 'river', 'garden', 'flower', 'flowers', 'tree', 'dog', 'cat', 'bird', 'music',
  'guitar', 'piano', 'song', 'movie', 'book', 'books', 'library', 'school', 'teacher', 'student', 'lesson',
  'hospital', 'nurse', 'medicine', 'health', 'sleep', 'exercise', 'running', 'swimming', 'football', 'game',
  'score', 'price', 'market', 'stock', 'bank', 'loan', 'phone', 'email', 'message', 'network', 'wifi',
  'router', 'printer', 'keyboard', 'screen', 'laptop', 'battery', 'charger', 'window', 'door', 'kitchen',
  'oven', 'fridge', 'table', 'chair', 'bed', 'room', 'paint', 'color', 'blue', 'red', 'green', 'yellow',
  'morning', 'evening', 'night', 'week', 'month', 'year', 'monday', 'friday', 'weekend', 'birthday', 'party',
  'gift', 'family', 'friend', 'mother', 'father', 'brother', 'sister', 'engine', 'oil', 'brake', 'brakes',
  'fuel', 'road', 'garage', 'mechanic', 'parking', 'traffic', 'insurance', 'user', 'users', 'account',
  'api', 'endpoint', 'request', 'response', 'timeout', 'latency', 'memory', 'disk', 'file', 'files', 'folder',
  'query', 'index', 'search', 'vector', 'agent', 'model', 'prompt', 'language', 'english', 'python',
  'typescript', 'rust', 'java', 'code', 'function', 'class', 'module', 'package', 'version', 'upgrade',
  'install', 'docker', 'container', 'cluster', 'region', 'cloud', 'storage', 'bucket', 'log', 'logs',
  'alert', 'alerts', 'monitor', 'dashboard', 'metric', 'metrics', 'sunday', 'holiday', 'vacation', 'summer',
  'winter', 'spring', 'autumn', 'apple', 'banana', 'orange', 'lemon', 'sugar', 'salt', 'water', 'milk',
];

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;
const PIECES = [...'.,!?;:\'"()-/_@#$%&*+=<>[]{}|\\~`^', ...'0123456789', ...'abcdefghijklmnopqrstuvwxyz'];
const CONTINUATIONS = [...'0123456789abcdefghijklmnopqrstuvwxyz'].map((c) => `##${c}`);
const COMMON_NORM = 0.25;
const PIECE_NORM = 0.1;

export interface TestModelOptions {
  /** Vector dimension (default 64). */
  dims?: number;
  /** Synonym groups (default {@link SYNONYM_GROUPS}). */
  groups?: readonly (readonly string[])[];
  /** Words with their own vector (default {@link WORDS}). */
  words?: readonly string[];
  /** Pad the vocabulary with made-up words (`bakemi`, `tolusa`, …) up to this many whole words. */
  vocabularySize?: number;
  /** Seed of the generator (default 16): another seed, other vectors. */
  seed?: number;
  /** `normalize` in config.json (default true). */
  normalize?: boolean;
}

export interface TestModel {
  dir: string;
  dims: number;
  /** Every whole word of the vocabulary (groups, common words, words, made-up words). */
  words: readonly string[];
}

/** mulberry32: a small deterministic generator of floats in [0, 1). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random direction of length `norm` (Irwin–Hall components: arithmetic only, so deterministic). */
function direction(next: () => number, dims: number, norm: number): Float32Array {
  const values = Array.from({ length: dims }, () => next() + next() + next() - 1.5);
  const length = Math.sqrt(values.reduce((sum, v) => sum + v * v, 0)) || 1;
  return Float32Array.from(values, (v) => (v / length) * norm);
}

/** Made-up words from syllables, none already taken, until `total` whole words exist. */
function madeUpWords(taken: Set<string>, total: number): string[] {
  const syllables = [...'bdfgklmnprstvz'].flatMap((c) => [...'aeiou'].map((v) => c + v));
  const words: string[] = [];
  for (let i = 0; taken.size + words.length < total; i++) {
    let word = '';
    for (let n = i + syllables.length; n > 0; n = Math.floor(n / syllables.length)) {
      word += syllables[n % syllables.length];
    }
    if (!taken.has(word)) words.push(word);
  }
  return words;
}

/** A safetensors file from tensors given as raw little-endian bytes (header padded to 8 bytes). */
export function encodeSafetensors(
  tensors: Record<string, { dtype: string; shape: number[]; bytes: Uint8Array }>,
): Buffer {
  const header: Record<string, unknown> = {};
  let offset = 0;
  for (const [name, { dtype, shape, bytes }] of Object.entries(tensors)) {
    header[name] = { dtype, shape, data_offsets: [offset, offset + bytes.length] };
    offset += bytes.length;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - ((8 + Buffer.byteLength(json)) % 8)) % 8);
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(Buffer.byteLength(json)));
  return Buffer.concat([length, Buffer.from(json), ...Object.values(tensors).map((t) => t.bytes)]);
}

/** The bytes of float32 values, little-endian. */
export function float32Bytes(values: Float32Array): Uint8Array {
  const out = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => out.writeFloatLE(v, i * 4));
  return out;
}

function tokenizerJson(vocab: Record<string, number>): string {
  const special = (token: string) => ({ id: token, ids: [vocab[token]], tokens: [token] });
  return JSON.stringify({
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content, id) => ({
      id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: { '[CLS]': special('[CLS]'), '[SEP]': special('[SEP]') },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  });
}

/**
 * Writes a Model2Vec model directory into `dir` (created if needed) and returns what it holds.
 *
 * @example
 * const model = await writeTestModel(join(tmp, 'synonyms'));
 * const embedder = await loadModel2Vec(model.dir);
 * // "car needs new tires" · "automobile wheels" > 0.8
 */
export async function writeTestModel(dir: string, options: TestModelOptions = {}): Promise<TestModel> {
  const dims = options.dims ?? 64;
  const next = random(options.seed ?? 16);
  const rows: { token: string; vector: Float32Array }[] = [];
  const seen = new Set<string>();
  const add = (token: string, vector: Float32Array) => {
    if (!seen.has(token)) rows.push({ token, vector });
    seen.add(token);
  };
  for (const token of [...SPECIAL, ...PIECES, ...CONTINUATIONS]) add(token, direction(next, dims, PIECE_NORM));
  for (const group of options.groups ?? SYNONYM_GROUPS) {
    const shared = direction(next, dims, 1);
    for (const word of group) add(word, shared);
  }
  for (const word of COMMON_WORDS) add(word, direction(next, dims, COMMON_NORM));
  for (const word of options.words ?? WORDS) add(word, direction(next, dims, 1));
  const whole = new Set(rows.map((row) => row.token).filter((t) => t.length > 1 && /^[a-z0-9]+$/.test(t)));
  for (const word of COMMON_WORDS) whole.add(word);
  for (const word of madeUpWords(whole, options.vocabularySize ?? 0)) {
    add(word, direction(next, dims, 1));
    whole.add(word);
  }
  const vectors = new Float32Array(rows.length * dims);
  rows.forEach((row, i) => vectors.set(row.vector, i * dims));
  const vocab = Object.fromEntries(rows.map((row, id) => [row.token, id]));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'config.json'), `${JSON.stringify({
    model_type: 'model2vec', architectures: ['StaticModel'], tokenizer_name: 'engram-test-wordpiece',
    apply_pca: null, apply_zipf: true, hidden_dim: dims, seq_length: 1000000, normalize: options.normalize ?? true,
  }, null, 4)}\n`);
  await writeFile(join(dir, 'tokenizer.json'), tokenizerJson(vocab));
  await writeFile(join(dir, 'model.safetensors'), encodeSafetensors({
    embeddings: { dtype: 'F32', shape: [rows.length, dims], bytes: float32Bytes(vectors) },
  }));
  return { dir, dims, words: [...whole] };
}

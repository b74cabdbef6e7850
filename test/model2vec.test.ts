/**
 * The Model2Vec loader: the golden outputs of model2vec (Python) on the model2vec-rs fixtures,
 * model2vec's tokenisation rules, the generated synonym model, and the errors of a damaged directory.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { dot } from '../src/embed/embedder.js';
import { loadModel2Vec } from '../src/embed/model2vec.js';
import { isEngramError } from '../src/errors.js';
import { tempDir } from './helpers.js';
import { writeTestModel } from './model2vec-model.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURES = process.env.ENGRAM_MODEL2VEC_FIXTURES ?? join(REPO, '..', 'shared', 'models', 'model2vec-rs-fixtures');
const NO_FIXTURES = existsSync(join(FIXTURES, 'SOURCE.md'))
  ? undefined
  : `no Model2Vec fixtures at ${FIXTURES} (set ENGRAM_MODEL2VEC_FIXTURES to the model2vec-rs-fixtures directory)`;

const SHORT = 'hello world';
const LONG = Array.from({ length: 1000 }, () => 'hello').join(' ');

function golden(file: string): number[] {
  return (JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as number[][])[0] as number[];
}

/** Asserts |actual − expected| ≤ relative × |expected| for every component. */
function assertClose(actual: Float32Array, expected: number[], relative: number, what: string): void {
  assert.equal(actual.length, expected.length, `${what}: dimension`);
  expected.forEach((value, i) => {
    const error = Math.abs((actual[i] as number) - value);
    assert.ok(error <= relative * Math.abs(value), `${what}[${i}]: ${actual[i]} vs ${value} (relative error ${error / Math.abs(value)} > ${relative})`);
  });
}

function norm(vector: Float32Array): number {
  return Math.sqrt(dot(vector, vector));
}

/** The golden cases: model, text, golden file, and the relative tolerance per component. */
const GOLDEN: { model: string; text: string; file: string; relative: number; why: string }[] = [
  // Python sums float32 rows in float32; we sum in float64 (SOURCE.md saw 7.5e-6 on the long text).
  { model: 'float32', text: SHORT, file: 'embeddings_short.json', relative: 1e-5, why: 'float32 accumulation in Python' },
  { model: 'float32', text: LONG, file: 'embeddings_long.json', relative: 1e-5, why: 'float32 accumulation in Python' },
  // float64 weights and float32 rows: only the final float32 rounding differs.
  { model: 'vocab-quantized', text: LONG, file: 'embeddings_vocab_quantized.json', relative: 1e-6, why: 'float32 output rounding' },
  // The golden values come from the float32 model; a half-precision table is 2.9e-4 off (SOURCE.md).
  { model: 'float16', text: SHORT, file: 'embeddings_short.json', relative: 5e-4, why: 'float16 table vs float32 golden' },
  { model: 'float16', text: LONG, file: 'embeddings_long.json', relative: 5e-4, why: 'float16 table vs float32 golden' },
  // An int8 table (no scale tensor) is 1.4e-2 off the float32 golden values (SOURCE.md).
  { model: 'int8', text: SHORT, file: 'embeddings_short.json', relative: 2e-2, why: 'int8 table vs float32 golden' },
  { model: 'int8', text: LONG, file: 'embeddings_long.json', relative: 2e-2, why: 'int8 table vs float32 golden' },
];

test('golden: every model2vec fixture reproduces the Python golden embeddings within its stated tolerance', { skip: NO_FIXTURES }, async () => {
  for (const { model, text, file, relative, why } of GOLDEN) {
    const embedder = await loadModel2Vec(join(FIXTURES, `test-model-${model}`));
    const [vector] = await embedder.embed([text]);
    assertClose(vector as Float32Array, golden(file), relative, `${model} on ${file} (tolerance ${relative}: ${why})`);
  }
});

test('golden: the dimension comes from the tensor (2), not config.json (hidden_dim 64); ids name the directory and the content', { skip: NO_FIXTURES }, async () => {
  const float32 = await loadModel2Vec(join(FIXTURES, 'test-model-float32'));
  const quantized = await loadModel2Vec(join(FIXTURES, 'test-model-vocab-quantized'));
  assert.equal(float32.dimensions, 2);
  assert.equal(quantized.dimensions, 64);
  assert.match(float32.id, /^model2vec:test-model-float32@[0-9a-f]{12}$/);
  assert.notEqual(float32.id.split('@')[1], (await loadModel2Vec(join(FIXTURES, 'test-model-float16'))).id.split('@')[1]);
  assert.equal((await loadModel2Vec(join(FIXTURES, 'test-model-float32'))).id, float32.id, 'the id is stable');
});

test('golden: the unknown token is dropped (WordPiece [UNK] and Unigram unk_id) before the 512-token cut', { skip: NO_FIXTURES }, async () => {
  for (const model of ['float32', 'vocab-quantized']) {
    const embedder = await loadModel2Vec(join(FIXTURES, `test-model-${model}`));
    const [plain, withUnknown, unknownFirst, hello] = await embedder.embed([
      'hello world', 'hello 🙂 world 🙂', `${'🙂 '.repeat(600)}world`, 'hello',
    ]);
    assert.deepEqual(withUnknown, plain, `${model}: unknown tokens add nothing`);
    const [world] = await embedder.embed(['world']);
    assert.deepEqual(unknownFirst, world, `${model}: 600 unknown tokens do not push "world" past the cut`);
    const [cut] = await embedder.embed([`${'hello '.repeat(512)}${'world '.repeat(100)}`]);
    assertClose(cut as Float32Array, [...hello as Float32Array], 1e-6, `${model}: tokens after the 512th are ignored`);
  }
});

test('a text with no known token gives the zero vector; any other text a unit vector', async (t) => {
  const embedder = await loadModel2Vec((await writeTestModel(join(tempDir(t), 'm'), { dims: 2 })).dir);
  const vectors = await embedder.embed(['', '   \n\t', '🙂🙂', '\u0000', 'Hello, World!', '\ud800 lone surrogate']);
  assert.deepEqual(vectors.slice(0, 4).map((v) => [...v]), [[0, 0], [0, 0], [0, 0], [0, 0]]);
  for (const vector of vectors.slice(4)) assert.ok(Math.abs(norm(vector) - 1) < 1e-6);
  assert.deepEqual(await embedder.embed([]), []);
});

test('a megabyte of text is cut before tokenising: the Unigram model answers (uncut, its lattice overflows the stack)', { skip: NO_FIXTURES }, async () => {
  const embedder = await loadModel2Vec(join(FIXTURES, 'test-model-vocab-quantized'));
  const huge = 'hello world '.repeat(100_000);
  const start = performance.now();
  const [vector, hello] = await embedder.embed([huge, 'hello world '.repeat(300)]);
  assert.ok(performance.now() - start < 5000, 'bounded work');
  assertClose(vector as Float32Array, [...hello as Float32Array], 1e-6, 'the first 512 tokens decide');
});

test('generated model: "car needs new tires" is close to "automobile wheels"; unrelated sentences are not', async (t) => {
  const model = await writeTestModel(join(tempDir(t), 'synonyms'));
  const embedder = await loadModel2Vec(model.dir);
  assert.equal(embedder.dimensions, 64);
  const [car, automobile, weather, pasta, backup] = await embedder.embed([
    'car needs new tires', 'automobile wheels', 'the weather is sunny today',
    'pasta recipe with tomato sauce', 'database backup runs nightly',
  ]) as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
  assert.ok(dot(car, automobile) > 0.8, `synonyms: ${dot(car, automobile)}`);
  for (const [name, other] of Object.entries({ weather, pasta, backup })) {
    assert.ok(Math.abs(dot(car, other)) < 0.3, `car · ${name}: ${dot(car, other)}`);
    assert.ok(Math.abs(dot(automobile, other)) < 0.3, `automobile · ${name}: ${dot(automobile, other)}`);
  }
  const [doctor, physician] = await embedder.embed(['The Doctor said my child is sick', 'physician: kids ill']);
  assert.ok(dot(doctor as Float32Array, physician as Float32Array) > 0.8, 'case and punctuation do not matter');
});

test('generated model: deterministic files, the dims option, a padded vocabulary, and ids that tell same-named models apart', async (t) => {
  const dir = tempDir(t);
  const a = await writeTestModel(join(dir, 'a', 'model'));
  const b = await writeTestModel(join(dir, 'b', 'model'));
  const c = await writeTestModel(join(dir, 'c', 'model'), { seed: 17 });
  for (const file of ['config.json', 'tokenizer.json', 'model.safetensors']) {
    assert.deepEqual(await readFile(join(a.dir, file)), await readFile(join(b.dir, file)), file);
  }
  const [ea, eb, ec] = await Promise.all([a, b, c].map((m) => loadModel2Vec(m.dir)));
  assert.equal(ea?.id, eb?.id, 'same content and name, same id');
  assert.notEqual(ea?.id, ec?.id, 'same name, other vectors, other id');
  assert.match(ea?.id ?? '', /^model2vec:model@[0-9a-f]{12}$/);
  const wide = await writeTestModel(join(dir, 'wide'), { dims: 256, vocabularySize: 3000 });
  assert.equal(wide.words.length, 3000);
  const embedder = await loadModel2Vec(wide.dir);
  assert.equal(embedder.dimensions, 256);
  const [made] = await embedder.embed([wide.words.slice(-60).join(' ')]);
  assert.ok(Math.abs(norm(made as Float32Array) - 1) < 1e-6, 'made-up words are in the vocabulary');
});

test('embed honours an abort: before it starts and between texts, with a retryable EMBEDDER_UNAVAILABLE', async (t) => {
  const embedder = await loadModel2Vec((await writeTestModel(join(tempDir(t), 'm'))).dir);
  const unavailable = (error: unknown) =>
    isEngramError(error) && error.code === 'EMBEDDER_UNAVAILABLE' && error.retryable && error.message.includes(embedder.id);
  await assert.rejects(embedder.embed(['car'], { signal: AbortSignal.abort() }), unavailable);
  const controller = new AbortController();
  setImmediate(() => controller.abort());
  await assert.rejects(embedder.embed(Array.from({ length: 1000 }, () => 'car needs new tires'), { signal: controller.signal }), unavailable);
});

/** Asserts a PARAM_ERROR whose message names `path` and matches `problem`, with a hint. */
async function assertUnusable(dir: string, path: string, problem: RegExp): Promise<void> {
  await assert.rejects(loadModel2Vec(dir), (error: unknown) => {
    assert.ok(isEngramError(error), `an EngramError, not ${String(error)}`);
    assert.equal(error.code, 'PARAM_ERROR');
    assert.ok(error.message.includes(path), `${error.message} names ${path}`);
    assert.match(error.message, problem);
    assert.ok(!error.message.includes('\n') && (error.hint ?? '').length > 0);
    return true;
  });
}

async function copyModel(from: string, to: string): Promise<string> {
  await mkdir(to, { recursive: true });
  for (const file of ['config.json', 'tokenizer.json', 'model.safetensors']) await copyFile(join(from, file), join(to, file));
  return to;
}

test('damaged directories: missing directory or file, bad JSON, wrong model type, wrong tokenizer → PARAM_ERROR naming the file', async (t) => {
  const dir = tempDir(t);
  const good = (await writeTestModel(join(dir, 'good'))).dir;
  await assertUnusable(join(dir, 'nowhere'), join(dir, 'nowhere'), /does not exist/);
  await assertUnusable(join(good, 'config.json'), join(good, 'config.json'), /not a directory/);
  for (const file of ['config.json', 'tokenizer.json', 'model.safetensors']) {
    const copy = await copyModel(good, join(dir, `no-${file}`));
    await rm(join(copy, file));
    await assertUnusable(copy, join(copy, file), /missing/);
  }
  const cases: [string, string, string, RegExp][] = [
    ['bad-config', 'config.json', '{"normalize": tru', /not valid JSON/],
    ['bert-config', 'config.json', '{"model_type": "bert"}', /model_type is "bert"/],
    ['bad-tokenizer', 'tokenizer.json', '{"model": ', /not valid JSON/],
    ['odd-tokenizer', 'tokenizer.json', '{"model": {"type": "Marmot"}}', /tokenizer cannot be built/],
  ];
  for (const [name, file, text, problem] of cases) {
    const copy = await copyModel(good, join(dir, name));
    await writeFile(join(copy, file), text);
    await assertUnusable(copy, join(copy, file), problem);
  }
  const other = (await writeTestModel(join(dir, 'other'), { vocabularySize: 1000 })).dir;
  const mixed = await copyModel(good, join(dir, 'mixed'));
  await copyFile(join(other, 'tokenizer.json'), join(mixed, 'tokenizer.json'));
  await assertUnusable(mixed, join(mixed, 'model.safetensors'), /different models/);
});

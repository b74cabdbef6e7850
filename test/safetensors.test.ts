/**
 * The safetensors reader and the Model2Vec token table: every dtype decoded, every damage named,
 * and the remapped, weighted pooling of vocabulary-quantised models on a generated tokenizer.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { normalize } from '../src/embed/embedder.js';
import { loadModel2Vec } from '../src/embed/model2vec.js';
import { decodeTensor, parseSafetensors } from '../src/embed/safetensors.js';
import { readStaticEmbeddings } from '../src/embed/static-embeddings.js';
import { isEngramError } from '../src/errors.js';
import { tempDir } from './helpers.js';
import { encodeSafetensors, float32Bytes, writeTestModel } from './model2vec-model.js';

type Writer = (buffer: Buffer, value: number, offset: number) => void;

/** Little-endian bytes of `values`, each `size` bytes written by `write`. */
function bytesOf(values: readonly number[], size: number, write: Writer): Buffer {
  const out = Buffer.alloc(values.length * size);
  values.forEach((v, i) => write(out, v, i * size));
  return out;
}

const f64 = (values: number[]) => bytesOf(values, 8, (b, v, o) => b.writeDoubleLE(v, o));
const u16 = (values: number[]) => bytesOf(values, 2, (b, v, o) => b.writeUInt16LE(v, o));
const i64 = (values: number[]) => bytesOf(values, 8, (b, v, o) => b.writeBigInt64LE(BigInt(v), o));

const PATH = '/models/x/model.safetensors';

function unusable(problem: RegExp) {
  return (error: unknown) => {
    assert.ok(isEngramError(error), String(error));
    assert.equal(error.code, 'PARAM_ERROR');
    assert.ok(error.message.includes(PATH), error.message);
    assert.match(error.message, problem);
    return true;
  };
}

test('every supported dtype decodes to its values; __metadata__ is skipped; an unpadded header is read', () => {
  const tensors = {
    f64: { dtype: 'F64', shape: [2], bytes: f64([1.5, -2.25]), expect: [1.5, -2.25] },
    f32: { dtype: 'F32', shape: [2, 2], bytes: float32Bytes(Float32Array.of(0.5, -1, 3.25, 1024)), expect: [0.5, -1, 3.25, 1024] },
    // 1, -2, 0.5, the largest half, the smallest subnormal, +infinity.
    f16: { dtype: 'F16', shape: [6], bytes: u16([0x3c00, 0xc000, 0x3800, 0x7bff, 0x0001, 0x7c00]), expect: [1, -2, 0.5, 65504, 2 ** -24, Infinity] },
    bf16: { dtype: 'BF16', shape: [2], bytes: u16([0x3f80, 0xc020]), expect: [1, -2.5] },
    i64: { dtype: 'I64', shape: [2], bytes: i64([-3, 2 ** 40]), expect: [-3, 2 ** 40] },
    i32: { dtype: 'I32', shape: [2], bytes: bytesOf([-7, 2147483647], 4, (b, v, o) => b.writeInt32LE(v, o)), expect: [-7, 2147483647] },
    i16: { dtype: 'I16', shape: [2], bytes: bytesOf([-300, 300], 2, (b, v, o) => b.writeInt16LE(v, o)), expect: [-300, 300] },
    i8: { dtype: 'I8', shape: [2], bytes: Buffer.from([0x80, 0x7f]), expect: [-128, 127] },
    u8: { dtype: 'U8', shape: [2], bytes: Buffer.from([0, 255]), expect: [0, 255] },
    u16: { dtype: 'U16', shape: [1], bytes: u16([65535]), expect: [65535] },
    u32: { dtype: 'U32', shape: [1], bytes: bytesOf([4294967295], 4, (b, v, o) => b.writeUInt32LE(v, o)), expect: [4294967295] },
    u64: { dtype: 'U64', shape: [1], bytes: bytesOf([2 ** 50], 8, (b, v, o) => b.writeBigUInt64LE(BigInt(v), o)), expect: [2 ** 50] },
  };
  const encoded = encodeSafetensors(tensors);
  // Rewrite the header unpadded and with metadata, as some writers do.
  const headerLength = Number(encoded.readBigUInt64LE(0));
  const header = JSON.parse(encoded.subarray(8, 8 + headerLength).toString()) as Record<string, unknown>;
  const json = Buffer.from(JSON.stringify({ __metadata__: { format: 'pt' }, ...header }));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  const file = parseSafetensors(Buffer.concat([length, json, encoded.subarray(8 + headerLength)]), PATH);
  assert.equal(file.tensors.size, Object.keys(tensors).length);
  for (const [name, { expect }] of Object.entries(tensors)) {
    const entry = file.tensors.get(name);
    assert.ok(entry, name);
    assert.deepEqual([...decodeTensor(file, entry, Float64Array)], expect, name);
  }
  assert.deepEqual([...decodeTensor(file, file.tensors.get('f64')!, Float32Array)], [1.5, -2.25]);
});

/** A safetensors file with a hand-written header (offsets as given) and `data`. */
function rawFile(header: unknown, data: Uint8Array = new Uint8Array(0)): Buffer {
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([length, json, data]);
}

test('a damaged or unsupported safetensors file is a PARAM_ERROR naming the path and the problem', () => {
  const four = float32Bytes(Float32Array.of(1, 2, 3, 4));
  const huge = Buffer.alloc(16);
  huge.writeBigUInt64LE(1_000_000n);
  const cases: [Buffer, RegExp][] = [
    [Buffer.from([1, 2, 3]), /3 bytes is too short/],
    [huge, /header claims 1000000 bytes but the file holds 8/],
    [Buffer.concat([Buffer.from([4, 0, 0, 0, 0, 0, 0, 0]), Buffer.from([0xff, 0xfe, 0x7b, 0x7d])]), /not valid UTF-8 JSON/],
    [rawFile([1, 2]), /not a JSON object/],
    [rawFile({ e: { dtype: 'F32', shape: [2, 2], data_offsets: [0, 16] } }, four.subarray(0, 8)), /tensor 'e' points past the end of the file \(bytes 0–16 of a 8-byte data section\)/],
    [rawFile({ e: { dtype: 'F32', shape: [2, 2], data_offsets: [0, 1_000_000] } }, four), /points past the end/],
    [rawFile({ e: { dtype: 'C64', shape: [2], data_offsets: [0, 16] } }, four), /dtype "C64", which is not supported/],
    [rawFile({ e: { dtype: 'F32', shape: [3, 2], data_offsets: [0, 16] } }, four), /holds 16 bytes but shape \[3, 2\] of F32 needs 24/],
    [rawFile({ e: { dtype: 'F32', shape: [-4], data_offsets: [0, 16] } }, four), /no valid shape/],
    [rawFile({ e: { dtype: 'F32', shape: [4], data_offsets: [16, 0] } }, four), /end before they begin/],
    [rawFile({ e: { dtype: 'F32', shape: [4] } }, four), /no valid data_offsets/],
    [rawFile({ e: 'F32' }, four), /dtype undefined/],
  ];
  for (const [bytes, problem] of cases) assert.throws(() => parseSafetensors(bytes, PATH), unusable(problem));
});

test('a token table that cannot be a Model2Vec model is a PARAM_ERROR naming the problem', () => {
  const rows = (n: number, dims: number, values?: number[]) =>
    float32Bytes(Float32Array.from(values ?? Array.from({ length: n * dims }, (_, i) => i + 1)));
  const table = (tensors: Parameters<typeof encodeSafetensors>[0]) =>
    () => readStaticEmbeddings(parseSafetensors(encodeSafetensors(tensors), PATH));
  const cases: [() => unknown, RegExp][] = [
    [table({ vectors: { dtype: 'F32', shape: [2, 2], bytes: rows(2, 2) } }), /no 'embeddings' tensor \(tensors: vectors\)/],
    [table({ embeddings: { dtype: 'F32', shape: [4], bytes: rows(2, 2) } }), /'embeddings' has 1 dimensions, expected 2/],
    [table({ embeddings: { dtype: 'F32', shape: [0, 4], bytes: rows(0, 4) } }), /shape \[0, 4\], with no vectors/],
    [table({ embeddings: { dtype: 'F32', shape: [2, 2], bytes: rows(2, 2, [1, Number.NaN, 3, 4]) } }), /holds NaN at index 1/],
    [table({
      embeddings: { dtype: 'F32', shape: [2, 2], bytes: rows(2, 2) },
      mapping: { dtype: 'I64', shape: [3], bytes: i64([0, 1, 2]) },
    }), /sends token 2 to row 2, outside the 2 rows/],
    [table({
      embeddings: { dtype: 'F32', shape: [2, 2], bytes: rows(2, 2) },
      mapping: { dtype: 'F64', shape: [2], bytes: f64([0, 1]) },
    }), /'mapping' has dtype F64; token → row indices must be integers/],
    [table({
      embeddings: { dtype: 'F32', shape: [2, 2], bytes: rows(2, 2) },
      weights: { dtype: 'F64', shape: [3], bytes: f64([1, 1, 1]) },
    }), /'weights' has 3 values for 2 tokens/],
  ];
  for (const [read, problem] of cases) assert.throws(read, unusable(problem));
});

test('damaged model.safetensors in a model directory (truncated, header past the end) → PARAM_ERROR naming it', async (t) => {
  const model = await writeTestModel(join(tempDir(t), 'm'));
  const path = join(model.dir, 'model.safetensors');
  const bytes = await readFile(path);
  const expectUnusable = (problem: RegExp) => (error: unknown) =>
    isEngramError(error) && error.code === 'PARAM_ERROR' && error.message.includes(path) && problem.test(error.message);
  await writeFile(path, bytes.subarray(0, bytes.length - 100));
  await assert.rejects(loadModel2Vec(model.dir), expectUnusable(/tensor 'embeddings' points past the end of the file/));
  await writeFile(path, bytes.subarray(0, 20));
  await assert.rejects(loadModel2Vec(model.dir), expectUnusable(/header claims \d+ bytes but the file holds 12/));
  await writeFile(path, Buffer.alloc(0));
  await assert.rejects(loadModel2Vec(model.dir), expectUnusable(/0 bytes is too short/));
});

/** The vocabulary ids of a generated model's tokenizer. */
async function vocabulary(dir: string): Promise<Record<string, number>> {
  const json = JSON.parse(await readFile(join(dir, 'tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } };
  return json.model.vocab;
}

test('vocabulary quantisation: token id → embeddings[mapping[id]] × weights[id], any dtype, mean then unit length', async (t) => {
  const model = await writeTestModel(join(tempDir(t), 'quantised'));
  const vocab = await vocabulary(model.dir);
  const tokens = Object.keys(vocab).length;
  const rows = [[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, -4]];
  const mapping = Array.from({ length: tokens }, (_, id) => id % 3);
  const weights = Array.from({ length: tokens }, (_, id) => 1 + id / tokens);
  await writeFile(join(model.dir, 'model.safetensors'), encodeSafetensors({
    embeddings: { dtype: 'F16', shape: [3, 4], bytes: u16([0x3c00, 0, 0, 0, 0, 0x4000, 0, 0, 0, 0, 0, 0xc400]) },
    weights: { dtype: 'F64', shape: [tokens], bytes: f64(weights) },
    mapping: { dtype: 'I64', shape: [tokens], bytes: i64(mapping) },
  }));
  const embedder = await loadModel2Vec(model.dir);
  assert.equal(embedder.dimensions, 4);
  const expected = (words: string[]) => {
    const sum = [0, 0, 0, 0];
    for (const word of words) {
      const id = vocab[word] as number;
      const row = rows[mapping[id] as number] as number[];
      row.forEach((v, j) => (sum[j] = (sum[j] as number) + v * (weights[id] as number)));
    }
    return normalize(Float32Array.from(sum, (v) => v / words.length));
  };
  const [carTires, car] = await embedder.embed(['car tires', 'CAR']);
  assert.deepEqual(carTires, expected(['car', 'tires']));
  assert.deepEqual(car, expected(['car']));
});

test('a plain table with weights weights its rows; the legacy tensor name "0" is read as the embeddings', async (t) => {
  const model = await writeTestModel(join(tempDir(t), 'weighted'), { dims: 2 });
  const vocab = await vocabulary(model.dir);
  const tokens = Object.keys(vocab).length;
  const car = vocab.car as number;
  const tires = vocab.tires as number;
  const values = new Float32Array(tokens * 2);
  values.set([1, 0], car * 2);
  values.set([0, 1], tires * 2);
  const weights = Array.from({ length: tokens }, (_, id) => (id === car ? 3 : 1));
  await writeFile(join(model.dir, 'model.safetensors'), encodeSafetensors({
    0: { dtype: 'F32', shape: [tokens, 2], bytes: float32Bytes(values) },
    weights: { dtype: 'F64', shape: [tokens], bytes: f64(weights) },
  }));
  const [vector] = await (await loadModel2Vec(model.dir)).embed(['car tires']);
  assert.deepEqual(vector, normalize(Float32Array.of(3, 1)));
});

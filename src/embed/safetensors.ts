/**
 * A reader for the safetensors format (huggingface/safetensors): an 8-byte little-endian header
 * length N, N bytes of UTF-8 JSON naming each tensor's dtype, shape and `data_offsets` (a
 * [begin, end) byte range in the data section that follows the header), then the data, little-endian.
 *
 * Everything the header claims is checked against the file before a byte of data is read: a
 * damaged or unsupported file is a PARAM_ERROR naming the path and the problem, never a stack trace
 * or a read past the end.
 */
import { modelFileError } from './model-error.js';

/** The dtypes this reader decodes, with their size in bytes. */
const DTYPE_BYTES = {
  F64: 8, F32: 4, F16: 2, BF16: 2, I64: 8, I32: 4, I16: 2, I8: 1, U64: 8, U32: 4, U16: 2, U8: 1,
} as const;

export type TensorDtype = keyof typeof DTYPE_BYTES;

/** One tensor as the header describes it; `begin` and `end` are absolute byte offsets in the file. */
export interface TensorEntry {
  readonly name: string;
  readonly dtype: TensorDtype;
  readonly shape: readonly number[];
  readonly begin: number;
  readonly end: number;
}

/** A parsed safetensors file: its bytes and the tensors its header names. */
export interface SafetensorsFile {
  readonly path: string;
  readonly bytes: Uint8Array;
  /** The JSON header's length in bytes. */
  readonly headerLength: number;
  readonly tensors: ReadonlyMap<string, TensorEntry>;
}

/** The largest header accepted (the reference implementation's own limit). */
const MAX_HEADER_BYTES = 100_000_000;

function isDtype(value: unknown): value is TensorDtype {
  return typeof value === 'string' && Object.hasOwn(DTYPE_BYTES, value);
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function readHeader(bytes: Uint8Array, path: string): { header: Record<string, unknown>; length: number } {
  if (bytes.length < 8) throw modelFileError(path, `${bytes.length} bytes is too short for a safetensors header`);
  const declared = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
  if (declared > BigInt(Math.min(bytes.length - 8, MAX_HEADER_BYTES))) {
    throw modelFileError(path, `the header claims ${declared} bytes but the file holds ${bytes.length - 8} after the length`);
  }
  const length = Number(declared);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + length)));
  } catch (error) {
    throw modelFileError(path, 'the header is not valid UTF-8 JSON (not a safetensors file, or a damaged one)', error);
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    throw modelFileError(path, 'the header is not a JSON object');
  }
  return { header: header as Record<string, unknown>, length };
}

function readEntry(name: string, raw: unknown, dataStart: number, dataLength: number, path: string): TensorEntry {
  const bad = (problem: string) => modelFileError(path, `tensor '${name}' ${problem}`);
  const { dtype, shape, data_offsets: offsets } = (raw ?? {}) as Record<string, unknown>;
  if (!isDtype(dtype)) {
    throw bad(`has dtype ${JSON.stringify(dtype)}, which is not supported (${Object.keys(DTYPE_BYTES).join(', ')})`);
  }
  if (!Array.isArray(shape) || !shape.every(isCount)) throw bad('has no valid shape (a list of sizes)');
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount)) {
    throw bad('has no valid data_offsets ([begin, end])');
  }
  const [begin, end] = offsets as [number, number];
  if (begin > end) throw bad(`has data_offsets [${begin}, ${end}] that end before they begin`);
  if (end > dataLength) {
    throw bad(`points past the end of the file (bytes ${begin}–${end} of a ${dataLength}-byte data section)`);
  }
  const elements = (shape as number[]).reduce((product, size) => product * size, 1);
  if (elements * DTYPE_BYTES[dtype] !== end - begin) {
    throw bad(`holds ${end - begin} bytes but shape [${shape.join(', ')}] of ${dtype} needs ${elements * DTYPE_BYTES[dtype]}`);
  }
  return { name, dtype, shape: Object.freeze([...shape as number[]]), begin: dataStart + begin, end: dataStart + end };
}

/**
 * Parses and validates a safetensors file's header. Data is decoded on demand by
 * {@link decodeTensor}. `path` is only used in error messages.
 *
 * @example
 * const file = parseSafetensors(await readFile(path), path);
 * const embeddings = file.tensors.get('embeddings'); // { dtype: 'F32', shape: [29528, 256], … }
 */
export function parseSafetensors(bytes: Uint8Array, path: string): SafetensorsFile {
  const { header, length } = readHeader(bytes, path);
  const dataStart = 8 + length;
  const tensors = new Map<string, TensorEntry>();
  for (const [name, raw] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    tensors.set(name, readEntry(name, raw, dataStart, bytes.length - dataStart, path));
  }
  return { path, bytes, headerLength: length, tensors };
}

let halfTable: Float32Array | undefined;

/** Every IEEE 754 half-precision value as a float32, built once (256 KiB). */
function halves(): Float32Array {
  if (halfTable !== undefined) return halfTable;
  const table = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const fraction = h & 0x3ff;
    if (exponent === 0) table[h] = sign * fraction * 2 ** -24;
    else if (exponent === 31) table[h] = fraction === 0 ? sign * Infinity : Number.NaN;
    else table[h] = sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
  }
  halfTable = table;
  return table;
}

type Reader = (view: DataView, offset: number) => number;

function readerOf(dtype: TensorDtype): Reader {
  switch (dtype) {
    case 'F64': return (v, o) => v.getFloat64(o, true);
    case 'F32': return (v, o) => v.getFloat32(o, true);
    case 'F16': {
      const table = halves();
      return (v, o) => table[v.getUint16(o, true)] as number;
    }
    case 'BF16': {
      const word = new DataView(new ArrayBuffer(4));
      return (v, o) => {
        word.setUint32(0, v.getUint16(o, true) << 16);
        return word.getFloat32(0);
      };
    }
    case 'I64': return (v, o) => Number(v.getBigInt64(o, true));
    case 'I32': return (v, o) => v.getInt32(o, true);
    case 'I16': return (v, o) => v.getInt16(o, true);
    case 'I8': return (v, o) => v.getInt8(o);
    case 'U64': return (v, o) => Number(v.getBigUint64(o, true));
    case 'U32': return (v, o) => v.getUint32(o, true);
    case 'U16': return (v, o) => v.getUint16(o, true);
    case 'U8': return (v, o) => v.getUint8(o);
  }
}

/**
 * A tensor's values, in row-major order, converted into a new `Float32Array` or `Float64Array`
 * (integers are exact in a Float64Array up to 2^53).
 *
 * @example
 * const rows = decodeTensor(file, entry, Float32Array); // F16 and I8 tensors come out as float32
 */
export function decodeTensor<T extends Float32Array | Float64Array>(
  file: SafetensorsFile,
  entry: TensorEntry,
  Out: new (length: number) => T,
): T {
  const size = DTYPE_BYTES[entry.dtype];
  const count = (entry.end - entry.begin) / size;
  const view = new DataView(file.bytes.buffer, file.bytes.byteOffset + entry.begin, entry.end - entry.begin);
  const read = readerOf(entry.dtype);
  const out = new Out(count);
  for (let i = 0; i < count; i++) out[i] = read(view, i * size);
  return out;
}

/** True when the dtype holds integers (a token → row mapping must). */
export function isIntegerDtype(dtype: TensorDtype): boolean {
  return dtype.startsWith('I') || dtype.startsWith('U');
}

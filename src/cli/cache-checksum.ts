/**
 * The checksum that guards the CLI's code caches (chunk-loader.ts). V8 runs a damaged cache
 * (it crashed node) unless it checks the cache's checksum, which it does only under a flag, and
 * setting a flag takes `node:v8`, whose import loads node's streams: 1.5–2 ms of every command.
 * This checksum runs in WebAssembly instead (`cache-checksum.wat`, 128-bit SIMD): about 0.1 ms for
 * a 480 KB cache, and some 0.3 ms to compile the module, once per process.
 *
 * A cache file is {@link CHECKSUM_BYTES} of checksum (little-endian) and then V8's data. Each of
 * the checksum's sixteen lanes reads every sixteenth word of the data and is changed by any change
 * of one of its words; the data's length is mixed in, and so is the name of the chunk the cache is
 * for: V8 checks only the length of a cache's source, so a cache moved onto another chunk of the
 * same length would run that chunk's code in its place. What it does not stop is someone who
 * rewrites the checksum of a cache they changed (V8 then runs damaged data, as it would run a
 * chunk they changed).
 */
import { compileWasm, instantiateWasm } from '../util/wasm.js';
import { CACHE_CHECKSUM_WASM } from './cache-checksum-wasm.js';

/** The bytes of the checksum at the start of a cache file. */
export const CHECKSUM_BYTES = 8;

const PAGE = 65_536;

interface Checksummer {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  checksum: (at: number, padded: number, length: number) => bigint;
}

let module: Checksummer | undefined;

function checksummer(): Checksummer {
  module ??= instantiateWasm(compileWasm(CACHE_CHECKSUM_WASM)) as Checksummer;
  return module;
}

/**
 * The checksum of `data` (an unsigned 64-bit number).
 *
 * @example
 * cacheChecksum(script.createCachedData()); // 12345678901234567890n
 */
export function cacheChecksum(data: Uint8Array): bigint {
  const { memory, checksum } = checksummer();
  // The module reads 64 bytes at a time: the data is copied in and zero-padded to a multiple of 64.
  const padded = Math.ceil(data.length / 64) * 64;
  if (memory.buffer.byteLength < padded) memory.grow(Math.ceil((padded - memory.buffer.byteLength) / PAGE));
  const view = new Uint8Array(memory.buffer, 0, padded);
  view.set(data);
  view.fill(0, data.length);
  return BigInt.asUintN(64, checksum(0, padded, data.length));
}

/** The checksum a cache file of `chunk` (its file name) holds for `data`. */
function fileChecksum(data: Uint8Array, chunk: string): bigint {
  return cacheChecksum(data) ^ cacheChecksum(Buffer.from(chunk));
}

/** The bytes of the cache file of `chunk` (its file name): the checksum, then `data`. */
export function withChecksum(data: Uint8Array, chunk: string): Buffer {
  const file = Buffer.allocUnsafe(CHECKSUM_BYTES + data.length);
  file.writeBigUInt64LE(fileChecksum(data, chunk), 0);
  file.set(data, CHECKSUM_BYTES);
  return file;
}

/**
 * V8's data of a cache file of `chunk` whose checksum matches it; undefined for a file cut short,
 * damaged, or made for another chunk.
 */
export function checkedData(file: Buffer, chunk: string): Buffer | undefined {
  if (file.length < CHECKSUM_BYTES) return undefined;
  const data = file.subarray(CHECKSUM_BYTES);
  return file.readBigUInt64LE(0) === fileChecksum(data, chunk) ? data : undefined;
}

/**
 * Loads the CLI's CommonJS chunks (`dist/bundle`, see `scripts/bundle.ts`) with V8's code cache:
 * each chunk is compiled from the cache the build recorded for it (`code-cache/NAME.v8`), so a
 * command skips most of the parsing and compiling of the code it runs. Node 20 has no compile cache
 * of its own (Node 22's `module.enableCompileCache`). V8 refuses a cache made by another V8 or
 * under other flags, but of the source it checks only the length: a cache older than its chunk (a
 * chunk edited in place after the build) is not used. A refused or missing cache costs nothing but
 * the compile node would have done anyway; the chunks also load with plain `require` (the policy
 * worker does). V8 checks a cache's checksum only under a flag, which takes `node:v8` to set (and
 * its import loads node's streams): each cache file starts with a checksum of its own instead
 * (cache-checksum.ts), and a file whose checksum does not match is refused, not run (a damaged
 * cache crashed node).
 *
 * A chunk's relative `require` of another chunk comes back here; any other (node's modules,
 * node_modules) goes to node, resolved from the chunk's folder. A chunk's `import()` of an ES
 * module goes through `require.engramImport`, which a script compiled by `vm` cannot do itself.
 *
 * Packs: a command agents call in loops loads some forty small chunks, and each costs file reads,
 * a compile and a cache of its own. The build also writes, for each such command, a pack
 * (`packs/pack-NAME.cjs`, with its code cache): a copy of the small chunks that command loaded, each
 * in its module wrapper, which one compile registers without running any. The executable names
 * the command's pack (`usePack`) before the first chunk loads; a chunk in the pack then runs from
 * the pack's copy, exactly once and when it is required, as it would from its file. A chunk
 * newer than the pack (edited in place) runs from its file; a command with no pack, or a pack
 * that cannot be read or run (cut short, damaged), loads every chunk from its file.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { checkedData, withChecksum } from './cache-checksum.js';

interface Chunk {
  module: { exports: unknown; filename: string; loaded: boolean };
  /** The chunk's own script; none when it ran from a pack. */
  script?: Script;
}

/** A chunk's module wrapper, as node's `Module.wrap` makes it. */
type Wrapper = (exports: unknown, require: unknown, module: unknown, filename: string, dirname: string) => void;

/** A pack's name: a command's, from the command line, so checked before it names a file. */
const PACK_NAME = /^[a-z]+(?:-[a-z]+)*$/;

const chunks = new Map<string, Chunk>();
/**
 * Per folder of the bundle: node's `require` from it (making one costs a path walk), and the paths
 * of the chunks required from it (a command's chunks require each other some 200 times, and
 * `path.resolve` took a millisecond of them).
 */
const folders = new Map<string, { nodeRequire: NodeJS.Require; paths: Map<string, string> }>();
/** The pack asked for and not yet read. */
let wantedPack: string | undefined;
/** The wrappers of the packs read, by chunk path, with the time of the pack that holds them. */
const packed = new Map<string, { wrapper: Wrapper; mtimeMs: number }>();
/** The scripts of the packs read, by pack path (for the build's recording run). */
const packs = new Map<string, Script>();
/** Every chunk asked for while the build's recording run traces (`traceChunks`). */
let traced: Set<string> | undefined;

/** The bundle's folder, for a file in it, in its `chunks/` or in its `packs/`. */
function bundleOf(file: string): string {
  const folder = dirname(file);
  return basename(folder) === 'chunks' || basename(folder) === 'packs' ? dirname(folder) : folder;
}

/** Where the code cache of `file` is: `code-cache/` beside the bundle's entry. */
function cacheOf(file: string): string {
  return join(bundleOf(file), 'code-cache', `${basename(file)}.v8`);
}

/**
 * Names the pack of the command this process runs (`packs/pack-NAME.cjs`), read when the first chunk
 * loads. A name that is not a command's is ignored.
 */
export function usePack(name: string): void {
  if (PACK_NAME.test(name)) wantedPack = name;
}

/** The path of the pack named `name` in `bundle`. */
export function packPath(bundle: string, name: string): string {
  return join(bundle, 'packs', `pack-${name}.cjs`);
}

/** Reads the pack asked for, if the bundle has it: its wrappers are registered, none runs. */
function readPack(bundle: string, name: string): void {
  const file = packPath(bundle, name);
  let source: string;
  let mtimeMs: number;
  try {
    source = readFileSync(file, 'utf8');
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return;
  }
  // A pack that does not compile or register (cut short, damaged) is ignored as a whole: every
  // chunk then loads from its file, as without a pack.
  const registered = new Map<string, { wrapper: Wrapper; mtimeMs: number }>();
  let script: Script;
  try {
    const cachedData = readCache(file);
    script = new Script(source, { filename: file, cachedData });
    const register = (chunk: string, wrapper: Wrapper) => {
      if (typeof wrapper !== 'function') throw new TypeError(`${file}: ${chunk} is not a wrapper`);
      registered.set(join(bundle, chunk), { wrapper, mtimeMs });
    };
    (script.runInThisContext() as (r: typeof register) => void)(register);
  } catch {
    return;
  }
  packs.set(file, script);
  for (const [chunk, entry] of registered) packed.set(chunk, entry);
}

/** The pack's wrapper of `file`, unless the file is newer than the pack (edited in place) or gone. */
function packedWrapper(file: string): Wrapper | undefined {
  const entry = packed.get(file);
  if (entry === undefined) return undefined;
  const stat = statSync(file, { throwIfNoEntry: false });
  return stat !== undefined && stat.mtimeMs <= entry.mtimeMs ? entry.wrapper : undefined;
}

/**
 * The cache of `file`, unless it is missing, older than the file (the build writes it after) or
 * damaged (its checksum does not match).
 */
function readCache(file: string): Buffer | undefined {
  try {
    const cache = cacheOf(file);
    const written = statSync(cache, { throwIfNoEntry: false });
    if (written === undefined || written.mtimeMs < statSync(file).mtimeMs) return undefined;
    return checkedData(readFileSync(cache), basename(file));
  } catch {
    return undefined;
  }
}

const [HEAD, TAIL] = Module.wrap('\0').split('\0').map((part) => Buffer.from(part)) as [Buffer, Buffer];

/**
 * The source of `file` inside node's CommonJS wrapper (`Module.wrap`), read into one buffer and
 * decoded once: wrapping the decoded text instead makes a joined string, which V8 copies whole
 * again before it compiles (a copy of every chunk a command loads, and the collections it causes).
 */
function wrappedSource(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const bytes = Buffer.allocUnsafe(HEAD.length + size + TAIL.length);
    HEAD.copy(bytes);
    let read = 0;
    for (let n = 1; read < size && n > 0; read += n) n = readSync(fd, bytes, HEAD.length + read, size - read, read);
    TAIL.copy(bytes, HEAD.length + read);
    return bytes.toString('utf8', 0, HEAD.length + read + TAIL.length);
  } finally {
    closeSync(fd);
  }
}

/** The exports of the chunk `file` (an absolute path), loaded once. */
export function loadChunk(file: string): unknown {
  traced?.add(file);
  const known = chunks.get(file);
  if (known !== undefined) return known.module.exports;
  if (wantedPack !== undefined) {
    const name = wantedPack;
    wantedPack = undefined;
    readPack(bundleOf(file), name);
  }
  let wrapper = packedWrapper(file);
  let script: Script | undefined;
  if (wrapper === undefined) {
    const source = wrappedSource(file);
    const cachedData = readCache(file);
    script = new Script(source, { filename: file, cachedData });
  }
  const mod = { exports: {} as unknown, filename: file, loaded: false };
  chunks.set(file, { module: mod, script });
  const folder = dirname(file);
  let here = folders.get(folder);
  if (here === undefined) {
    here = { nodeRequire: createRequire(file), paths: new Map() };
    folders.set(folder, here);
  }
  const { nodeRequire, paths } = here;
  const chunkPath = (id: string) => {
    let path = paths.get(id);
    if (path === undefined) {
      path = resolve(folder, id);
      paths.set(id, path);
    }
    return path;
  };
  const require = Object.assign(
    (id: string): unknown => (id.startsWith('.') && id.endsWith('.cjs') ? loadChunk(chunkPath(id)) : nodeRequire(id)),
    {
      resolve: nodeRequire.resolve,
      cache: nodeRequire.cache,
      engramImport: (specifier: string): Promise<unknown> => import(specifier),
    },
  );
  wrapper ??= script?.runInThisContext() as Wrapper;
  try {
    wrapper.call(mod.exports, mod.exports, require, mod, file, folder);
  } catch (error) {
    chunks.delete(file);
    throw error;
  }
  mod.loaded = true;
  return mod.exports;
}

/**
 * Writes the code cache of every chunk loaded so far (after they ran, so that it holds the
 * functions they compiled); for the build's recording run. Returns how many were written.
 */
export function writeCodeCaches(): number {
  let written = 0;
  for (const [file, { script }] of chunks) {
    if (script === undefined) continue;
    writeCodeCache(file, script);
    written++;
  }
  return written;
}

/**
 * Writes the code cache of every pack read so far, after its chunks ran; for the build's
 * recording run of a pack. Returns the chunks that ran from a pack.
 */
export function writePackCaches(): number {
  for (const [file, script] of packs) writeCodeCache(file, script);
  return [...chunks.values()].filter((chunk) => chunk.script === undefined).length;
}

function writeCodeCache(file: string, script: Script): void {
  const cache = cacheOf(file);
  mkdirSync(dirname(cache), { recursive: true });
  // Whole or not at all: a cache cut short by an interrupted build is never read.
  writeFileSync(`${cache}.tmp`, withChecksum(script.createCachedData(), basename(file)));
  renameSync(`${cache}.tmp`, cache);
}

/**
 * Runs `f`, returning with its result every chunk asked for while it ran, loaded before or not;
 * for the build, which packs the chunks each command asks for.
 */
export async function traceChunks<T>(f: () => Promise<T>): Promise<{ result: T; chunks: Set<string> }> {
  traced = new Set();
  try {
    const result = await f();
    return { result, chunks: traced };
  } finally {
    traced = undefined;
  }
}

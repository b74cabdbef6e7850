/**
 * Loads the CLI's CommonJS chunks (`dist/bundle`, see `scripts/bundle.ts`) with V8's code cache:
 * each chunk is compiled from the cache the build recorded for it (`code-cache/NAME.v8`), so a
 * command skips most of the parsing and compiling of the code it runs. Node 20 has no compile cache
 * of its own (Node 22's `module.enableCompileCache`). V8 refuses a cache made by another V8 or
 * under other flags, but of the source it checks only the length: a cache older than its chunk (a
 * chunk edited in place after the build) is not used. A refused or missing cache costs nothing but
 * the compile node would have done anyway; the chunks also load with plain `require` (the policy
 * worker does). V8 checks a cache's checksum only when asked to (`--verify-snapshot-checksum`,
 * off in node's builds): the loader asks, so a damaged cache file is refused, not run (it crashed
 * node); the build records the caches under the same flag, which V8 also checks. The flag is on
 * only while a chunk compiles or its cache is recorded: node's own modules (`node:crypto`, the
 * streams) carry code caches made without it, which V8 would refuse too while it is on.
 *
 * A chunk's relative `require` of another chunk comes back here; any other (node's modules,
 * node_modules) goes to node, resolved from the chunk's folder. A chunk's `import()` of an ES
 * module goes through `require.engramImport`, which a script compiled by `vm` cannot do itself.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

interface Chunk {
  module: { exports: unknown; filename: string; loaded: boolean };
  script: Script;
}

/** Runs `f` with V8 checking code cache checksums: a cache whose bytes do not add up is refused (see above). */
function withChecksums<T>(f: () => T): T {
  setFlagsFromString('--verify-snapshot-checksum');
  try {
    return f();
  } finally {
    setFlagsFromString('--no-verify-snapshot-checksum');
  }
}

const chunks = new Map<string, Chunk>();
/** Node's `require` from a folder of the bundle, one per folder (making one costs a path walk). */
const requires = new Map<string, NodeJS.Require>();

/** Where the code cache of `file` is: `code-cache/` beside the bundle's entry. */
function cacheOf(file: string): string {
  const bundle = basename(dirname(file)) === 'chunks' ? dirname(dirname(file)) : dirname(file);
  return join(bundle, 'code-cache', `${basename(file)}.v8`);
}

/** The cache of `file`, unless it is missing or older than the file (the build writes it after). */
function readCache(file: string): Buffer | undefined {
  try {
    const cache = cacheOf(file);
    const written = statSync(cache, { throwIfNoEntry: false });
    if (written === undefined || written.mtimeMs < statSync(file).mtimeMs) return undefined;
    return readFileSync(cache);
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
  const known = chunks.get(file);
  if (known !== undefined) return known.module.exports;
  const source = wrappedSource(file);
  const cachedData = readCache(file);
  const script = withChecksums(() => new Script(source, { filename: file, cachedData }));
  const mod = { exports: {} as unknown, filename: file, loaded: false };
  chunks.set(file, { module: mod, script });
  const folder = dirname(file);
  let nodeRequire = requires.get(folder);
  if (nodeRequire === undefined) {
    nodeRequire = createRequire(file);
    requires.set(folder, nodeRequire);
  }
  const require = Object.assign(
    (id: string): unknown => (id.startsWith('.') && id.endsWith('.cjs') ? loadChunk(resolve(folder, id)) : nodeRequire(id)),
    {
      resolve: nodeRequire.resolve,
      cache: nodeRequire.cache,
      engramImport: (specifier: string): Promise<unknown> => import(specifier),
    },
  );
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
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
  for (const [file, { script }] of chunks) {
    const cache = cacheOf(file);
    mkdirSync(dirname(cache), { recursive: true });
    // Whole or not at all: a cache cut short by an interrupted build is never read.
    writeFileSync(`${cache}.tmp`, withChecksums(() => script.createCachedData()));
    renameSync(`${cache}.tmp`, cache);
  }
  return chunks.size;
}

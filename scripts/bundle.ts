/**
 * Build step: bundles the CLI with esbuild into dist/bundle/ (`engram.js` and one chunk per lazily
 * loaded part: each command, the MCP shell, the document parsers), so that a command loads a few
 * files instead of hundreds of modules. Pure-JavaScript dependencies are bundled; those that load
 * a native or WebAssembly file from their own directory (the SQLite driver, sqlite-vec, jieba,
 * the PDF parser, the tokenizer runtime) and the MCP SDK stay in node_modules. The metafile
 * (dist/bundle/meta.json) lets the architecture test check what the entry chunk holds.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** Loaded from node_modules at run time, never bundled. */
export const EXTERNAL = [
  'better-sqlite3',
  'sqlite-vec',
  'jieba-wasm',
  'unpdf',
  '@huggingface/tokenizers',
  '@modelcontextprotocol/sdk',
];

const REQUIRE_SHIM = 'import { createRequire as __engramRequire } from \'node:module\'; '
  + 'const require = __engramRequire(import.meta.url);';

const out = root('dist/bundle');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const result = await build({
  entryPoints: { engram: root('src/cli/main.ts') },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
  chunkNames: 'chunks/[name]-[hash]',
  metafile: true,
  legalComments: 'linked',
  logLevel: 'warning',
  // A bundled CommonJS dependency may call require(): give the ES module one.
  banner: { js: REQUIRE_SHIM },
});
writeFileSync(`${out}/meta.json`, JSON.stringify(result.metafile));
copyFileSync(root('dist/src/cli/help.txt'), `${out}/help.txt`);

/**
 * Build step: bundles the CLI with esbuild into dist/bundle/ (`engram.js` and one chunk per lazily
 * loaded part: each command, the MCP shell, the document parsers), so that a command loads a few
 * files instead of hundreds of modules. Pure-JavaScript dependencies are bundled; those that load
 * a native or WebAssembly file from their own directory (the SQLite driver, sqlite-vec, jieba,
 * the PDF parser, the tokenizer runtime), the MCP SDK, the BPE encodings and jsonc-parser stay in
 * node_modules. The metafile
 * (dist/bundle/meta.json) lets the architecture test check what the entry chunk holds.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** Loaded from node_modules at run time, never bundled. */
export const EXTERNAL = [
  'better-sqlite3',
  'sqlite-vec',
  'jieba-wasm',
  'unpdf',
  '@huggingface/tokenizers',
  '@modelcontextprotocol/sdk',
  // Megabytes of BPE vocabulary, loaded only when a run names an encoding.
  'gpt-tokenizer',
  // Its CommonJS build loads its parts with relative require() calls a bundle cannot follow.
  'jsonc-parser',
];

const REQUIRE_SHIM = 'import { createRequire as __engramRequire } from \'node:module\'; '
  + 'const require = __engramRequire(import.meta.url);';

/**
 * zod re-exports every locale it has (`z.locales`, some 300 KB) from its entry; engram's messages
 * are English, the one locale zod's schemas import themselves, so the bundle keeps only that.
 */
const englishZod: Plugin = {
  name: 'zod-english-only',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes('/node_modules/zod/') ? { path: args.importer, namespace: 'zod-locales' } : undefined);
    esbuild.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: 'export { default as en } from \'../locales/en.js\';',
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

const out = root('dist/bundle');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const result = await build({
  // Ingest's policy worker sits beside the chunks, where policy-pool.ts looks for it.
  entryPoints: { 'engram': root('src/cli/main.ts'), 'chunks/policy-worker': root('src/ingest/policy-worker.ts') },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
  chunkNames: 'chunks/[name]-[hash]',
  metafile: true,
  plugins: [englishZod],
  legalComments: 'linked',
  logLevel: 'warning',
  // A bundled CommonJS dependency may call require(): give the ES module one.
  banner: { js: REQUIRE_SHIM },
});
writeFileSync(`${out}/meta.json`, JSON.stringify(result.metafile));
copyFileSync(root('dist/src/cli/help.txt'), `${out}/help.txt`);

/**
 * Build step: bundles the CLI with esbuild into dist/bundle/. The executable, `engram.js`, is a
 * small CommonJS file (the folder's package.json says so): `--version`, `--help` and a command sent
 * to `engram daemon` need nothing else, and node starts a CommonJS file faster than an ES module.
 * The CLI proper is ES modules (`.mjs`): `start.mjs` and one chunk per lazily loaded part (each
 * command, the MCP shell, the document parsers), so that a command loads a few files instead of
 * hundreds of modules. Pure-JavaScript dependencies are bundled; those that load a native or
 * WebAssembly file from their own directory (the SQLite driver, sqlite-vec, jieba, the PDF parser,
 * the tokenizer runtime), the MCP SDK, the BPE encodings and jsonc-parser stay in node_modules.
 * The metafile of both builds (dist/bundle/meta.json) lets the architecture test check what the
 * executable and each chunk hold.
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
const cli = await build({
  // Ingest's policy worker sits beside the chunks, where policy-pool.ts looks for it.
  entryPoints: { 'start': root('src/cli/start.ts'), 'chunks/policy-worker': root('src/ingest/policy-worker.ts') },
  outdir: out,
  outExtension: { '.js': '.mjs' },
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

/** The executable loads the CLI it was built with, beside it, only when a command runs here. */
const startBeside: Plugin = {
  name: 'start-beside',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\/start\.js$/ }, () => ({ path: './start.mjs', external: true }));
  },
};
const executable = await build({
  entryPoints: { engram: root('src/cli/main.ts') },
  outdir: out,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
  metafile: true,
  plugins: [startBeside],
  logLevel: 'warning',
  // Its own address, where an ES module has import.meta.url (help.txt is found beside it).
  inject: [root('scripts/import-meta-url.ts')],
  define: { 'import.meta.url': 'importMetaUrl' },
});
writeFileSync(`${out}/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);
const meta = {
  inputs: { ...cli.metafile.inputs, ...executable.metafile.inputs },
  outputs: { ...cli.metafile.outputs, ...executable.metafile.outputs },
};
writeFileSync(`${out}/meta.json`, JSON.stringify(meta));
copyFileSync(root('dist/src/cli/help.txt'), `${out}/help.txt`);

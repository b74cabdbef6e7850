/**
 * Build step: bundles the CLI with esbuild into dist/bundle/. The executable, `engram.js`, is a
 * small CommonJS file (the folder's package.json says so): `--version`, `--help` and a command sent
 * to `engram daemon` need nothing else. The CLI proper is `start.cjs` and one chunk per lazily
 * loaded part (each command, the MCP shell, the document parsers), so that a command loads a few
 * files instead of hundreds of modules; esbuild splits only ES modules, so each output of that
 * build is written as CommonJS, which node loads faster and to which V8's code cache applies
 * (recorded by code-cache.ts; src/cli/chunk-loader.ts), and a pack per hot command, one file
 * holding copies of the small chunks it loads (written by code-cache.ts). Pure-JavaScript dependencies are bundled,
 * the SQLite driver's JavaScript too (its addon stays in node_modules); those that load a native
 * or WebAssembly file from their own directory (sqlite-vec, jieba, the PDF parser, the tokenizer
 * runtime), the MCP SDK, the BPE encodings and jsonc-parser stay in node_modules. The metafile of
 * both builds (dist/bundle/meta.json, with the chunks' CommonJS names) lets the architecture test
 * check what the executable and each chunk hold.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { build, type Plugin, transformSync } from 'esbuild';
import { fastLinesSpec } from '../src/cli/commander-line.js';
import { PATTERN_RULES } from '../src/policy/rules.js';
import { SECRET_PATTERN_RULES } from '../src/policy/secret-check.js';
import { SCREEN_LITERALS } from '../src/policy/screen-literals.generated.js';
import { tablesFit } from '../src/policy/screen.js';
import { SECRET_SCREEN_LITERALS } from '../src/policy/secret-screen-literals.generated.js';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** Loaded from node_modules at run time, never bundled. */
export const EXTERNAL = [
  // better-sqlite3's JavaScript is bundled; its addon is named when a connection opens
  // (src/store/sqlite/driver.ts), and its own lookup, used only when that file is not found, runs
  // from its package's folder.
  'bindings',
  'sqlite-vec',
  'jieba-wasm',
  'unpdf',
  '@huggingface/tokenizers',
  '@modelcontextprotocol/sdk',
  // Megabytes of BPE vocabulary, loaded only when a run names an encoding.
  'gpt-tokenizer',
  // Its CommonJS build loads its parts with relative require() calls a bundle cannot follow.
  'jsonc-parser',
  // Loaded by the policy only for a text with a long token, a URL or a key header (secretlint.ts),
  // or with an HTML entity (deobfuscate.ts), and by the markup extractors: bundled, their 200 KB
  // were read and compiled by every command that masks or judges a text.
  '@secretlint/secretlint-rule-preset-recommend',
  'entities',
];

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

/**
 * An output of the ES-module build as a CommonJS file, strict as the module was: static imports
 * become `require` calls (esbuild's transform), a chunk's `import()` of another chunk a `require`
 * in a promise, and an `import()` of a package (an ES module, or loaded only when needed) goes
 * through `require.engramImport` when the chunk loader (src/cli/chunk-loader.ts) compiled the
 * chunk, which cannot do it itself. Fails on a dynamic import it does not rewrite.
 */
function commonJs(path: string, code: string, dynamic: readonly string[]): string {
  let text = code;
  for (const spec of new Set(dynamic)) {
    const call = `import(${JSON.stringify(spec)})`;
    if (!text.includes(call)) throw new Error(`${path}: no ${call} to rewrite`);
    const local = spec.startsWith('.') && spec.endsWith('.mjs');
    const target = local ? `__engramChunk(${JSON.stringify(spec.replace(/\.mjs$/, '.cjs'))})` : `__engramImport(${JSON.stringify(spec)})`;
    text = text.split(call).join(target);
  }
  text = text.replace(/(["'])(\.\.?\/[^"']+)\.mjs\1/g, '$1$2.cjs$1');
  // The comment that points to the chunk's licences (legalComments: 'linked') names the file too.
  text = text.replace(/([\w-]+)\.mjs\.LEGAL\.txt/g, '$1.cjs.LEGAL.txt');
  const banner = [
    // Strict, as the ES module was: CommonJS code is sloppy unless it says so.
    '"use strict";',
    'const __engramChunk = (path) => Promise.resolve().then(() => require(path));',
    'const __engramImport = (specifier) => (require.engramImport === undefined ? import(specifier) : require.engramImport(specifier));',
    // The chunk's address, made when first read (a URL costs some 0.1 ms, and most runs read none).
    text.includes('import.meta.url')
      ? 'let __engramMetaUrl;\nconst __engramMeta = { get url() { return (__engramMetaUrl ??= require("node:url").pathToFileURL(__filename).href); } };'
      : '',
  ].join('\n');
  const result = transformSync(text, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    loader: 'js',
    sourcefile: path,
    // A chunk's folder, where node gives a module `import.meta.dirname` (util/node-modules.ts).
    define: { 'import.meta.url': '__engramMeta.url', 'import.meta.dirname': '__dirname' },
    banner,
    logLevel: 'warning',
  });
  return result.code;
}

/**
 * `code` with every character outside ASCII written as a `\u` escape, so that node reads the file
 * into a one-byte string: half the memory, and twice as fast to decode (a hot command's pack:
 * 1.7 → 0.8 ms). esbuild escapes strings, templates and identifiers itself, and leaves regular
 * expression literals and comments as written; there `\uXXXX` (a surrogate pair above U+FFFF)
 * stands for the same character, with the u flag or without. Fails where an escape would change
 * the code: a character after a backslash, or a file that reads raw template text (`String.raw`).
 * Another tag function would read the raw text of its template too: esbuild leaves that text as
 * written, and no tagged template in the bundle holds a character outside ASCII (an outside review
 * checked at stop 34); this check does not see one. An expression's `source` does change: a
 * policy rule's must not (the screen's fingerprints read it), so the rules write such characters
 * as escapes themselves (test/bundle-chunks.test.ts).
 */
function asciiOnly(path: string, code: string): string {
  if (!/[^\0-\x7f]/.test(code)) return code;
  if (code.includes('String.raw')) throw new Error(`${path}: characters outside ASCII beside String.raw, which an escape would change`);
  return code.replace(/(\\*)([^\0-\x7f])/g, (_, slashes: string, unit: string) => {
    if (slashes.length % 2 === 1) throw new Error(`${path}: a character outside ASCII after a backslash (${JSON.stringify(unit)})`);
    return `${slashes}\\u${unit.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  });
}

/**
 * commander loads `node:child_process` when it is imported, for subcommands run as executables,
 * which engram has none of: the bundle loads it on first use instead (a few milliseconds of every
 * command's start-up). Fails the build if commander's line changes.
 */
const lazyChildProcess: Plugin = {
  name: 'commander-lazy-child-process',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const line = 'const childProcess = require(\'node:child_process\');';
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(line)) throw new Error(`${args.path}: no "${line}" to make lazy`);
      const lazy = 'const childProcess = { spawn: (...args) => require(\'node:child_process\').spawn(...args) };';
      return { contents: source.replace(line, lazy), loader: 'js' };
    });
  },
};

// The bundle trusts the policy screen's generated tables without reading the rules' expressions
// (src/policy/screen.ts): they are checked here, on the rules it bundles, as the modules check them.
for (const [rules, tables, name] of [
  [PATTERN_RULES, SCREEN_LITERALS, 'screen-literals'],
  [SECRET_PATTERN_RULES, SECRET_SCREEN_LITERALS, 'secret-screen-literals'],
] as const) {
  if (!tablesFit(rules, tables)) throw new Error(`src/policy/${name}.generated.ts does not fit the rules: run npm run generate:policy`);
}

// The hot commands' declarations, read from commander here, so that the bundle reads their plain
// lines without loading it (src/cli/fast-line.ts).
const sink = new PassThrough();
const fastLines = await fastLinesSpec({ argv: [], env: {}, cwd: root('.'), stdin: undefined as never, stdout: sink, stderr: sink });

const out = root('dist/bundle');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
// The CLI is built as ES modules, the one format esbuild splits into chunks, then each output is
// written as CommonJS (commonJs above): node loads a CommonJS file faster than an ES module, and
// V8's code cache, recorded below, applies to it.
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
  write: false,
  plugins: [englishZod, lazyChildProcess],
  define: { ENGRAM_SCREEN_TABLES_CHECKED: 'true', ENGRAM_FAST_LINES: JSON.stringify(JSON.stringify(fastLines)) },
  legalComments: 'linked',
  logLevel: 'warning',
});
const cjsName = (path: string) => path.replace(/\.mjs(?=$|\.LEGAL\.txt$)/, '.cjs');
const relativeOut = (path: string) => relative(root('.'), path);
for (const file of cli.outputFiles) {
  const meta = cli.metafile.outputs[relativeOut(file.path)];
  const dynamic = (meta?.imports ?? []).filter((i) => i.kind === 'dynamic-import').map((i) =>
    (i.external === true ? i.path : `./${relative(dirname(relativeOut(file.path)), i.path)}`.replace(/^\.\/\.\.\//, '../')));
  const text = file.path.endsWith('.mjs') ? asciiOnly(relativeOut(file.path), commonJs(relativeOut(file.path), file.text, dynamic)) : file.text;
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(cjsName(file.path), text);
}

/**
 * The executable loads the CLI it was built with, beside it (`start.cjs`), through the chunk
 * loader, only when a command runs here.
 */
const startBeside: Plugin = {
  name: 'start-beside',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\/start\.js$/ }, () => ({ path: 'start.cjs', namespace: 'start-beside' }));
    esbuild.onLoad({ filter: /.*/, namespace: 'start-beside' }, () => ({
      contents: `const { loadChunk } = require(${JSON.stringify(root('src/cli/chunk-loader.ts'))});
        module.exports = loadChunk(require('node:path').join(__dirname, 'start.cjs'));`,
      resolveDir: root('src/cli'),
      loader: 'js',
    }));
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
  // Its own address, where an ES module has import.meta.url (help.txt is found beside it), made
  // when first read; and its folder.
  inject: [root('scripts/import-meta-url.ts')],
  define: { 'import.meta.url': 'importMeta.url', 'import.meta.dirname': '__dirname' },
});
writeFileSync(`${out}/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);
const cjsOutputs = Object.fromEntries(Object.entries(cli.metafile.outputs).map(([path, output]) => {
  const imports = output.imports.map((i) => (i.external === true ? i : { ...i, path: cjsName(i.path) }));
  return [cjsName(path), { ...output, imports }];
}));
const meta = {
  inputs: { ...cli.metafile.inputs, ...executable.metafile.inputs },
  outputs: { ...cjsOutputs, ...executable.metafile.outputs },
};
writeFileSync(`${out}/meta.json`, JSON.stringify(meta));
copyFileSync(root('dist/src/cli/help.txt'), `${out}/help.txt`);
// V8's code cache of the chunks the hot commands load, recorded by running them, and their packs (code-cache.ts).
const recorded = spawnSync(process.execPath, [fileURLToPath(new URL('./code-cache.js', import.meta.url))], { stdio: 'inherit' });
if (recorded.status !== 0) throw new Error(`recording the code cache failed (exit ${recorded.status})`);

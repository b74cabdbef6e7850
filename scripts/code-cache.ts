/**
 * Build step, run by `bundle.ts` in a node of its own (no flags: V8 refuses a cache made under
 * other flags): runs the commands agents call in loops on a scratch store, through the chunk
 * loader, then writes the code cache of every chunk they loaded (`dist/bundle/code-cache/`). See
 * src/cli/chunk-loader.ts.
 *
 * It then writes each command's pack (`dist/bundle/packs/NAME.cjs`): the small chunks the
 * command's runs asked for, with the chunks those load, each in its module wrapper. A pack's code
 * cache is recorded by this script again, in a node of its own per pack (`--pack NAME`), which
 * runs that command's runs with the pack.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { loadChunk, packPath, traceChunks, usePack, writeCodeCaches, writePackCaches } from '../src/cli/chunk-loader.js';
import { invokedCommand } from '../src/cli/command-word.js';
import type { start as Start } from '../src/cli/start.js';

/** A chunk at least this large stays out of packs: its own file costs little beside its size. */
const PACK_CHUNK_BYTES = 64 * 1024;

const bundle = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));
const repository = fileURLToPath(new URL('../../', import.meta.url));
const packArgument = process.argv.indexOf('--pack');
const pack = packArgument < 0 ? undefined : process.argv[packArgument + 1];
// A pack's recording run works in the scratch folder of the run that spawned it (`--dir`), whose
// store the other commands already wrote.
const dirArgument = process.argv.indexOf('--dir');
const dir = dirArgument < 0 ? mkdtempSync(join(tmpdir(), 'engram-code-cache-')) : process.argv[dirArgument + 1] ?? '';
const prompt = JSON.stringify({ session_id: 'build', cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: 'deploy port' });
const environment = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('ENGRAM_')));
const runs: [string[], string?][] = [
  [['put', '--content', 'The staging database listens on port 5433', '--tags', 'db,staging']],
  [['put', '--content', 'Deploys go out from the release branch after review', '--layer', 'project', '--key', 'deploy']],
  [['put', '-'], 'Notes piped in: the API answers on https://api.example.com/v2'],
  [['list', '--limit', '5']],
  [['--json', 'list', '--tier', 'stm']],
  [['search', 'deploy port']],
  [['--json', 'search', 'database']],
  [['recall', 'which port does the staging database use']],
  [['get', '--layer', 'project', '--key', 'deploy']],
  [['hook', 'prompt-submit'], prompt],
  [['hook', 'session-start'], JSON.stringify({ session_id: 'build', cwd: dir, hook_event_name: 'SessionStart' })],
];

/** Runs one command line in this process on the scratch store. */
async function run(argv: string[], input: string | undefined): Promise<void> {
  const { start } = loadChunk(join(bundle, 'start.cjs')) as { start: typeof Start };
  const sink = () => Object.assign(new PassThrough().resume(), { isTTY: false });
  const io = {
    env: { ...environment, HOME: dir, ENGRAM_DAEMON: 'off' },
    cwd: dir,
    stdin: Object.assign(Readable.from([input ?? '']), { isTTY: input === undefined }),
    stdout: sink(),
    stderr: sink(),
    exit: () => undefined,
  };
  const code = await start(['--db', join(dir, 'memory.db'), ...argv], io);
  if (code !== 0) throw new Error(`engram ${argv.join(' ')} exited ${code}`);
}

/** Each chunk's path with the chunks it loads when it runs (its static imports), from the metafile. */
function staticImports(): Map<string, string[]> {
  const meta = JSON.parse(readFileSync(join(bundle, 'meta.json'), 'utf8')) as {
    outputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
  };
  return new Map(Object.entries(meta.outputs).map(([path, output]) => [
    join(repository, path),
    output.imports.filter((i) => i.kind !== 'dynamic-import' && i.external !== true).map((i) => join(repository, i.path)),
  ]));
}

/** `asked` with every chunk they load, and those load, on. */
function withImports(asked: Iterable<string>, imports: Map<string, string[]>): Set<string> {
  const all = new Set<string>();
  const visit = (file: string) => {
    if (all.has(file)) return;
    all.add(file);
    for (const next of imports.get(file) ?? []) visit(next);
  };
  for (const file of asked) visit(file);
  return all;
}

/** Writes the pack `name` of `files`: each chunk in its module wrapper, registered by its path in the bundle. */
function writePack(name: string, files: Iterable<string>): number {
  const chunks = [...files].filter((file) => statSync(file).size < PACK_CHUNK_BYTES).sort();
  const parts = chunks.map((file) => {
    const source = readFileSync(file, 'utf8');
    const at = JSON.stringify(relative(bundle, file));
    return `register(${at}, function (exports, require, module, __filename, __dirname) {\n${source}\n});`;
  });
  const file = packPath(bundle, name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, `(function (register) {\n${parts.join('\n')}\n})\n`);
  renameSync(`${file}.tmp`, file);
  return chunks.length;
}

try {
  if (pack !== undefined) {
    // A pack's recording run: the command's own runs, with the pack, on the store the other runs
    // wrote, so that its cache holds the functions that command runs (not the store's creation,
    // not another command's code in a shared chunk: every function cached is deserialized by every
    // run).
    usePack(pack);
    for (const [argv, input] of runs) if (invokedCommand(argv) === pack) await run(argv, input);
    const packed = writePackCaches();
    if (packed === 0) throw new Error(`no chunk ran from the pack ${pack}`);
  } else {
    const asked = new Map<string, Set<string>>();
    for (const [argv, input] of runs) {
      const { chunks } = await traceChunks(() => run(argv, input));
      const name = invokedCommand(argv) ?? '';
      asked.set(name, new Set([...(asked.get(name) ?? []), ...chunks]));
    }
    process.stdout.write(`code cache: ${writeCodeCaches()} chunks\n`);
    const imports = staticImports();
    for (const [name, chunks] of asked) {
      const packed = writePack(name, withImports(chunks, imports));
      const recorded = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--pack', name, '--dir', dir], { stdio: 'inherit' });
      if (recorded.status !== 0) throw new Error(`recording the pack ${name} failed (exit ${recorded.status})`);
      process.stdout.write(`pack ${name}: ${packed} chunks\n`);
    }
  }
} finally {
  if (dirArgument < 0) rmSync(dir, { recursive: true, force: true });
}

/**
 * Import directions (ARCHITECTURE.md §1): every area of src/ has a rank in {@link RANKS}, and an
 * import points to its own area or to a lower rank: shells → engram.ts → feature folders → store →
 * types, errors, util. Also: only store/ touches the driver, only mcp/ the MCP SDK, the CLI opens
 * the MCP shell only lazily (`engram serve`), only entry points read the environment, the BPE
 * encodings load only when a recall asks for one, and `engram --help` loads no heavy module.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SRC = join(ROOT, 'src');

/**
 * The rank of every area of src/ (a folder, or a top-level file without `.ts`), lowest first. An
 * import must point to its own area or to an area of a lower rank; the areas of one rank are peers
 * and import none of each other, so no two areas can import each other. A new folder or top-level
 * file needs a place here: the test fails until it has one. Derived from the import graph: search
 * ranks on the forgetting curve, items on search (index text, query terms) and policy, ingest and
 * lifecycle on items.
 */
const RANKS: readonly (readonly string[])[] = [
  ['types', 'errors', 'util', 'version', 'context'],
  ['store'],
  ['config', 'policy', 'recall', 'forgetting', 'embed', 'setup', 'llm'],
  ['search'],
  ['items'],
  ['ingest', 'lifecycle', 'retrieval', 'workspaces'],
  ['put', 'maintenance', 'sync'],
  ['capture', 'importers', 'loop'],
  ['api'],
  ['engram'],
  ['index'],
  ['mcp'],
  ['cli'],
];

const RANK = new Map(RANKS.flatMap((areas, rank) => areas.map((name) => [name, rank] as const)));

function sourceFiles(dir = SRC, withTests = false): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, withTests);
    return entry.name.endsWith('.ts') && (withTests || !entry.name.endsWith('.test.ts')) ? [path] : [];
  });
}

interface ImportRef {
  specifier: string;
  lazy: boolean;
}

/**
 * True when an import or export clause brings in types only: `import type …`, or braces whose
 * every name is marked `type` (`import { type A, type B }`) with no default or namespace import.
 * Such imports vanish from the compiled code; `import { type A, b }` still loads the module.
 */
function typeOnly(clause: string): boolean {
  const body = clause.trim();
  if (/^type\s/.test(body)) return true;
  const braces = /^\{([^}]*)\}$/.exec(body);
  if (braces === null) return false;
  const names = (braces[1] ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  return names.length > 0 && names.every((name) => /^type\s/.test(name));
}

function importsOf(file: string): ImportRef[] {
  const text = readFileSync(file, 'utf8');
  const refs: ImportRef[] = [];
  // The clause stops at a semicolon or at the next import or export: `export interface …` never
  // runs on into the re-export after it.
  const clause = /^\s*(?:import|export)\s+((?:(?!^\s*(?:import|export)\b)[^'";])*?)\s*from\s+'([^']+)'/gm;
  for (const m of text.matchAll(clause)) {
    if (!typeOnly(m[1] ?? '')) refs.push({ specifier: m[2] ?? '', lazy: false });
  }
  for (const m of text.matchAll(/^\s*import\s+'([^']+)'/gm))
    refs.push({ specifier: m[1] ?? '', lazy: false });
  for (const m of text.matchAll(/(?<!typeof\s*)import\(\s*'([^']+)'\s*\)/g))
    refs.push({ specifier: m[1] ?? '', lazy: true });
  return refs;
}

/** Folder of a file relative to src/, or the name of a top-level file without `.ts`. */
function area(file: string): string {
  const rel = relative(SRC, file);
  return rel.includes('/') ? (rel.split('/')[0] ?? '') : rel.replace(/(?:\.test)?\.ts$/, '');
}

function target(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
}

const files = sourceFiles();

test('the inline-type rule: only imports whose every name is a type are skipped', () => {
  assert.ok(typeOnly('type { Store }'));
  assert.ok(typeOnly('{ type Store, type Clock }'));
  assert.ok(!typeOnly('{ type Store, openStore }'));
  assert.ok(!typeOnly('Default, { type Store }'));
  assert.ok(!typeOnly('* as store'));
  assert.ok(!typeOnly('{ typeOf }'));
});

test('every area of src/ has a rank, and every ranked area exists', () => {
  const present = new Set(sourceFiles(SRC, true).map(area));
  const unranked = [...present].filter((name) => !RANK.has(name)).sort();
  assert.deepEqual(unranked, [], `areas of src/ missing from RANKS in test/architecture.test.ts: ${unranked.join(', ')}`);
  const missing = [...RANK.keys()].filter((name) => !present.has(name)).sort();
  assert.deepEqual(missing, [], `RANKS names areas that src/ does not have: ${missing.join(', ')}`);
});

test('only store/ imports the SQLite driver and its vector extension; only mcp/ imports the MCP SDK', () => {
  for (const file of files) {
    for (const { specifier } of importsOf(file)) {
      if (specifier === 'better-sqlite3' || specifier === 'sqlite-vec') assert.equal(area(file), 'store', relative(ROOT, file));
      if (specifier.startsWith('@modelcontextprotocol/'))
        assert.equal(area(file), 'mcp', relative(ROOT, file));
    }
  }
});

test('only recall/tokenizer.ts imports the BPE encodings (gpt-tokenizer), and only lazily: several MB each', () => {
  for (const file of files) {
    for (const { specifier, lazy } of importsOf(file)) {
      if (!specifier.startsWith('gpt-tokenizer')) continue;
      assert.equal(relative(SRC, file), 'recall/tokenizer.ts', relative(ROOT, file));
      assert.ok(lazy, `${relative(ROOT, file)} imports ${specifier} statically`);
    }
  }
});

test('dependencies point down: every import goes to its own area or a lower rank', () => {
  const upward: string[] = [];
  for (const file of files) {
    const from = area(file);
    const fromRank = RANK.get(from);
    if (fromRank === undefined) continue; // reported by the test above
    for (const { specifier } of importsOf(file)) {
      const to = target(file, specifier);
      if (to === undefined) continue;
      const toArea = area(to);
      const toRank = RANK.get(toArea);
      if (toArea === from || toRank === undefined || toRank < fromRank) continue;
      const how = toRank === fromRank ? 'a peer of the same rank' : 'a higher rank';
      upward.push(`${relative(ROOT, file)} imports '${specifier}': ${from} (rank ${fromRank}) → ${toArea} (rank ${toRank}), ${how}`);
    }
  }
  const hint = 'move the code down, or, for a peer, give one area its own higher row in RANKS (test/architecture.test.ts)';
  assert.deepEqual(upward, [], `upward imports (${hint}):\n${upward.join('\n')}`);
});

test('the CLI opens the MCP shell only lazily (`engram serve`); nothing else imports a shell', () => {
  const shells = new Set(['cli', 'mcp']);
  for (const file of files) {
    const from = area(file);
    for (const { specifier, lazy } of importsOf(file)) {
      const to = target(file, specifier);
      if (to === undefined) continue;
      const toArea = area(to);
      const serves = from === 'cli' && toArea === 'mcp' && lazy;
      if (shells.has(toArea) && !serves)
        assert.equal(toArea, from, `${relative(ROOT, file)} → ${specifier}: only a shell imports itself`);
    }
  }
});

// The daemon is the other entry point: it runs each client's command in that client's environment.
const ENTRY_POINTS = ['cli/main.ts', 'cli/daemon/run-by.ts'];

test('only the CLI entry points read process.env; nothing but cli/output.ts writes to stdout', () => {
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
      .join('\n');
    const rel = relative(SRC, file);
    if (/process\.env\b/.test(text)) assert.ok(ENTRY_POINTS.includes(rel), rel);
    if (/process\.stdout\b/.test(text)) assert.ok(['cli/main.ts'].includes(rel), rel);
    assert.doesNotMatch(text, /console\.(log|info|warn|error|debug)\(/, rel);
  }
});

test('engram --help and --version load no heavy module: the static import graph of the CLI stays light', () => {
  const heavy = ['better-sqlite3', 'sqlite-vec', 'zod', '@modelcontextprotocol/sdk', '@huggingface/tokenizers', 'gpt-tokenizer'];
  const seen = new Set<string>();
  const stack = [join(SRC, 'cli', 'main.ts')];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { specifier, lazy } of importsOf(file)) {
      if (lazy) continue;
      assert.ok(
        !heavy.some((h) => specifier.startsWith(h)),
        `${relative(ROOT, file)} statically imports ${specifier}`,
      );
      const to = target(file, specifier);
      if (to !== undefined) stack.push(to);
    }
  }
  const reached = [...seen].map((f) => relative(SRC, f));
  assert.ok(!reached.includes('engram.ts'), 'the facade is loaded lazily');
  assert.ok(!reached.some((f) => f.startsWith('store/')), 'the store is loaded lazily');
});

interface BundleMeta {
  outputs: Record<string, {
    imports: { path: string; kind: string; external?: boolean }[];
    inputs: Record<string, unknown>;
  }>;
}

/** The chunks of the bundle that `chunk` loads before it runs (static imports, transitively). */
function staticClosure(meta: BundleMeta, chunk: string): Set<string> {
  const seen = new Set<string>();
  const stack = [chunk];
  while (stack.length > 0) {
    const next = stack.pop() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    for (const i of meta.outputs[next]?.imports ?? []) if (i.kind === 'import-statement') stack.push(i.path);
  }
  return seen;
}

test('the bundle keeps it: --help and --version load one small chunk, each command and the MCP shell load lazily', () => {
  const meta = JSON.parse(readFileSync(join(ROOT, 'dist', 'bundle', 'meta.json'), 'utf8')) as BundleMeta;
  const entry = Object.keys(meta.outputs).find((k) => k.endsWith('bundle/engram.js')) as string;
  const loaded = staticClosure(meta, entry);
  const heavy = ['node_modules/', 'src/store/', 'src/engram.ts', 'src/mcp/', 'src/cli/run-cli.ts'];
  for (const chunk of loaded) {
    for (const input of Object.keys(meta.outputs[chunk]?.inputs ?? {})) {
      assert.ok(!heavy.some((h) => input.includes(h)), `${chunk} (loaded by engram.js) holds ${input}`);
    }
    for (const i of meta.outputs[chunk]?.imports ?? []) {
      if (i.kind === 'import-statement') assert.ok(i.external !== true || i.path.startsWith('node:'), `${chunk} imports ${i.path}`);
    }
  }
  // Every command module and the MCP shell sit in chunks no other command loads statically.
  const holding = (input: string) => Object.keys(meta.outputs).filter((k) => input in (meta.outputs[k]?.inputs ?? {}));
  const search = holding('src/cli/commands/search.ts');
  const mcp = holding('src/mcp/main.ts');
  assert.equal(search.length, 1, 'one chunk holds the search command');
  assert.equal(mcp.length, 1, 'one chunk holds the MCP shell');
  const list = Object.keys(meta.outputs).find((k) => 'src/cli/commands/list.ts' in (meta.outputs[k]?.inputs ?? {})) as string;
  const listLoads = staticClosure(meta, list);
  assert.ok(!listLoads.has(search[0] as string) && !listLoads.has(mcp[0] as string), 'list loads neither search nor the MCP shell');
  // An agent's session hook starts without the command-line parser (src/cli/hook-fast.ts).
  const hookLine = holding('src/cli/hook-fast.ts');
  assert.equal(hookLine.length, 1, 'one chunk holds the hook line');
  for (const chunk of staticClosure(meta, hookLine[0] as string)) {
    for (const input of Object.keys(meta.outputs[chunk]?.inputs ?? {})) {
      assert.ok(!input.includes('node_modules/commander/') && !input.includes('src/cli/run-cli.ts'), `the hook line loads ${input}`);
    }
  }
  // The hot commands validate a valid input without zod (src/items/light-check.ts): what they
  // load, the command, the facade, the store and the operation, holds no zod module; the zod
  // schemas come in their own chunks, loaded only for an input the light check leaves to them.
  const hot = [
    'src/cli/commands/list.ts', 'src/cli/commands/search.ts', 'src/cli/commands/recall.ts', 'src/cli/commands/get.ts',
    'src/cli/commands/put.ts', 'src/cli/hook-fast.ts', 'src/cli/commands/hook.ts', 'src/engram.ts',
    'src/store/sqlite/store.ts', 'src/items/read.ts', 'src/retrieval/search.ts', 'src/retrieval/recall.ts',
    'src/retrieval/brief.ts', 'src/put/put.ts',
  ];
  const hotLoads = new Set<string>();
  for (const source of hot) {
    const chunks = holding(source);
    assert.equal(chunks.length, 1, `one chunk holds ${source}`);
    for (const chunk of staticClosure(meta, chunks[0] as string)) hotLoads.add(chunk);
  }
  for (const chunk of hotLoads) {
    for (const input of Object.keys(meta.outputs[chunk]?.inputs ?? {})) {
      assert.ok(!input.includes('node_modules/zod/'), `${chunk} (loaded by a hot command) holds ${input}`);
    }
  }
  // A recall masks the secrets of the query it records with the secret rules alone
  // (policy/secret-spans.ts): it loads neither the injection lexicon nor the screen of every rule.
  for (const source of ['src/cli/commands/recall.ts', 'src/retrieval/recall.ts', 'src/cli/hook-fast.ts']) {
    for (const chunk of staticClosure(meta, holding(source)[0] as string)) {
      for (const input of ['src/policy/injection-sources.generated.ts', 'src/policy/screen-literals.generated.ts']) {
        assert.ok(!(input in (meta.outputs[chunk]?.inputs ?? {})), `${source} loads ${input} (in ${chunk})`);
      }
    }
  }
  for (const schemas of ['src/items/schemas.ts', 'src/retrieval/search-schema.ts', 'src/retrieval/recall-schema.ts']) {
    assert.ok(!holding(schemas).some((chunk) => hotLoads.has(chunk)), `a hot command loads ${schemas} before it needs it`);
  }
});

test('VERSION matches package.json', async () => {
  const { VERSION } = await import('../src/version.js');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  assert.equal(VERSION, pkg.version);
});

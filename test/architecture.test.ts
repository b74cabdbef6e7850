/**
 * Import directions (ARCHITECTURE.md §1): shells → engram.ts → feature folders → store → types,
 * errors, util. Also: only store/ touches the driver, only entry points read the environment, and
 * `engram --help` loads no heavy module.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

interface ImportRef {
  specifier: string;
  lazy: boolean;
}

function importsOf(file: string): ImportRef[] {
  const text = readFileSync(file, 'utf8');
  const refs: ImportRef[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gm)) {
    if (!m[1]) refs.push({ specifier: m[2] ?? '', lazy: false });
  }
  for (const m of text.matchAll(/^\s*import\s+'([^']+)'/gm))
    refs.push({ specifier: m[1] ?? '', lazy: false });
  for (const m of text.matchAll(/import\(\s*'([^']+)'\s*\)/g))
    refs.push({ specifier: m[1] ?? '', lazy: true });
  return refs;
}

/** Folder of a file relative to src/ ('' for top-level files). */
function area(file: string): string {
  const rel = relative(SRC, file);
  return rel.includes('/') ? (rel.split('/')[0] ?? '') : rel.replace(/\.ts$/, '');
}

function target(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
}

const files = sourceFiles();

test('only store/ imports the SQLite driver; only mcp/ imports the MCP SDK', () => {
  for (const file of files) {
    for (const { specifier } of importsOf(file)) {
      if (specifier === 'better-sqlite3') assert.equal(area(file), 'store', relative(ROOT, file));
      if (specifier.startsWith('@modelcontextprotocol/'))
        assert.equal(area(file), 'mcp', relative(ROOT, file));
    }
  }
});

test('dependencies point down: nothing imports the shells, features never import the facade', () => {
  const shells = new Set(['cli', 'mcp']);
  const lowest = new Set(['types', 'errors', 'util', 'version']);
  for (const file of files) {
    const from = area(file);
    for (const { specifier, lazy } of importsOf(file)) {
      const to = target(file, specifier);
      if (to === undefined) continue;
      const toArea = area(to);
      const where = `${relative(ROOT, file)} → ${specifier}`;
      // `engram serve` is the one door from the CLI into the MCP shell, and it is opened lazily.
      const serves = from === 'cli' && toArea === 'mcp' && lazy;
      if (shells.has(toArea) && !serves) assert.equal(toArea, from, `${where}: only a shell imports itself`);
      if (toArea === 'engram')
        assert.ok(shells.has(from) || from === 'index', `${where}: only shells use the facade`);
      if (from === 'store')
        assert.ok(
          toArea === 'store' || lowest.has(toArea),
          `${where}: store sits above types/errors/util only`,
        );
      if (lowest.has(from))
        assert.ok(lowest.has(toArea), `${where}: the lowest layer imports nothing above it`);
    }
  }
});

test('only the CLI entry point reads process.env; nothing but cli/output.ts writes to stdout', () => {
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
      .join('\n');
    const rel = relative(SRC, file);
    if (/process\.env\b/.test(text)) assert.equal(rel, 'cli/main.ts', rel);
    if (/process\.stdout\b/.test(text)) assert.ok(['cli/main.ts'].includes(rel), rel);
    assert.doesNotMatch(text, /console\.(log|info|warn|error|debug)\(/, rel);
  }
});

test('engram --help and --version load no heavy module: the static import graph of the CLI stays light', () => {
  const heavy = ['better-sqlite3', 'zod', '@modelcontextprotocol/sdk'];
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

test('VERSION matches package.json', async () => {
  const { VERSION } = await import('../src/version.js');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  assert.equal(VERSION, pkg.version);
});

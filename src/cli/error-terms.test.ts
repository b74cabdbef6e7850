import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EngramError, type ErrorFix, FIX_HINTS, FIX_MESSAGES, toEngramError } from '../errors.js';
import { inCliTerms } from './error-terms.js';

/** A CLI flag or an `engram` command line: what a hint outside the shells must not name. */
const CLI_WORDS = /(?:^|[\s(`/])--[a-z]|`engram |\| engram\b/;

const FIXES = Object.keys(FIX_HINTS).filter((k): k is ErrorFix => Object.hasOwn(FIX_HINTS, k));

test('the neutral sentence of every fix names no CLI flag or command; the CLI says each its own way', () => {
  for (const fix of FIXES) {
    assert.doesNotMatch(FIX_HINTS[fix], CLI_WORDS, fix);
    const error = new EngramError('PARAM_ERROR', 'x', { hint: `Nothing was stored. ${FIX_HINTS[fix]}`, fix });
    const cli = inCliTerms(error).hint ?? '';
    assert.ok(cli.startsWith('Nothing was stored. '), fix);
    assert.notEqual(cli, error.hint, `${fix} has a CLI wording`);
  }
  for (const message of Object.values(FIX_MESSAGES)) assert.doesNotMatch(message, CLI_WORDS);
});

test('in CLI terms: the hint and message of today, the same code, details and cause; no fix in the JSON', () => {
  const cause = new Error('inner');
  const error = new EngramError('PARAM_ERROR', FIX_MESSAGES.key_needs_layer, {
    hint: FIX_HINTS.key_needs_layer,
    fix: 'key_needs_layer',
    details: { field: 'key' },
    cause,
  });
  const cli = inCliTerms(error);
  assert.deepEqual(cli.toJSON(), {
    ok: false,
    error: 'PARAM_ERROR',
    message: '--key needs --layer to address an item',
    hint: 'Use --layer project|feature|run with --key, or --id to update by id.',
    field: 'key',
  });
  assert.equal(cli.cause, cause);
  assert.equal('fix' in error.toJSON(), false);
  assert.equal(inCliTerms(toEngramError(cause)).hint, 'Run again with --verbose for details.');
  const plain = new EngramError('NOT_FOUND', 'gone', { hint: 'look elsewhere' });
  assert.equal(inCliTerms(plain), plain);
});

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

test('no hint thrown outside the CLI and MCP shells names a CLI flag or an engram command line', () => {
  const shells = ['cli/', 'mcp/'];
  for (const file of sourceFiles(SRC)) {
    const rel = relative(SRC, file).split('\\').join('/');
    if (shells.some((s) => rel.startsWith(s))) continue;
    const hints = readFileSync(file, 'utf8').match(/\bhint: [^\n]*/g) ?? [];
    for (const hint of hints) assert.doesNotMatch(hint, CLI_WORDS, `${rel}: ${hint}`);
  }
});

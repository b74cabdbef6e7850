/**
 * engram's `[mcp_servers.engram]` table in Codex's config.toml. Setup appends it at the end of the
 * file between two marker comments and teardown takes exactly those lines out, so comments,
 * blank lines and every other table keep their bytes; each result is parsed again with
 * @decimalturn/toml-patch and must equal the old document with only engram's entry added or
 * removed, or nothing is written.
 *
 * Why not toml-patch's own `patch` for every edit: it keeps comments and layout, but places a new
 * entry as a dotted key in the root table (`mcp_servers.engram = {…}`) when the servers are
 * `[mcp_servers.x]` tables, and removing that key also removes a comment line above it. The
 * library's `patch` is used only where an appended table cannot go (an inline `mcp_servers = {…}`)
 * and for an entry written by hand, outside the markers.
 */
import { isDeepStrictEqual } from 'node:util';
import { parse, patch } from '@decimalturn/toml-patch';
import { EngramError } from '../errors.js';
import { addBlock, blockText, type Markers, removeBlock } from './marked-block.js';
import { codexTable, type Launch, SERVER_NAME } from './server-entry.js';

export const TOML_MARKERS: Markers = Object.freeze({
  begin: '# engram:begin (written by `engram setup codex`; `engram teardown codex` removes this table)',
  end: '# engram:end',
});

type TomlTable = Record<string, unknown>;

/** The parsed document; PARAM_ERROR naming the file when it is not valid TOML. */
function parseToml(text: string, file: string): TomlTable {
  try {
    return parse(text) as TomlTable;
  } catch (error) {
    throw new EngramError('PARAM_ERROR', `${file} is not valid TOML`, {
      hint: 'Fix the file (or move it away) and run the command again; nothing was changed.',
      details: { path: file },
      cause: error,
    });
  }
}

function servers(doc: TomlTable): TomlTable | undefined {
  const value = doc.mcp_servers;
  return typeof value === 'object' && value !== null ? (value as TomlTable) : undefined;
}

/** `doc` with engram's entry set to `entry` (undefined: removed, and an emptied server table too). */
function withEntry(doc: TomlTable, entry: unknown): TomlTable {
  const rest = { ...servers(doc) };
  delete rest[SERVER_NAME];
  const list = entry === undefined ? rest : { ...rest, [SERVER_NAME]: entry };
  const next: TomlTable = { ...doc, mcp_servers: list };
  if (Object.keys(list).length === 0) delete next.mcp_servers;
  return next;
}

/** engram's entry in a config.toml, if any. */
export function tomlEngramEntry(text: string, file: string): unknown {
  return plain(servers(parseToml(text, file))?.[SERVER_NAME]);
}

/** The entry as Codex reads it: command, args and env. */
function entryOf(launch: Launch): TomlTable {
  return { command: launch.command, args: launch.args, ...(launch.env ? { env: launch.env } : {}) };
}

/** A parsed value as plain objects and arrays (the parser's tables have no prototype). */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
}

/** `doc` as plain data, an empty `mcp_servers` dropped, so that "no servers" compares equal either way. */
function normalized(doc: TomlTable): unknown {
  return plain(withEntry(doc, servers(doc)?.[SERVER_NAME]));
}

/** True when `text` parses to `expected`. */
function means(text: string, expected: TomlTable): boolean {
  try {
    return isDeepStrictEqual(normalized(parse(text) as TomlTable), normalized(expected));
  } catch {
    return false;
  }
}

function unverified(file: string): EngramError {
  return new EngramError('GENERAL_ERROR', `Cannot edit ${file} safely: the result would not read back as the same configuration with engram's entry changed`, {
    hint: 'Add the [mcp_servers.engram] table by hand (the MCP configuration snippet for codex); nothing was changed.',
    details: { path: file },
  });
}

/** `text` with engram's table: the marked table appended (or replaced), else the library's patch. */
export function addTomlServer(text: string, launch: Launch, file: string): string {
  const doc = parseToml(text, file);
  const expected = withEntry(doc, entryOf(launch));
  const outside = servers(doc)?.[SERVER_NAME] !== undefined && blockText(text, TOML_MARKERS) === undefined;
  if (!outside) {
    const appended = addBlock(text, codexTable(launch), TOML_MARKERS);
    if (means(appended, expected)) return appended;
  }
  const patched = patch(text, expected);
  if (means(patched, expected)) return patched;
  throw unverified(file);
}

/** `text` without engram's table: the marked lines taken out, else the library's patch. */
export function removeTomlServer(text: string, file: string): string {
  const doc = parseToml(text, file);
  const expected = withEntry(doc, undefined);
  if (blockText(text, TOML_MARKERS) !== undefined) {
    const removed = removeBlock(text, TOML_MARKERS);
    if (means(removed, expected)) return removed;
  }
  const patched = patch(text, expected);
  if (means(patched, expected)) return patched;
  throw unverified(file);
}

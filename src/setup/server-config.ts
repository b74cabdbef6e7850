/**
 * engram's server entry in a client's configuration file: its state, and the file with it added
 * or removed. JSON(C) files are edited through `json-edit.ts`; Codex's TOML through a marked
 * `[mcp_servers.engram]` table at the end of the file (see `toml-server.ts`).
 */
import { isDeepStrictEqual } from 'node:util';
import { EngramError } from '../errors.js';
import { hasPath, isEmptyAt } from './hooks.js';
import { jsonTree, jsonValue, removeMember, setProperty } from './json-edit.js';
import { isEngramServer, type Launch, type McpClient, SERVER_NAME, serverValue, SERVERS_KEY } from './server-entry.js';
import { addTomlServer, removeTomlServer, tomlEngramEntry } from './toml-server.js';

/**
 * `wired`: the entry setup would write; `differs`: an entry that runs `engram serve` otherwise
 * (another store); `foreign`: an entry named engram that runs something else; `absent`: none.
 */
export type ServerState = 'wired' | 'differs' | 'foreign' | 'absent';

/** The engram entry a file holds, if any. */
function currentEntry(client: McpClient, text: string, file: string): unknown {
  if (client === 'codex') return tomlEngramEntry(text, file);
  jsonTree(text, file);
  const servers = (jsonValue(text) as Record<string, unknown>)[SERVERS_KEY[client]];
  return typeof servers === 'object' && servers !== null ? (servers as Record<string, unknown>)[SERVER_NAME] : undefined;
}

/** The state of engram's entry in `text` (the file's content; '' when there is no file). */
export function serverState(client: McpClient, text: string, launch: Launch, file: string): ServerState {
  const entry = currentEntry(client, text, file);
  if (entry === undefined) return 'absent';
  if (!isEngramServer(entry)) return 'foreign';
  const wanted = client === 'codex' ? { command: launch.command, args: launch.args, ...(launch.env ? { env: launch.env } : {}) } : serverValue(client, launch);
  return isDeepStrictEqual(entry, wanted) ? 'wired' : 'differs';
}

function foreign(file: string): EngramError {
  return new EngramError('CONFLICT', `${file} already has a server named "${SERVER_NAME}" that does not run \`engram serve\``, {
    hint: 'Rename or remove that entry by hand, then run setup again; nothing was changed.',
    details: { path: file },
  });
}

/** `text` with engram's entry: added, or replacing one that runs `engram serve` otherwise. */
export function addServer(client: McpClient, text: string, launch: Launch, file: string): string {
  const state = serverState(client, text, launch, file);
  if (state === 'wired') return text;
  if (state === 'foreign') throw foreign(file);
  if (client === 'codex') return addTomlServer(text, launch, file);
  return setProperty(text, [SERVERS_KEY[client]], SERVER_NAME, serverValue(client, launch), file);
}

/**
 * `text` without engram's entry (one that runs `engram serve`); the server list goes too when it
 * is left empty and `original` (the file before setup, when known) had none.
 */
export function removeServer(client: McpClient, text: string, original: unknown, file: string): string {
  const entry = currentEntry(client, text, file);
  if (entry === undefined || !isEngramServer(entry)) return text;
  if (client === 'codex') return removeTomlServer(text, file);
  const key = SERVERS_KEY[client];
  const next = removeMember(text, [key, SERVER_NAME]);
  return isEmptyAt(next, [key]) && !hasPath(original, [key]) ? removeMember(next, [key]) : next;
}

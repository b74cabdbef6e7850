/**
 * Which agent clients have an `engram` MCP server in their configuration, for `engram status`.
 * Reads the clients' documented configuration files (project and user), never writes them; a file
 * that is missing is not listed, one that cannot be parsed is listed with the problem. A stand-in
 * until `engram setup` knows the clients itself: one function, replaceable as a whole.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type ClientScope = 'project' | 'user';

/** One client configuration file found, and whether it names an `engram` server. */
export interface WiredClient {
  client: string;
  scope: ClientScope;
  file: string;
  wired: boolean;
  /** Why the file could not be read or parsed. */
  problem?: string;
}

export interface WiredClientsOptions {
  /** The project directory (where `.mcp.json`, `.cursor/`, `.vscode/` live). */
  project: string;
  home: string;
}

type Format = 'json' | 'toml';

interface ClientFile {
  client: string;
  scope: ClientScope;
  path: string;
  format: Format;
  /** The server tables of a parsed JSON file where `engram` may be a key. */
  servers?: (config: Record<string, unknown>) => unknown[];
}

const SERVER_NAME = 'engram';

const key = (name: string) => (config: Record<string, unknown>) => [config[name]];

function clientFiles({ project, home }: WiredClientsOptions): ClientFile[] {
  const dir = resolve(project);
  return [
    { client: 'claude-code', scope: 'project', path: join(dir, '.mcp.json'), format: 'json', servers: key('mcpServers') },
    {
      client: 'claude-code',
      scope: 'user',
      path: join(home, '.claude.json'),
      format: 'json',
      // User servers, and the project's local ones (`claude mcp add --scope local`).
      servers: (c) => [c.mcpServers, (asObject(c.projects)?.[dir] as Record<string, unknown> | undefined)?.mcpServers],
    },
    { client: 'cursor', scope: 'project', path: join(dir, '.cursor', 'mcp.json'), format: 'json', servers: key('mcpServers') },
    { client: 'cursor', scope: 'user', path: join(home, '.cursor', 'mcp.json'), format: 'json', servers: key('mcpServers') },
    { client: 'vscode', scope: 'project', path: join(dir, '.vscode', 'mcp.json'), format: 'json', servers: key('servers') },
    { client: 'opencode', scope: 'project', path: join(dir, 'opencode.json'), format: 'json', servers: key('mcp') },
    { client: 'codex', scope: 'user', path: join(home, '.codex', 'config.toml'), format: 'toml' },
  ];
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Blanks and comments, then a closing bracket: a comma before it is a trailing one. */
const CLOSING = /(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*[}\]]/y;

function closesNext(text: string, at: number): boolean {
  CLOSING.lastIndex = at;
  return CLOSING.test(text);
}

/** JSON with comments and trailing commas (the clients' files allow them) as plain JSON. */
export function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (c === ',' && closesNext(text, i + 1)) {
      // A trailing comma: dropped.
    } else {
      out += c;
    }
  }
  return out;
}

/** True when a TOML file has an `[mcp_servers.engram]` table (a header match, not a TOML parse). */
function tomlNamesEngram(text: string): boolean {
  return /^\s*\[\s*mcp_servers\s*\.\s*(?:engram|"engram"|'engram')\s*\]/m.test(text);
}

function inspect(file: ClientFile): WiredClient | undefined {
  let text: string;
  try {
    text = readFileSync(file.path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return { client: file.client, scope: file.scope, file: file.path, wired: false, problem: `cannot read (${code ?? 'error'})` };
  }
  const found = { client: file.client, scope: file.scope, file: file.path };
  if (file.format === 'toml') return { ...found, wired: tomlNamesEngram(text) };
  let config: Record<string, unknown> | undefined;
  try {
    config = asObject(JSON.parse(text));
  } catch {
    try {
      config = asObject(JSON.parse(stripJsonComments(text)));
    } catch {
      config = undefined;
    }
  }
  if (config === undefined) return { ...found, wired: false, problem: 'not a JSON object' };
  const wired = (file.servers?.(config) ?? []).some((servers) => asObject(servers)?.[SERVER_NAME] !== undefined);
  return { ...found, wired };
}

/**
 * The client configuration files present for `project` and `home`, each saying whether it names
 * an `engram` server.
 *
 * @example
 * wiredClients({ project: process.cwd(), home: os.homedir() }).filter((c) => c.wired);
 */
export function wiredClients(options: WiredClientsOptions): WiredClient[] {
  return clientFiles(options).flatMap((file) => inspect(file) ?? []);
}

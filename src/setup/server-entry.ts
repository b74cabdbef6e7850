/**
 * The server entry that registers `engram serve` with an MCP client, in each client's own shape:
 * the snippet `engram mcp config` prints and the entry `engram setup` merges into the client's file
 * are built here, once. The entry runs the `engram` on the PATH with no path of this machine, so a
 * project file holding it can be committed; `--db` alone pins a store, as `ENGRAM_DB` in the
 * server's environment, exactly as given.
 */

/** The clients engram knows how to register with. */
export const MCP_CLIENTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex', 'opencode'] as const;

export type McpClient = (typeof MCP_CLIENTS)[number];

/** How a client starts the server. */
export interface Launch {
  command: string;
  args: string[];
  /** `ENGRAM_DB`, only when `--db` was given. */
  env?: Record<string, string>;
}

/** The name of the server entry in every client's configuration. */
export const SERVER_NAME = 'engram';

/** The command every entry runs: the CLI on the PATH, as `npm install -g engram` puts it there. */
export const SERVE_LAUNCH: Launch = Object.freeze({ command: 'engram', args: ['serve'] });

/**
 * The launch for a store pinned by `--db` (as given), or the discovering one.
 *
 * @example
 * launchFor('notes/memory.db'); // { command: 'engram', args: ['serve'], env: { ENGRAM_DB: 'notes/memory.db' } }
 */
export function launchFor(db: string | undefined): Launch {
  return db === undefined || db === '' ? SERVE_LAUNCH : { ...SERVE_LAUNCH, env: { ENGRAM_DB: db } };
}

/** A JSON value as configuration files hold it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The key under which each JSON client lists its servers. */
export const SERVERS_KEY: Readonly<Record<Exclude<McpClient, 'codex'>, string>> = Object.freeze({
  'claude-code': 'mcpServers',
  'claude-desktop': 'mcpServers',
  'cursor': 'mcpServers',
  'vscode': 'servers',
  'opencode': 'mcp',
});

/**
 * The value of the `engram` entry in a JSON client's server list.
 *
 * @example
 * serverValue('opencode', SERVE_LAUNCH); // { type: 'local', command: ['engram', 'serve'] }
 */
export function serverValue(client: Exclude<McpClient, 'codex'>, launch: Launch): { [key: string]: JsonValue } {
  if (client === 'opencode') {
    return { type: 'local', command: [launch.command, ...launch.args], ...(launch.env ? { environment: launch.env } : {}) };
  }
  const server = { command: launch.command, args: launch.args, ...(launch.env ? { env: launch.env } : {}) };
  return client === 'vscode' ? { type: 'stdio', ...server } : server;
}

/**
 * The command line a client's entry starts (`command` and `args`, or OpenCode's `command` array),
 * or undefined when `value` is not a server entry.
 */
export function entryCommand(value: unknown): string[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { command, args } = value as { command?: unknown; args?: unknown };
  const words = Array.isArray(command) ? command : [command, ...(Array.isArray(args) ? args : [])];
  return words.every((w) => typeof w === 'string') && words.length > 0 ? (words as string[]) : undefined;
}

/** True when an entry runs `engram serve` (whatever its store): one `engram setup` may replace or remove. */
export function isEngramServer(value: unknown): boolean {
  const words = entryCommand(value);
  return words !== undefined && words[0] === SERVE_LAUNCH.command && words[1] === 'serve';
}

const tomlString = (s: string) => JSON.stringify(s);

/** Codex's `[mcp_servers.engram]` table, one line per key. */
export function codexTable(launch: Launch): string[] {
  const env = Object.entries(launch.env ?? {}).map(([k, v]) => `${k} = ${tomlString(v)}`);
  return [
    `[mcp_servers.${SERVER_NAME}]`,
    `command = ${tomlString(launch.command)}`,
    `args = [${launch.args.map(tomlString).join(', ')}]`,
    ...(env.length > 0 ? [`env = { ${env.join(', ')} }`] : []),
  ];
}

/**
 * The snippet `engram mcp config --client NAME` prints: the whole file a client would read with
 * only engram in it.
 */
export function mcpSnippet(client: McpClient, launch: Launch): string {
  if (client === 'codex') return codexTable(launch).join('\n');
  return JSON.stringify({ [SERVERS_KEY[client]]: { [SERVER_NAME]: serverValue(client, launch) } }, null, 2);
}

/**
 * `engram setup --list`: for every client, whether it is installed (its command on the PATH, or
 * its configuration folder present) and whether engram is wired in, per scope.
 */
import { existsSync, readFileSync } from 'node:fs';
import { CLIENTS, type ClientDirs, type Scope } from './clients.js';
import { onPath } from './on-path.js';
import { type ServerState, serverState } from './server-config.js';
import { launchFor, MCP_CLIENTS, type McpClient } from './server-entry.js';

/** engram's entry in one scope's server file; `unreadable` when the file does not parse. */
export interface ScopeStatus {
  file: string;
  state: ServerState | 'unreadable';
  /** True when the entry runs `engram serve` (whatever its store). */
  wired: boolean;
}

export interface ClientStatus {
  client: McpClient;
  label: string;
  installed: boolean;
  /** What shows it installed: `claude on PATH`, a configuration folder. */
  found: string[];
  default_scope: Scope;
  scopes: Partial<Record<Scope, ScopeStatus>>;
}

function scopeStatus(client: McpClient, file: string): ScopeStatus {
  if (!existsSync(file)) return { file, state: 'absent', wired: false };
  try {
    const state = serverState(client, readFileSync(file, 'utf8'), launchFor(undefined), file);
    return { file, state, wired: state === 'wired' || state === 'differs' };
  } catch {
    return { file, state: 'unreadable', wired: false };
  }
}

/** Every client's status, for the project at `project`. */
export function listClients(dirs: ClientDirs, project: string, searchPath: string): ClientStatus[] {
  return MCP_CLIENTS.map((client) => {
    const spec = CLIENTS[client];
    const found = [
      ...spec.commands.filter((c) => onPath(c, searchPath, dirs.platform)).map((c) => `${c} on PATH`),
      ...spec.dirs(dirs).filter((d) => existsSync(d)),
    ];
    const scopes: Partial<Record<Scope, ScopeStatus>> = {};
    for (const scope of spec.scopes) scopes[scope] = scopeStatus(client, spec.files(scope, dirs, project).server);
    return { client, label: spec.label, installed: found.length > 0, found, default_scope: spec.defaultScope, scopes };
  });
}

/**
 * What `engram setup` and `engram teardown` would change, file by file, computed from the files as
 * they are and written by nothing: `apply.ts` writes a plan, `--dry-run` shows it as a diff.
 * Setup adds engram's server entry, the instructions section and the hook entries; teardown takes
 * out what setup added, and a file that ends up as it was before setup (its backup) gets the
 * backup's exact bytes back, one that setup created is removed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { CLIENTS, type ClientDirs, type Scope } from './clients.js';
import { addHooks, removeHooks, wantedEvents } from './hooks.js';
import { INSTRUCTION_LINES, INSTRUCTION_MARKERS } from './instructions.js';
import { jsonTokens, jsonValue } from './json-edit.js';
import { addBlock, removeBlock } from './marked-block.js';
import { addServer, removeServer, serverState } from './server-config.js';
import { launchFor, MCP_CLIENTS, type McpClient } from './server-entry.js';

/** The suffix of the copy setup keeps of a file before its first change. */
export const BACKUP_SUFFIX = '.engram-backup';

export type Part = 'server' | 'instructions' | 'hooks';

export interface SetupOptions {
  client: McpClient;
  scope: Scope;
  /** The project directory (the working directory). */
  project: string;
  dirs: ClientDirs;
  /** `--db` as given: the store pinned as ENGRAM_DB. */
  db?: string;
  /** Install the prompt-submit hook too. */
  promptHook?: boolean;
}

/** One file of a plan: its content now and after (undefined: no file). */
export interface FileChange {
  path: string;
  parts: Part[];
  before: string | undefined;
  after: string | undefined;
  /**
   * Setup: the file holds something of its own, so a copy is kept before the first change (a file
   * holding only what setup writes needs none: teardown removes it).
   */
  backup: boolean;
}

export interface SetupPlan {
  action: 'setup' | 'teardown';
  client: McpClient;
  scope: Scope;
  /** Every file the client's setup concerns, changed or not. */
  files: FileChange[];
  /** Backups teardown removes: the file is back to their bytes. */
  dropBackups: string[];
  /** What setup does not do for this client, and why. */
  notes: string[];
}

function readText(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** The files of a plan, each read once and edited in turn by every part that lives in it. */
class Files {
  readonly list: FileChange[] = [];
  /** Per file, what takes engram's parts out again (setup: to tell a file of setup's own). */
  readonly strips = new Map<string, ((text: string) => string)[]>();

  edit(path: string, part: Part, change: (text?: string) => string | undefined, strip?: (text: string) => string) {
    let file = this.list.find((f) => f.path === path);
    if (file === undefined) {
      const before = readText(path);
      file = { path, parts: [], before, after: before, backup: false };
      this.list.push(file);
    }
    file.parts.push(part);
    file.after = change(file.after);
    if (strip !== undefined) this.strips.set(path, [...(this.strips.get(path) ?? []), strip]);
  }

  /** Marks the files that hold more than what setup writes (`header`: what setup starts a new one with). */
  markBackups(headers: ReadonlyMap<string, string>): void {
    for (const file of this.list) {
      if (file.before === undefined || file.before === file.after) continue;
      const before = file.before;
      // A file that holds engram's parts and nothing else was made by setup; an empty one is the user's.
      try {
        const stripped = (this.strips.get(file.path) ?? []).reduce((text, strip) => strip(text), before);
        file.backup = stripped === before || !isBare(file.path, stripped, headers.get(file.path) ?? '');
      } catch {
        file.backup = true;
      }
    }
  }
}

/** What `engram setup CLIENT` changes. */
export function planSetup(options: SetupOptions): SetupPlan {
  const { client, scope } = options;
  const files = CLIENTS[client].files(scope, options.dirs, options.project);
  const plan = new Files();
  const notes: string[] = [];
  const headers = new Map<string, string>();
  plan.edit(
    files.server,
    'server',
    (text) => addServer(client, text ?? '', launchFor(options.db), files.server),
    (text) => removeServer(client, text, {}, files.server),
  );
  if ('file' in files.instructions) {
    const { file, header } = files.instructions;
    headers.set(file, header);
    plan.edit(file, 'instructions', (text) => addBlock(text ?? header, INSTRUCTION_LINES, INSTRUCTION_MARKERS), (text) => removeBlock(text, INSTRUCTION_MARKERS));
  } else {
    notes.push(`no instructions file: ${files.instructions.none}`);
  }
  if ('file' in files.hooks) {
    const { file, table } = files.hooks;
    const events = wantedEvents(table, options.promptHook === true);
    plan.edit(file, 'hooks', (text) => addHooks(text ?? '', table, events, options.db, file), (text) => removeHooks(text, table, {}));
  } else {
    notes.push(`no hooks: ${files.hooks.none}`);
  }
  plan.markBackups(headers);
  const approval = CLIENTS[client].approval?.[scope];
  if (approval !== undefined) notes.push(approval);
  return { action: 'setup', client, scope, files: plan.list, dropBackups: [], notes };
}

/** The other clients set up in the same scope whose instructions file is `path`. */
function sharersOf(options: SetupOptions, path: string): McpClient[] {
  return MCP_CLIENTS.filter((other) => {
    const spec = CLIENTS[other];
    if (other === options.client || !spec.scopes.includes(options.scope)) return false;
    const files = spec.files(options.scope, options.dirs, options.project);
    if (!('file' in files.instructions) || files.instructions.file !== path) return false;
    const text = readText(files.server);
    try {
      return text !== undefined && ['wired', 'differs'].includes(serverState(other, text, launchFor(undefined), files.server));
    } catch {
      return false;
    }
  });
}

/** The file's JSON value before setup, from its backup ({} when there is none). */
function originalJson(path: string): unknown {
  const backup = readText(path + BACKUP_SUFFIX);
  try {
    return backup === undefined ? {} : jsonValue(backup);
  } catch {
    return {};
  }
}

/** True when a file setup created holds nothing but what it started with. */
function isBare(path: string, text: string, header: string): boolean {
  if (path.endsWith('.json') || path.endsWith('.jsonc')) {
    const tokens = jsonTokens(text);
    return tokens.length === 0 || (tokens.length === 2 && tokens[0] === '{' && tokens[1] === '}');
  }
  return text.trim() === '' || text === header;
}

/** What `engram teardown CLIENT` changes. */
export function planTeardown(options: SetupOptions): SetupPlan {
  const { client, scope } = options;
  const files = CLIENTS[client].files(scope, options.dirs, options.project);
  const plan = new Files();
  const notes: string[] = [];
  const headers = new Map<string, string>();
  plan.edit(files.server, 'server', (text) => (text === undefined ? text : removeServer(client, text, originalJson(files.server), files.server)));
  if ('file' in files.instructions) {
    const { file, header } = files.instructions;
    headers.set(file, header);
    const sharers = sharersOf(options, file);
    if (sharers.length > 0) notes.push(`kept the instructions section in ${file}: ${sharers.join(', ')} still use${sharers.length === 1 ? 's' : ''} it`);
    else plan.edit(file, 'instructions', (text) => (text === undefined ? text : removeBlock(text, INSTRUCTION_MARKERS)));
  }
  if ('file' in files.hooks) {
    const { file, table } = files.hooks;
    plan.edit(file, 'hooks', (text) => (text === undefined ? text : removeHooks(text, table, originalJson(file))));
  }
  const dropBackups: string[] = [];
  for (const file of plan.list) {
    if (file.after === undefined) continue;
    const backupPath = file.path + BACKUP_SUFFIX;
    const backup = readText(backupPath);
    if (backup === undefined) {
      if (file.after !== file.before && isBare(file.path, file.after, headers.get(file.path) ?? '')) file.after = undefined;
      continue;
    }
    // Back to what it was but for layout: the backup's bytes, layout included.
    const json = file.path.endsWith('.json') || file.path.endsWith('.jsonc');
    if (json && file.after !== backup && jsonTokens(file.after).join('\n') === jsonTokens(backup).join('\n')) file.after = backup;
    if (file.after === backup) dropBackups.push(backupPath);
    else notes.push(`kept ${backupPath}: the file has changed since setup`);
  }
  return { action: 'teardown', client, scope, files: plan.list, dropBackups, notes };
}

/**
 * What `engram setup` and `engram teardown` would change, file by file, computed from the files as
 * they are and written by nothing: `apply.ts` writes a plan, `--dry-run` shows it as a diff.
 * Setup adds engram's server entry, the instructions section and the hook entries, and records
 * what it added in its manifest (`manifest.ts`); teardown takes out only what that record names:
 * a file that ends up as it was before setup (its backup) gets the backup's exact bytes back, one
 * that setup created is removed, with the folders setup created for it.
 */
import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { EngramError } from '../errors.js';
import { CLIENTS, type ClientDirs, type Scope } from './clients.js';
import { addHooks, removeHooks, wantedEvents } from './hooks.js';
import { INSTRUCTION_LINES, INSTRUCTION_MARKERS } from './instructions.js';
import { jsonTokens, jsonValue } from './json-edit.js';
import { claims, type FileRecord, type Manifest, manifestPath, notAFile, type Part, readManifest, renderManifest } from './manifest.js';
import { addBlock, removeBlock } from './marked-block.js';
import { addServer, removeServer, serverState } from './server-config.js';
import { launchFor, type McpClient } from './server-entry.js';

export type { Part };

/** The suffix of the copy setup keeps of a file before its first change. */
export const BACKUP_SUFFIX = '.engram-backup';

const BOM = '\uFEFF';

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
  /** Setup: the file was there before setup, so a copy is kept before the first change. */
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
  /** Folders teardown removes when they are empty (setup created them), deepest first. */
  dropDirs: string[];
  /** Setup's record of what it added, now and after (undefined: no record). */
  manifest: { path: string; before: string | undefined; after: string | undefined };
  /** What setup did not do for this client, and why. */
  notes: string[];
}

/** A file's text, undefined when there is none; PARAM_ERROR for a folder or a dangling link. */
export function readText(path: string): string | undefined {
  try {
    lstatSync(path);
  } catch {
    return undefined;
  }
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new EngramError('PARAM_ERROR', `${path} is a link to a file that cannot be reached`, {
      hint: 'Fix or remove the link and run the command again; nothing was changed.',
      details: { path },
    });
  }
  if (!stat.isFile()) throw notAFile(path);
  return readFileSync(path, 'utf8');
}

/** `change` applied to a text without its byte order mark, the mark put back. */
function keepingBom(text: string | undefined, change: (text?: string) => string | undefined): string | undefined {
  if (text === undefined || !text.startsWith(BOM)) return change(text);
  const after = change(text.slice(BOM.length));
  return after === undefined ? after : BOM + after;
}

/** The folders missing above `path`, deepest first. */
function missingDirs(path: string): string[] {
  const out: string[] = [];
  let dir = dirname(path);
  while (!existsSync(dir) && dirname(dir) !== dir) {
    out.push(dir);
    dir = dirname(dir);
  }
  return out;
}

/** The files of a plan, each read once and edited in turn by every part that lives in it. */
class Files {
  readonly list: FileChange[] = [];

  constructor(private readonly client: McpClient, readonly manifest: Manifest) {}

  file(path: string): FileChange {
    let file = this.list.find((f) => f.path === path);
    if (file === undefined) {
      const before = readText(path);
      file = { path, parts: [], before, after: before, backup: false };
      this.list.push(file);
    }
    return file;
  }

  /** Setup: applies a part's change and records the client as its author when it changed the file (or shares it). */
  add(path: string, part: Part, change: (text?: string) => string | undefined): void {
    const file = this.file(path);
    file.parts.push(part);
    const was = file.after;
    file.after = keepingBom(was, change);
    const record = this.manifest.files[path];
    const others = record?.parts[part] ?? [];
    if (file.after === was && others.length === 0) return;
    const created = file.before === undefined;
    const entry: FileRecord = record ?? { created, dirs: created ? missingDirs(path) : [], parts: {} };
    if (!others.includes(this.client)) entry.parts[part] = [...others, this.client];
    this.manifest.files[path] = entry;
  }

  /** Teardown: applies a part's removal when this client's setup added the part. */
  remove(path: string, part: Part, change: (text: string) => string): boolean {
    const record = this.manifest.files[path];
    if (!claims(record, part, this.client) || record === undefined) return false;
    record.parts[part] = (record.parts[part] ?? []).filter((c) => c !== this.client);
    const file = this.file(path);
    file.parts.push(part);
    if (record.parts[part]?.length !== 0) return false;
    file.after = keepingBom(file.after, (text) => (text === undefined ? text : change(text)));
    return true;
  }
}

function rootOf(options: SetupOptions): string {
  return options.scope === 'project' ? options.project : options.dirs.home;
}

function manifestOf(options: SetupOptions): { path: string; before: string | undefined; manifest: Manifest } {
  const path = manifestPath(rootOf(options));
  return { path, before: readText(path), manifest: readManifest(path) };
}

/** What `engram setup CLIENT` changes. */
export function planSetup(options: SetupOptions): SetupPlan {
  const { client, scope } = options;
  const files = CLIENTS[client].files(scope, options.dirs, options.project);
  const record = manifestOf(options);
  const plan = new Files(client, record.manifest);
  const notes: string[] = [];
  const launch = launchFor(options.db);
  plan.add(files.server, 'server', (text) => {
    const current = text ?? '';
    if (serverState(client, current, launch, files.server) === 'differs' && !claims(record.manifest.files[files.server], 'server', client)) {
      notes.push(`kept the engram entry in ${files.server} as it is: it was there before setup and differs from the one setup writes`);
      return text;
    }
    return addServer(client, current, launch, files.server);
  });
  if ('file' in files.instructions) {
    const { file, header } = files.instructions;
    plan.add(file, 'instructions', (text) => addBlock(text ?? header, INSTRUCTION_LINES, INSTRUCTION_MARKERS));
  } else {
    notes.push(`no instructions file: ${files.instructions.none}`);
  }
  if ('file' in files.hooks) {
    const { file, table } = files.hooks;
    const events = wantedEvents(table, options.promptHook === true);
    plan.add(file, 'hooks', (text) => addHooks(text ?? '', table, events, options.db, file));
  } else {
    notes.push(`no hooks: ${files.hooks.none}`);
  }
  for (const file of plan.list) {
    const created = record.manifest.files[file.path]?.created === true;
    file.backup = file.before !== undefined && file.before !== file.after && !created;
  }
  const approval = CLIENTS[client].approval?.[scope];
  if (approval !== undefined) notes.push(approval);
  const manifest = { path: record.path, before: record.before, after: renderManifest(record.manifest) };
  return { action: 'setup', client, scope, files: plan.list, dropBackups: [], dropDirs: [], manifest, notes };
}

/** The file's JSON value before setup, from its backup ({} when there is none). */
function originalJson(path: string): unknown {
  const backup = readText(path + BACKUP_SUFFIX);
  try {
    return backup === undefined ? {} : jsonValue(backup.startsWith(BOM) ? backup.slice(1) : backup);
  } catch {
    return {};
  }
}

const isJson = (path: string) => path.endsWith('.json') || path.endsWith('.jsonc');

/** True when a text holds nothing but what setup starts a new file with. */
function isBare(path: string, text: string, header: string): boolean {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  if (isJson(path)) {
    const tokens = jsonTokens(body);
    return tokens.length === 0 || (tokens.length === 2 && tokens[0] === '{' && tokens[1] === '}');
  }
  return body.trim() === '' || body === header;
}

/** What `engram teardown CLIENT` changes. */
export function planTeardown(options: SetupOptions): SetupPlan {
  const { client, scope } = options;
  const files = CLIENTS[client].files(scope, options.dirs, options.project);
  const record = manifestOf(options);
  const plan = new Files(client, record.manifest);
  const notes: string[] = [];
  const headers = new Map<string, string>();
  plan.remove(files.server, 'server', (text) => removeServer(client, text, originalJson(files.server), files.server));
  if ('file' in files.instructions) {
    const { file, header } = files.instructions;
    headers.set(file, header);
    if (!plan.remove(file, 'instructions', (text) => removeBlock(text, INSTRUCTION_MARKERS))) {
      const sharers = record.manifest.files[file]?.parts.instructions ?? [];
      const verb = sharers.length === 1 ? 'uses' : 'use';
      if (sharers.length > 0) notes.push(`kept the instructions section in ${file}: ${sharers.join(', ')} still ${verb} it`);
    }
  }
  if ('file' in files.hooks) {
    const { file, table } = files.hooks;
    plan.remove(file, 'hooks', (text) => removeHooks(text, table, originalJson(file)));
  }
  const dropBackups: string[] = [];
  const dropDirs: string[] = [];
  for (const file of plan.list) {
    const entry = record.manifest.files[file.path];
    if (entry === undefined || Object.values(entry.parts).some((c) => c.length > 0)) continue;
    // Nothing of setup's is left in the file: its record goes, and the file gets its first bytes back.
    delete record.manifest.files[file.path];
    if (file.after === undefined) continue;
    const backupPath = file.path + BACKUP_SUFFIX;
    const backup = readText(backupPath);
    const header = headers.get(file.path) ?? '';
    if (backup === undefined) {
      if (entry.created && isBare(file.path, file.after, header)) {
        file.after = undefined;
        dropDirs.push(...entry.dirs);
      }
      continue;
    }
    // Back to what it was but for layout: the backup's bytes, layout included.
    const layoutOnly = isJson(file.path) && jsonTokens(file.after.replace(BOM, '')).join('\n') === jsonTokens(backup.replace(BOM, '')).join('\n');
    if (layoutOnly || (isBare(file.path, file.after, header) && isBare(file.path, backup, header))) file.after = backup;
    if (file.after === backup) dropBackups.push(backupPath);
    else notes.push(`kept ${backupPath}: the file has changed since setup`);
  }
  dropDirs.sort((a, b) => b.length - a.length);
  const manifest = { path: record.path, before: record.before, after: renderManifest(record.manifest) };
  return { action: 'teardown', client, scope, files: plan.list, dropBackups, dropDirs: [...new Set(dropDirs)], manifest, notes };
}

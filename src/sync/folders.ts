/**
 * The folders kept in sync (memctl's `mount`): a name for a directory, the scope and corpus its
 * chunks go to, and its ingest options. Registering one reads no file; `sync` does the work.
 * Removing one keeps its chunks: only a sync archives anything, and only chunks of files gone.
 */
import { realpathSync, statSync } from 'node:fs';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import type { OperationContext } from '../context.js';
import { EngramError } from '../errors.js';
import { folderChanges, type FolderChanges } from '../ingest/folder-changes.js';
import { requireCleanFields } from '../items/field-policy.js';
import { parseInput } from '../items/parse-input.js';
import { termsSchema, textSchema } from '../items/schemas.js';
import type { SyncedFolder } from '../types.js';

/** Names the CLI's `sync` subcommands take: a folder cannot have one (`engram sync list`). */
const RESERVED_NAMES = new Set(['add', 'list', 'remove']);

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `sync add`: the directory and how its files are ingested (name: the directory's own by default). */
export const folderInputSchema = z.strictObject({
  path: z.string().min(1),
  /** The directory `path` is relative to (default: the process's). */
  cwd: z.string().optional(),
  name: z.string().regex(NAME, { message: 'must be 1-64 letters, digits, dots, dashes or underscores' }).optional(),
  include: z.array(z.string()).optional(),
  exclude: z.array(z.string()).optional(),
  tags: termsSchema.optional(),
  format: z.enum(['text', 'auto']).optional(),
  scope: textSchema.min(1).optional(),
  corpus: textSchema.min(1).optional(),
});

export type FolderInput = z.input<typeof folderInputSchema>;

/** What registering a folder did: `created` false when it updated the options of one. */
export interface AddFolderResult {
  created: boolean;
  folder: SyncedFolder;
}

/** A folder with how far it is behind: files added, changed and removed since its last sync. */
export interface FolderState extends SyncedFolder {
  changes: FolderChanges;
}

/** The directory with its symbolic links resolved (as given when it is gone). */
function realDirectory(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function defaultName(path: string): string {
  const name = basename(path).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[._-]+/, '').slice(0, 64);
  if (!NAME.test(name)) {
    throw new EngramError('PARAM_ERROR', `No folder name can be made from ${path}`, { hint: 'Give the folder a name.' });
  }
  return name;
}

function requireDirectory(path: string): void {
  let directory = false;
  try {
    directory = statSync(path).isDirectory();
  } catch {
    throw new EngramError('NOT_FOUND', `No such directory: ${path}`, { hint: 'Check the path.' });
  }
  if (!directory) throw new EngramError('PARAM_ERROR', `Not a directory: ${path}`, { hint: 'Sync a directory; ingest a single file.' });
}

/**
 * The folder called `name`; NOT_FOUND, naming the known ones, for an unknown one.
 *
 * @example
 * const docs = await requireFolder(ctx, 'docs');
 */
export async function requireFolder({ store }: OperationContext, name: string): Promise<SyncedFolder> {
  const folder = await store.folders.get(name);
  if (folder !== undefined) return folder;
  const known = (await store.folders.list()).map((f) => f.name);
  throw new EngramError('NOT_FOUND', `No synced folder named ${name}`, {
    hint: known.length === 0 ? 'No folder is synced yet: add one first (sync add PATH).' : `Synced folders: ${known.join(', ')}.`,
    details: { folder: name },
  });
}

/**
 * Registers a directory to keep in sync, or updates the globs, tags and format of one registered
 * under the same name and path. A directory inside or around another synced folder, a name taken
 * by another directory, and a new scope or corpus for a registered folder are refused
 * (PARAM_ERROR): each file belongs to one folder, and its chunks stay where they were stored.
 *
 * @example
 * await addFolder(ctx, { path: 'docs', include: ['*.md'] });
 */
export async function addFolder(ctx: OperationContext, input: FolderInput): Promise<AddFolderResult> {
  const parsed = parseInput(folderInputSchema, input);
  const path = resolve(parsed.cwd ?? process.cwd(), parsed.path);
  requireDirectory(path);
  const name = parsed.name ?? defaultName(path);
  if (RESERVED_NAMES.has(name)) {
    throw new EngramError('PARAM_ERROR', `A synced folder cannot be called ${name}`, { hint: 'Give the folder another name.' });
  }
  const { store } = ctx;
  return store.transaction(async () => {
    const at = ctx.now();
    const existing = await store.folders.get(name);
    // Compared with their links resolved: a link to a synced folder, or into one, is that folder.
    const real = realDirectory(path);
    for (const other of await store.folders.list()) {
      const otherReal = realDirectory(other.path);
      if (other.name === name || !(isInside(otherReal, real) || isInside(real, otherReal))) continue;
      const how = otherReal === real ? 'is synced as' : 'overlaps the synced folder';
      throw new EngramError('PARAM_ERROR', `${path} ${how} ${other.name} (${other.path})`, {
        hint: 'Each file belongs to one synced folder: remove that one first, or narrow it with include and exclude globs.',
      });
    }
    if (existing !== undefined && existing.path !== path) {
      throw new EngramError('PARAM_ERROR', `The synced folder ${name} is ${existing.path}`, { hint: 'Give this one another name.' });
    }
    const scope = parsed.scope ?? existing?.scope ?? 'project';
    const corpus = parsed.corpus ?? existing?.corpus_id ?? '';
    if (existing !== undefined && (existing.scope !== scope || existing.corpus_id !== corpus)) {
      throw new EngramError('PARAM_ERROR', `The synced folder ${name} stores into scope ${existing.scope}${existing.corpus_id ? `, corpus ${existing.corpus_id}` : ''}`, {
        hint: 'Its chunks stay where they were stored: remove the folder and add it under another name to sync it elsewhere.',
      });
    }
    const folder: SyncedFolder = {
      name,
      path,
      scope,
      corpus_id: corpus,
      include: parsed.include ?? existing?.include ?? [],
      exclude: parsed.exclude ?? existing?.exclude ?? [],
      tags: parsed.tags ?? existing?.tags ?? [],
      format: parsed.format ?? existing?.format ?? 'text',
      added_at: existing?.added_at ?? at,
      synced_at: existing?.synced_at ?? null,
    };
    requireCleanFields({ name, path, scope, corpus_id: corpus, tags: folder.tags.join(' ') });
    const created = await store.folders.put(folder);
    await store.history.addEvent({ item_id: null, action: 'sync_add', actor: ctx.actor, at, details: { ...folder, created } });
    return { created, folder };
  });
}

/**
 * The synced folders, each with the files added, changed and removed since its last sync (from
 * the file system's metadata; nothing is read).
 *
 * @example
 * for (const f of await listFolders(ctx)) console.error(f.name, f.changes.changed);
 */
export async function listFolders(ctx: OperationContext): Promise<FolderState[]> {
  const folders = await ctx.store.folders.list();
  return Promise.all(folders.map(async (folder) => ({ ...folder, changes: await folderChanges(ctx.store, folder) })));
}

/** Stops syncing a folder; its chunks stay as they are. Records a `sync_remove` event. */
export async function removeFolder(ctx: OperationContext, name: string): Promise<{ removed: SyncedFolder }> {
  const { store } = ctx;
  return store.transaction(async () => {
    const removed = await requireFolder(ctx, name);
    await store.folders.remove(name);
    await store.history.addEvent({ item_id: null, action: 'sync_remove', actor: ctx.actor, at: ctx.now(), details: { name } });
    return { removed };
  });
}

/**
 * Setup's record of what it added (`.engram-setup.json` in the project, or in the home directory
 * for `--user`): per file, whether setup created it, the folders it created for it, and which
 * client's setup added each part. Teardown takes out only what this record names: an engram entry,
 * file or folder that was there before setup stays. The record goes when nothing is left in it.
 */
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngramError } from '../errors.js';
import type { McpClient } from './server-entry.js';

export const MANIFEST_NAME = '.engram-setup.json';

export type Part = 'server' | 'instructions' | 'hooks';

export interface FileRecord {
  /** True when setup created the file (teardown removes it once nothing of the user's is in it). */
  created: boolean;
  /** Folders setup created to hold the file, deepest first. */
  dirs: string[];
  /** The clients whose setup added each part. */
  parts: Partial<Record<Part, McpClient[]>>;
}

export interface Manifest {
  version: 1;
  files: Record<string, FileRecord>;
}

export function manifestPath(root: string): string {
  return join(root, MANIFEST_NAME);
}

/** The record at `path` (an empty one when there is none). */
export function readManifest(path: string): Manifest {
  if (!existsSync(path)) return { version: 1, files: {} };
  if (!lstatSync(path).isFile()) throw notAFile(path);
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
    if (typeof value.files !== 'object' || value.files === null) throw new Error('no files');
    return { version: 1, files: value.files };
  } catch (error) {
    throw new EngramError('PARAM_ERROR', `${path} is not a record engram setup wrote`, {
      hint: 'Fix or move the file away and run the command again; nothing was changed.',
      details: { path },
      cause: error,
    });
  }
}

/** The manifest as written ('' never: undefined when it holds nothing, so the file goes). */
export function renderManifest(manifest: Manifest): string | undefined {
  const files = Object.entries(manifest.files).filter(([, r]) => Object.values(r.parts).some((c) => c.length > 0));
  if (files.length === 0) return undefined;
  return `${JSON.stringify({ version: 1, files: Object.fromEntries(files) }, null, 2)}\n`;
}

export function notAFile(path: string): EngramError {
  return new EngramError('PARAM_ERROR', `${path} is not a regular file`, {
    hint: 'Move it away (or fix the link) and run the command again; nothing was changed.',
    details: { path },
  });
}

/** True when `client`'s setup added `part` to the file. */
export function claims(record: FileRecord | undefined, part: Part, client: McpClient): boolean {
  return record?.parts[part]?.includes(client) === true;
}

/** Folders kept in sync (`engram sync add`): a name, a directory and how its files are ingested. */
import type { SyncedFolder } from '../../types.js';

export interface FolderRepository {
  /** Every folder, by name. */
  list(): Promise<SyncedFolder[]>;
  get(name: string): Promise<SyncedFolder | undefined>;
  /** Creates or replaces a folder (by name); resolves true when it was new. Two names never share a path. */
  put(folder: SyncedFolder): Promise<boolean>;
  /** Resolves false when there was no such folder. */
  remove(name: string): Promise<boolean>;
}

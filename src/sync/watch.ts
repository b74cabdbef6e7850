/**
 * `sync --watch`: one recursive `fs.watch` per folder (inotify on Linux since Node 19.1, FSEvents
 * on macOS, ReadDirectoryChangesW on Windows). Events are debounced: a folder is synced once its
 * files have been quiet for `debounceMs`, or after `maxWaitMs` of continuous changes. Syncs run
 * one at a time; events during a sync queue the next one. Changes under dot-directories and
 * `node_modules` are ignored, as the sync itself skips them (the store's own `.engram/` among
 * them, so a sync's writes never wake the watcher).
 */
import { type FSWatcher, watch } from 'node:fs';
import { sep } from 'node:path';
import type { SyncedFolder } from '../types.js';

export interface WatchOptions {
  /** Quiet time after the last event before a sync (default 300 ms). */
  debounceMs?: number;
  /** Longest wait for quiet while events keep coming (default 2000 ms). */
  maxWaitMs?: number;
  /** Syncs the folders called `names`; the watcher awaits it before the next one. */
  sync(names: string[]): Promise<void>;
  /** A failed sync or a watcher's error; watching goes on. */
  onError(error: unknown, folder?: string): void;
}

/** A running watch: the folders it watches, and `close` to stop it (awaits a running sync). */
export interface FolderWatch {
  readonly folders: readonly string[];
  close(): Promise<void>;
}

const DEFAULT_DEBOUNCE_MS = 300;
const DEFAULT_MAX_WAIT_MS = 2000;

/** True when a changed path (relative to the folder) is one the sync would skip. */
function isIgnored(relative: string): boolean {
  return relative.split(sep).some((part) => part.startsWith('.') || part === 'node_modules');
}

/**
 * Watches `folders` and syncs each one when its files change; the first sync of every folder runs
 * at once (what changed while nobody watched). A folder that cannot be watched (gone) is reported
 * through `onError` and left out.
 *
 * @example
 * const sync = async (names: string[]) => void (await engram.sync({ names }));
 * const watcher = watchFolders(folders, { sync, onError: (error) => log(error) });
 * process.once('SIGINT', () => void watcher.close());
 */
export function watchFolders(folders: readonly SyncedFolder[], options: WatchOptions): FolderWatch {
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const pending = new Set<string>();
  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let firstEventAt = 0;
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  let closed = false;

  const flush = () => {
    timer = undefined;
    if (closed || busy || pending.size === 0) return;
    const names = [...pending];
    pending.clear();
    busy = true;
    running = options
      .sync(names)
      .catch((error: unknown) => options.onError(error))
      .finally(() => {
        busy = false;
        firstEventAt = 0;
        if (pending.size > 0) schedule();
      });
  };
  const schedule = () => {
    if (closed) return;
    const now = Date.now();
    if (firstEventAt === 0) firstEventAt = now;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(flush, Math.max(0, Math.min(debounceMs, firstEventAt + maxWaitMs - now)));
  };

  const watched: string[] = [];
  for (const folder of folders) {
    try {
      const watcher = watch(folder.path, { recursive: true }, (_event, filename) => {
        if (filename !== null && isIgnored(filename.toString())) return;
        pending.add(folder.name);
        schedule();
      });
      watcher.on('error', (error) => options.onError(error, folder.name));
      watchers.push(watcher);
      watched.push(folder.name);
      pending.add(folder.name);
    } catch (error) {
      options.onError(error, folder.name);
    }
  }
  if (pending.size > 0) {
    firstEventAt = Date.now();
    timer = setTimeout(flush, 0);
  }
  return {
    folders: watched,
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      await running;
    },
  };
}

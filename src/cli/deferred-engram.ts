/**
 * A store that does not exist yet, for `engram serve`: the server starts without creating a file,
 * reads answer from an empty in-memory store (nothing is stored, so nothing is found), and the
 * first write that stores something — a put, proposal, pull, ingest, import, workspace or synced
 * folder — creates the real store, which answers everything from then on. A store another
 * process creates meanwhile is picked up by the next call.
 */
import type { Engram } from '../engram.js';

/** The methods that store new data: the only ones that create a missing store. */
const CREATES: ReadonlySet<keyof Engram> = new Set([
  'put',
  'ingest',
  'pull',
  'propose',
  'registerWorkspace',
  'importLines',
  'addFolder',
]);

type Method = (...args: unknown[]) => unknown;

export interface DeferredEngramOptions {
  /** Where the store will be: reported by `path` and by `stats()` before it exists. */
  path: string;
  /** An empty store answering reads until the real one exists. */
  empty: Engram;
  /** True once the store file exists (created by this server or by another process). */
  exists: () => boolean;
  /** Opens, creating it if needed, the real store. Called once. */
  open: () => Promise<Engram>;
}

/**
 * An {@link Engram} over a store that may not exist yet.
 *
 * @example
 * const empty = await openEngram({ path: ':memory:' });
 * const engram = deferredEngram({ path, empty, exists: () => existsSync(path), open });
 * await engram.search({ query: 'auth' }); // no file created, no hits
 * await engram.put({ content: 'We chose JWT' }); // creates the store at `path`
 */
export function deferredEngram(options: DeferredEngramOptions): Engram {
  let real: Promise<Engram> | undefined;
  let opened: Engram | undefined;
  const target = (creates: boolean): Promise<Engram> | Engram => {
    if (real === undefined && (creates || options.exists())) {
      real = options.open().then(
        (engram) => (opened = engram),
        (error: unknown) => {
          // A failed open (a busy or unwritable file) is that call's error; the next call tries again.
          real = undefined;
          throw error;
        },
      );
    }
    return real ?? options.empty;
  };
  const proxy: Record<string, unknown> = {
    path: options.path,
    get ftsTokenizer() {
      return opened?.ftsTokenizer ?? null;
    },
    async stats() {
      const engram = await target(false);
      const stats = await engram.stats();
      return engram === options.empty ? { ...stats, path: options.path, size_bytes: 0 } : stats;
    },
    async* exportLines(...args: Parameters<Engram['exportLines']>) {
      yield* (await target(false)).exportLines(...args);
    },
    close() {
      options.empty.close();
      opened?.close();
    },
  };
  for (const name of Object.keys(options.empty) as (keyof Engram)[]) {
    if (name in proxy || typeof options.empty[name] !== 'function') continue;
    proxy[name] = async (...args: unknown[]) => {
      const engram = await target(CREATES.has(name));
      return (engram[name] as Method).apply(engram, args);
    };
  }
  return proxy as unknown as Engram;
}

/**
 * The SQLite implementation of the async {@link Store} contract: the synchronous repositories
 * over one better-sqlite3 connection, each call run through the connection's mutex, or directly
 * inside a transaction (the `tx` handed to `transaction`'s callback).
 */
import type Database from 'better-sqlite3';
import type { MemoryItem } from '../../types.js';
import type { CorpusRepository } from '../contract/corpus.js';
import type { FolderRepository } from '../contract/folders.js';
import type { HistoryRepository } from '../contract/history.js';
import type { ItemRepository } from '../contract/items.js';
import type { LinkRepository } from '../contract/links.js';
import type { MetaRepository } from '../contract/meta.js';
import type { Store } from '../contract/store.js';
import type { IndexText, TextIndex } from '../contract/text-index.js';
import type { VectorIndex } from '../contract/vector-index.js';
import type { WorkspaceRepository } from '../contract/workspaces.js';
import { Connection } from './connection.js';
import { sqliteCorpus } from './corpus.js';
import { toStoreError } from './errors.js';
import { sqliteFolders } from './folders.js';
import { storeHealth, storeStats } from './health.js';
import { sqliteHistory } from './history.js';
import { ITEM_PAGE, type PageCursor, sqliteItems } from './items.js';
import { sqliteLinks } from './links.js';
import { openDatabase, type SqliteOptions } from './open.js';
import { rememberChecked, stampBeforeCheck } from './page-check.js';
import { promised, type Runner } from './promised.js';
import { sqliteTextIndex } from './text-index.js';
import { sqliteVectors, vectorContract, vectorExtension } from './vectors.js';
import { sqliteMeta, sqliteWorkspaces } from './workspaces.js';

export type { SqliteOptions } from './open.js';

/**
 * Opens (creating and migrating if needed) a SQLite store; `:memory:` is allowed.
 *
 * @example
 * const store = createSqliteStore('.engram/memory.db');
 * const item = await store.items.get('MEM-0123456789ab');
 * await store.close();
 */
export function createSqliteStore(path: string, options: SqliteOptions = {}): Store {
  // The file before its open check, for the daemon's memory of checked stores (page-check.ts).
  const stamp = path === ':memory:' || options.checkPages === false ? undefined : stampBeforeCheck(path);
  const db = openDatabase(path, options);
  const connection = new Connection(db, path, options.busyRetries);
  // List and search build their SQL from the filters given; the few shapes in use are prepared once.
  const prepared = new Map<string, Database.Statement>();
  const prepare = (sql: string): Database.Statement => {
    let statement = prepared.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      prepared.set(sql, statement);
    }
    return statement;
  };
  // The full-text table is read when its statements are made: a damaged one (its config page) is
  // refused as a damaged store, not left to fail as an unexpected error, and the connection closed.
  let text: ReturnType<typeof sqliteTextIndex>;
  try {
    text = sqliteTextIndex(db, prepare);
  } catch (error) {
    db.close();
    throw toStoreError(error, path);
  }
  // Without the sqlite-vec extension for this platform the store has no vector index (lexical only);
  // with it, the extension is loaded by the first statement on the vector table.
  const extension = vectorExtension(db);
  const vectors = extension === undefined ? undefined : sqliteVectors(db, prepare, options.vectorCache, extension);
  const items = sqliteItems(db, prepare, text.remove, vectors);
  const vectorIndex = vectors === undefined ? undefined : vectorContract(vectors);
  const history = sqliteHistory(db);
  const links = sqliteLinks(db);
  const corpus = sqliteCorpus(db);
  const workspaces = sqliteWorkspaces(db);
  const folders = sqliteFolders(db);
  const meta = sqliteMeta(db);

  const rebuild = async (
    indexOf: (item: MemoryItem) => IndexText | Promise<IndexText>,
    onProgress?: (done: number, total: number) => void,
  ): Promise<number> => {
    if (!text.ranked) return 0;
    const total = items.list({ archived: 'include', limit: 1 }).total;
    text.clear();
    let done = 0;
    for (let after: PageCursor | undefined, page = items.page(); page.length > 0; page = items.page(after)) {
      for (const item of page) {
        text.put(item, await indexOf(item));
        if (++done % 1000 === 0 || done === total) onProgress?.(done, total);
      }
      const last = page[page.length - 1];
      after = last === undefined ? undefined : { created_at: last.created_at, id: last.id };
    }
    text.optimize();
    return done;
  };

  /** The store as seen outside a transaction (`run` queues behind one) or inside it (`run` is direct). */
  const view = (run: Runner, inside: boolean): Store => {
    const self: Store = {
      path,
      items: {
        ...promised<Omit<ItemRepository, 'iterate'>>(items, run),
        async* iterate(filter) {
          let after: PageCursor | undefined;
          for (;;) {
            const page = await run(() => items.page(after, filter));
            yield* page;
            const last = page[page.length - 1];
            if (last === undefined || page.length < ITEM_PAGE) return;
            after = { created_at: last.created_at, id: last.id };
          }
        },
      },
      history: promised<HistoryRepository>(history, run),
      links: promised<LinkRepository>(links, run),
      corpus: promised<CorpusRepository>(corpus, run),
      workspaces: promised<WorkspaceRepository>(workspaces, run),
      folders: promised<FolderRepository>(folders, run),
      meta: promised<MetaRepository>(meta, run),
      text: {
        ranked: text.ranked,
        put: (item, index) => run(() => text.put(item, index)),
        search: (query, filter, limit) => run(() => text.search(query, filter, limit)),
        newest: (query, limit) => run(() => text.newest(query, limit)),
        rebuild: (indexOf, onProgress) =>
          inside
            ? connection.savepoint(() => rebuild(indexOf, onProgress))
            : connection.transaction(() => rebuild(indexOf, onProgress)),
      } satisfies TextIndex,
      ...(vectorIndex === undefined ? {} : { vectors: promised<VectorIndex>(vectorIndex, run) }),
      transaction: (fn, options) =>
        (inside ? connection.savepoint(() => fn(self)) : connection.transaction(() => fn(tx), options)),
      stats: () => run(() => storeStats(db, path)),
      health: () => run(() => storeHealth(db, text.ranked, vectors !== undefined)),
      close: async () => {
        await connection.close();
        if (path !== ':memory:' && options.checkPages !== false) rememberChecked(path, stamp);
      },
    };
    return self;
  };
  const direct: Runner = (fn) => {
    try {
      return Promise.resolve(connection.guard(fn));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const tx = view(direct, true);
  return view((fn) => connection.run(fn), false);
}

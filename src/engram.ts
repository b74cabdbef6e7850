/**
 * The facade: `openEngram(options)` returns the one API that the CLI, the MCP server and library
 * users call ({@link Engram}, declared in `api.ts`). It only wires: it opens the store, builds the
 * operation context (store, item writer, indexer, clock, actor, settings) and delegates each
 * operation to its feature folder.
 */
import type { Embedded, Engram, EngramOptions, PutResult, SyncOptions } from './api.js';
import { EngramError } from './errors.js';
import { DEFAULT_FTS_TOKENIZER, FTS_TOKENIZER_PRESETS, isFtsTokenizerPreset } from './config/fts-tokenizer.js';
import type { OperationContext } from './context.js';
import type { KnownVectors } from './items/embed-items.js';
import { createItemWriter } from './items/writer.js';
import type { AutoConsolidated } from './lifecycle/auto-consolidate.js';
import { createIndexer } from './search/indexer.js';
import { loadSegmenter } from './search/segment.js';
import type { CreatedFile } from './store/sqlite/remove-empty-store.js';
import type { Store } from './store/store.js';
import { systemClock } from './util/time.js';

/**
 * Each operation's module is loaded when it first runs, so that a command which reads loads
 * neither the write policy nor ingest, capture or sync (start-up: see the bench's startup suite).
 */
const load = {
  capture: () => import('./capture/capture.js'),
  ingest: () => import('./ingest/ingest.js'),
  admission: () => import('./items/admission.js'),
  embedItems: () => import('./items/embed-items.js'),
  fieldPolicy: () => import('./items/field-policy.js'),
  governance: () => import('./items/governance.js'),
  importLines: () => import('./items/import-lines.js'),
  importFrom: () => import('./importers/run-import.js'),
  parseInput: () => import('./items/parse-input.js'),
  read: () => import('./items/read.js'),
  schemas: () => import('./items/schemas.js'),
  autoConsolidate: () => import('./lifecycle/auto-consolidate.js'),
  lifecycle: () => import('./lifecycle/operations.js'),
  doctor: () => import('./maintenance/doctor.js'),
  embed: () => import('./maintenance/embed.js'),
  export: () => import('./maintenance/export.js'),
  reindex: () => import('./maintenance/reindex.js'),
  review: () => import('./maintenance/review.js'),
  stats: () => import('./maintenance/stats.js'),
  status: () => import('./maintenance/status.js'),
  deleteItem: () => import('./put/delete-item.js'),
  linkItems: () => import('./put/link-items.js'),
  pull: () => import('./put/pull.js'),
  put: () => import('./put/put.js'),
  brief: () => import('./retrieval/brief.js'),
  recall: () => import('./retrieval/recall.js'),
  search: () => import('./retrieval/search.js'),
  folders: () => import('./sync/folders.js'),
  syncFolders: () => import('./sync/sync-folders.js'),
  watch: () => import('./sync/watch.js'),
  palace: () => import('./workspaces/palace.js'),
  workspaces: () => import('./workspaces/workspaces.js'),
};

/** Clean-field check of the given fields (loads the write policy only when one is set). */
async function requireCleanFields(fields: Record<string, string | null | undefined>): Promise<void> {
  if (Object.values(fields).every((value) => value === undefined || value === null)) return;
  (await load.fieldPolicy()).requireCleanFields(fields);
}

export type * from './api.js';

/**
 * Removes the store file at `path` when it is still the file this process created (`created`: its
 * device and inode) and holds nothing; returns whether it did. Close every connection to it first.
 * The CLI's way to leave no file behind after a first write that stored nothing; see
 * `store/sqlite/remove-empty-store.ts` for why it never deletes another process's data.
 *
 * @example
 * if (!(await removeEmptyStore(path, { dev, ino, birthtimeMs }))) console.error(`created store ${path}`);
 */
export async function removeEmptyStore(path: string, created: CreatedFile): Promise<boolean> {
  const store = await import('./store/sqlite/remove-empty-store.js');
  return store.removeEmptyStore(path, created);
}

/**
 * For a long-lived process that opens the same stores again and again (`engram daemon`): a store
 * nothing changed since it passed the page check is not checked again at its next open. Resolves
 * to the step the process runs when it is between two tasks: the check of the stores changed
 * meanwhile (see `store/sqlite/page-check.ts`).
 */
export async function rememberCheckedStores(): Promise<() => void> {
  const memory = await import('./store/sqlite/page-check.js');
  memory.rememberCheckedStores();
  return memory.recheckChangedStores;
}

/** The lines of an iterable made when the first line is asked for. */
async function* lazyLines(make: () => Promise<AsyncIterable<string>>): AsyncIterable<string> {
  yield* await make();
}

async function openDefaultStore(path: string, tokenizer: string | undefined, checkPages = true): Promise<Store> {
  const { createSqliteStore } = await import('./store/sqlite/store.js');
  const preset = tokenizer !== undefined && isFtsTokenizerPreset(tokenizer) ? tokenizer : DEFAULT_FTS_TOKENIZER;
  return createSqliteStore(path, { ftsTokenizer: { name: preset, spec: FTS_TOKENIZER_PRESETS[preset] }, checkPages });
}

/**
 * Opens an engram store.
 *
 * @example
 * import { openEngram } from 'engram';
 * const engram = await openEngram({ path: '.engram/memory.db' });
 * const { item } = await engram.put({ content: 'We chose JWT for stateless auth', tags: ['auth'] });
 * console.log((await engram.get({ id: item.id })).version); // 1
 * engram.close();
 */
export async function openEngram(options: EngramOptions): Promise<Engram> {
  // The actor is stored with every event and revision: it passes the policy like any stored text.
  await requireCleanFields({ session: options.session });
  const store = options.openStore
    ? await options.openStore(options.path)
    : await openDefaultStore(options.path, options.ftsTokenizer, options.checkPages !== false);
  const clock = options.clock ?? systemClock;
  const actor = options.session ?? null;
  const now = () => clock().toISOString();
  const indexer = createIndexer({ loadSegmenter });
  const writer = createItemWriter({ store, indexer, actor });
  const ctx: OperationContext = {
    store, writer, indexer, clock, now, actor,
    fullText: options.fullText !== false,
    defaultSecrecy: options.secrecy ?? 'S3',
    tokenizer: options.tokenizer,
    admit: options.admit,
    autoConsolidate: options.autoConsolidate,
    embedder: options.embedder,
  };
  const withAuto = async <T extends object>(result: T, writtenId?: string): Promise<T & AutoConsolidated> =>
    (await load.autoConsolidate()).withAutoConsolidation(ctx, result, writtenId);
  /**
   * After a write has committed: the vectors of what it stored (`ids`), or of pending items; those
   * the write computed already (`known`) are not computed again.
   */
  const withVectors = async <T extends object>(
    result: T,
    ids: readonly string[] | 'pending',
    known?: KnownVectors,
  ): Promise<T & Embedded> => {
    const embedding = await (await load.embedItems()).embedAfterWrite(ctx, ids, known);
    return embedding === undefined ? result : { ...result, embedding };
  };
  const autoAfterWrite = async (result: PutResult, known?: KnownVectors) => {
    const embedded = result.action === 'unchanged' ? result : await withVectors(result, [result.item.id], known);
    return result.action === 'created' ? withAuto(embedded, result.item.id) : embedded;
  };

  const sync = async (syncOptions?: SyncOptions) => {
    const report = await (await load.syncFolders()).syncFolders(ctx, syncOptions);
    const wrote = report.totals.ingested + report.totals.partial > 0;
    return wrote ? withAuto(await withVectors(report, 'pending')) : report;
  };

  return {
    path: store.path,
    ftsTokenizer: await store.meta.get('fts_tokenizer') ?? null,

    async put(input, { privileged = false, asProposal = false } = {}) {
      const known: KnownVectors = new Map();
      const { putItem } = await load.put();
      return autoAfterWrite(await putItem(ctx, input, asProposal ? 'propose' : 'put', privileged, known), known);
    },

    async ingest(input) {
      const { onProgress, readStdin, workers, ...rest } = input;
      const settings = (await load.parseInput()).parseInput((await load.schemas()).ingestInputSchema, rest);
      await requireCleanFields({ scope: settings.scope, corpus: settings.corpus });
      const report = await (await load.ingest()).ingestSources(
        {
          ...settings,
          chunkTokens: settings.chunk_tokens,
          dryRun: settings.dry_run,
          followSymlinks: settings.follow_symlinks,
          cwd: settings.cwd ?? process.cwd(),
          readStdin,
          onProgress,
          workers,
        },
        { store, writer, actor, now, admit: options.admit },
      );
      const wrote = !report.dry_run && report.totals.ingested + report.totals.partial > 0;
      return wrote ? withAuto(await withVectors(report, 'pending')) : report;
    },

    async pull(text, input = {}) {
      const result = await (await load.pull()).pull(ctx, text, input);
      return result.stored + result.quarantined > 0 ? withAuto(await withVectors(result, 'pending')) : result;
    },

    async propose(proposals, input = {}) {
      const known: KnownVectors = new Map();
      const result = await (await load.pull()).propose(ctx, proposals, input, known);
      return result.stored + result.quarantined > 0 ? withAuto(await withVectors(result, 'pending', known)) : result;
    },

    async capture(input) {
      await requireCleanFields({ scope: input.scope });
      const report = await (await load.capture()).capture(ctx, { ...input, cwd: input.cwd ?? process.cwd() });
      const wrote = report.stored + report.updated + report.proposals.stored + report.proposals.quarantined > 0;
      return wrote ? withAuto(await withVectors(report, 'pending')) : report;
    },

    get: async (query) => (await load.read()).getItem(ctx, query),
    list: async (filter) => (await load.read()).listItems(ctx, filter),
    search: async (input) => (await load.search()).search(ctx, input),
    recall: async (input) => (await load.recall()).recall(ctx, input),
    brief: async (input) => (await load.brief()).brief(ctx, input),
    show: async (id, showOptions) => (await load.read()).showItem(ctx, id, showOptions),
    history: async (id) => (await load.read()).itemHistory(ctx, id),
    links: async (id) => (await load.read()).itemLinks(ctx, id),
    consolidate: async (consolidateOptions) => (await load.lifecycle()).runConsolidation(ctx, consolidateOptions),
    consolidationCandidates: async (candidatesOptions) =>
      (await load.lifecycle()).findConsolidationCandidates(ctx, candidatesOptions),
    suggest: async (input) => (await load.lifecycle()).suggest(ctx, input),
    cleanup: async (cleanupOptions) => (await load.lifecycle()).runCleanup(ctx, cleanupOptions),
    update: async (id, input) => autoAfterWrite(await (await load.put()).updateItem(ctx, id, input)),
    forget: async (id) => (await load.governance()).forgetItem(ctx, id, now()),
    verify: async (id) => (await load.governance()).verifyItem(ctx, id, now()),
    async reject(id, { reason } = {}) {
      await requireCleanFields({ reason });
      return (await load.governance()).rejectItem(ctx, id, now(), reason);
    },
    delete: async (id, { hard = false } = {}) => (await load.deleteItem()).deleteItem(ctx, id, hard),
    link: async (input) => (await load.linkItems()).linkItems(ctx, input),
    stats: async () => (await load.stats()).stats(ctx),
    status: async (statusOptions) => (await load.status()).status(ctx, statusOptions),
    addFolder: async (input) => (await load.folders()).addFolder(ctx, input),
    folders: async () => (await load.folders()).listFolders(ctx),
    removeFolder: async (name) => (await load.folders()).removeFolder(ctx, name),
    sync,
    async watch({ names, debounceMs, onSync, onError }) {
      const folders = await (await load.syncFolders()).selectFolders(ctx, names);
      const run = async (which: string[]) => onSync(await sync({ names: which }));
      const watcher = (await load.watch()).watchFolders(folders, { debounceMs, onError, sync: run });
      if (watcher.folders.length === 0) {
        await watcher.close();
        throw new EngramError('PARAM_ERROR', folders.length === 0 ? 'No folder is synced' : 'None of the folders can be watched', {
          hint: folders.length === 0 ? 'Add one first (sync add PATH).' : 'Check that the folders exist.',
        });
      }
      return watcher;
    },
    workspaces: async () => (await load.workspaces()).listWorkspaces(ctx),
    registerWorkspace: async (input) => (await load.workspaces()).registerWorkspace(ctx, input),
    removeWorkspace: async (name) => (await load.workspaces()).removeWorkspace(ctx, name),
    resolveWorkspace: async (name) => (await load.workspaces()).resolveWorkspace(ctx, name),
    palace: async (input) => (await load.palace()).palace(ctx, input),
    reindex: async (reindexOptions) => (await load.reindex()).reindex(ctx, reindexOptions),
    doctor: async () => (await load.doctor()).doctor(ctx),
    embed: async (embedOptions) => (await load.embed()).embedPending(ctx, embedOptions),
    exportLines: (exportOptions) => lazyLines(async () => (await load.export()).exportLines(ctx, exportOptions)),
    review: async (reviewOptions) => (await load.review()).review(ctx, reviewOptions),
    importLines: async (lines, { strict = false } = {}) => {
      // Asked for its iterator now, a stream (readline over stdin) buffers what arrives while
      // the import's modules load; asked later, lines read meanwhile would be lost.
      const iterator = Symbol.asyncIterator in lines ? lines[Symbol.asyncIterator]() : undefined;
      const source = iterator === undefined ? lines : { [Symbol.asyncIterator]: () => iterator };
      const [{ admitWrite }, { importLines }] = await Promise.all([load.admission(), load.importLines()]);
      const report = await importLines(source, {
        store,
        writer,
        now,
        strict,
        admit: (item, privileged) =>
          admitWrite(item, { operation: 'import', actor, now: now(), privileged }, options.admit).item,
      });
      return report.created + report.updated > 0 ? withVectors(report, 'pending') : report;
    },
    async importFrom(input) {
      const report = await (await load.importFrom()).importFrom(ctx, input);
      return !report.dry_run && report.created + report.updated > 0 ? withVectors(report, 'pending') : report;
    },
    close() {
      void store.close();
    },
  };
}

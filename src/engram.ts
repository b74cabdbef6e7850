/**
 * The facade: `openEngram(options)` returns the one API that the CLI, the MCP server and library
 * users call ({@link Engram}, declared in `api.ts`). It only wires: it opens the store, builds the
 * operation context (store, item writer, indexer, clock, actor, settings) and delegates each
 * operation to its feature folder.
 */
import type { Embedded, Engram, EngramOptions, PutResult, SyncOptions } from './api.js';
import { capture } from './capture/capture.js';
import { EngramError } from './errors.js';
import { DEFAULT_FTS_TOKENIZER, FTS_TOKENIZER_PRESETS, isFtsTokenizerPreset } from './config/fts-tokenizer.js';
import type { OperationContext } from './context.js';
import { ingestSources } from './ingest/ingest.js';
import { admitWrite } from './items/admission.js';
import { embedAfterWrite, type KnownVectors } from './items/embed-items.js';
import { requireCleanFields } from './items/field-policy.js';
import { forgetItem, rejectItem, verifyItem } from './items/governance.js';
import { importLines } from './items/import-lines.js';
import { parseInput } from './items/parse-input.js';
import { getItem, itemHistory, itemLinks, listItems, showItem } from './items/read.js';
import { ingestInputSchema } from './items/schemas.js';
import { createItemWriter } from './items/writer.js';
import { type AutoConsolidated, withAutoConsolidation } from './lifecycle/auto-consolidate.js';
import {
  findConsolidationCandidates, runCleanup, runConsolidation, suggest,
} from './lifecycle/operations.js';
import { doctor } from './maintenance/doctor.js';
import { embedPending } from './maintenance/embed.js';
import { exportLines } from './maintenance/export.js';
import { reindex } from './maintenance/reindex.js';
import { review } from './maintenance/review.js';
import { stats } from './maintenance/stats.js';
import { status } from './maintenance/status.js';
import { deleteItem } from './put/delete-item.js';
import { linkItems } from './put/link-items.js';
import { propose, pull } from './put/pull.js';
import { putItem, updateItem } from './put/put.js';
import { brief } from './retrieval/brief.js';
import { recall } from './retrieval/recall.js';
import { search } from './retrieval/search.js';
import { createIndexer } from './search/indexer.js';
import { loadSegmenter } from './search/segment.js';
import type { CreatedFile } from './store/sqlite/remove-empty-store.js';
import type { Store } from './store/store.js';
import { addFolder, listFolders, removeFolder } from './sync/folders.js';
import { selectFolders, syncFolders } from './sync/sync-folders.js';
import { watchFolders } from './sync/watch.js';
import { systemClock } from './util/time.js';
import { palace } from './workspaces/palace.js';
import { listWorkspaces, registerWorkspace, removeWorkspace, resolveWorkspace } from './workspaces/workspaces.js';

export type * from './api.js';
export { AUTO_CONSOLIDATE_DEFAULTS } from './lifecycle/auto-consolidate.js';
export { checkPolicy, POLICY_RULES } from './policy/check-policy.js';
export { DEFAULT_BUDGET } from './retrieval/recall.js';

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
  requireCleanFields({ session: options.session });
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
  const withAuto = <T extends object>(result: T, writtenId?: string): Promise<T & AutoConsolidated> =>
    withAutoConsolidation(ctx, result, writtenId);
  /**
   * After a write has committed: the vectors of what it stored (`ids`), or of pending items; those
   * the write computed already (`known`) are not computed again.
   */
  const withVectors = async <T extends object>(
    result: T,
    ids: readonly string[] | 'pending',
    known?: KnownVectors,
  ): Promise<T & Embedded> => {
    const embedding = await embedAfterWrite(ctx, ids, known);
    return embedding === undefined ? result : { ...result, embedding };
  };
  const autoAfterWrite = async (result: PutResult, known?: KnownVectors) => {
    const embedded = result.action === 'unchanged' ? result : await withVectors(result, [result.item.id], known);
    return result.action === 'created' ? withAuto(embedded, result.item.id) : embedded;
  };

  const sync = async (syncOptions?: SyncOptions) => {
    const report = await syncFolders(ctx, syncOptions);
    const wrote = report.totals.ingested + report.totals.partial > 0;
    return wrote ? withAuto(await withVectors(report, 'pending')) : report;
  };

  return {
    path: store.path,
    ftsTokenizer: await store.meta.get('fts_tokenizer') ?? null,

    async put(input, { privileged = false, asProposal = false } = {}) {
      const known: KnownVectors = new Map();
      return autoAfterWrite(await putItem(ctx, input, asProposal ? 'propose' : 'put', privileged, known), known);
    },

    async ingest(input) {
      const { onProgress, readStdin, ...rest } = input;
      const settings = parseInput(ingestInputSchema, rest);
      requireCleanFields({ scope: settings.scope, corpus: settings.corpus });
      const report = await ingestSources(
        {
          ...settings,
          chunkTokens: settings.chunk_tokens,
          dryRun: settings.dry_run,
          followSymlinks: settings.follow_symlinks,
          cwd: settings.cwd ?? process.cwd(),
          readStdin,
          onProgress,
        },
        { store, writer, actor, now, admit: options.admit },
      );
      const wrote = !report.dry_run && report.totals.ingested + report.totals.partial > 0;
      return wrote ? withAuto(await withVectors(report, 'pending')) : report;
    },

    async pull(text, input = {}) {
      const result = await pull(ctx, text, input);
      return result.stored + result.quarantined > 0 ? withAuto(await withVectors(result, 'pending')) : result;
    },

    async propose(proposals, input = {}) {
      const known: KnownVectors = new Map();
      const result = await propose(ctx, proposals, input, known);
      return result.stored + result.quarantined > 0 ? withAuto(await withVectors(result, 'pending', known)) : result;
    },

    async capture(input) {
      requireCleanFields({ scope: input.scope });
      const report = await capture(ctx, { ...input, cwd: input.cwd ?? process.cwd() });
      const wrote = report.stored + report.updated + report.proposals.stored + report.proposals.quarantined > 0;
      return wrote ? withAuto(await withVectors(report, 'pending')) : report;
    },

    get: (query) => getItem(ctx, query),
    list: (filter) => listItems(ctx, filter),
    search: (input) => search(ctx, input),
    recall: (input) => recall(ctx, input),
    brief: (input) => brief(ctx, input),
    show: (id, showOptions) => showItem(ctx, id, showOptions),
    history: (id) => itemHistory(ctx, id),
    links: (id) => itemLinks(ctx, id),
    consolidate: (consolidateOptions) => runConsolidation(ctx, consolidateOptions),
    consolidationCandidates: (candidatesOptions) => findConsolidationCandidates(ctx, candidatesOptions),
    suggest: (input) => suggest(ctx, input),
    cleanup: (cleanupOptions) => runCleanup(ctx, cleanupOptions),
    update: async (id, input) => autoAfterWrite(await updateItem(ctx, id, input)),
    forget: async (id) => forgetItem(ctx, id, now()),
    verify: async (id) => verifyItem(ctx, id, now()),
    async reject(id, { reason } = {}) {
      requireCleanFields({ reason });
      return rejectItem(ctx, id, now(), reason);
    },
    delete: async (id, { hard = false } = {}) => deleteItem(ctx, id, hard),
    link: async (input) => linkItems(ctx, input),
    stats: () => stats(ctx),
    status: (statusOptions) => status(ctx, statusOptions),
    addFolder: (input) => addFolder(ctx, input),
    folders: () => listFolders(ctx),
    removeFolder: (name) => removeFolder(ctx, name),
    sync,
    async watch({ names, debounceMs, onSync, onError }) {
      const folders = await selectFolders(ctx, names);
      const run = async (which: string[]) => onSync(await sync({ names: which }));
      const watcher = watchFolders(folders, { debounceMs, onError, sync: run });
      if (watcher.folders.length === 0) {
        await watcher.close();
        throw new EngramError('PARAM_ERROR', folders.length === 0 ? 'No folder is synced' : 'None of the folders can be watched', {
          hint: folders.length === 0 ? 'Add one first (sync add PATH).' : 'Check that the folders exist.',
        });
      }
      return watcher;
    },
    workspaces: () => listWorkspaces(ctx),
    registerWorkspace: (input) => registerWorkspace(ctx, input),
    removeWorkspace: (name) => removeWorkspace(ctx, name),
    resolveWorkspace: (name) => resolveWorkspace(ctx, name),
    palace: (input) => palace(ctx, input),
    reindex: (reindexOptions) => reindex(ctx, reindexOptions),
    doctor: () => doctor(ctx),
    embed: (embedOptions) => embedPending(ctx, embedOptions),
    exportLines: (exportOptions) => exportLines(ctx, exportOptions),
    review: (reviewOptions) => review(ctx, reviewOptions),
    importLines: async (lines, { strict = false } = {}) => {
      const report = await importLines(lines, {
        store,
        writer,
        now,
        strict,
        admit: (item, privileged) =>
          admitWrite(item, { operation: 'import', actor, now: now(), privileged }, options.admit).item,
      });
      return report.created + report.updated > 0 ? withVectors(report, 'pending') : report;
    },
    close() {
      void store.close();
    },
  };
}

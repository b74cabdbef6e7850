/**
 * The facade: `openEngram(options)` returns the one API that the CLI, the MCP server and library
 * users call. It validates input, runs the write modes and versioning rules, and keeps every
 * write inside one store transaction together with its revision and event.
 */
import {
  DEFAULT_FTS_TOKENIZER,
  FTS_TOKENIZER_PRESETS,
  isFtsTokenizerPreset,
} from './config/fts-tokenizer.js';
import { EngramError } from './errors.js';
import { type AdmissionHook, admitWrite, type WriteOperation } from './items/admission.js';
import { type IngestProgress, type IngestReport, ingestSources } from './ingest/ingest.js';
import { commitPull, planPull, pullProposals, type PullResult } from './ingest/pull.js';
import {
  forgetItem,
  rejectItem,
  type ReviewDecision,
  type ReviewReport,
  verifyItem,
} from './items/governance.js';
import { policyDetails, recordWrite } from './items/journal.js';
import { requireItem as requireStoredItem } from './items/lookup.js';
import {
  createItem,
  hasChanges,
  mergeFields,
  nextVersion,
} from './items/build-item.js';
import { requireCleanFields } from './items/field-policy.js';
import { type ImportReport, importLines } from './items/import-lines.js';
import { parseInput } from './items/parse-input.js';
import {
  type GetQuery, getItem, itemHistory, itemLinks, type ListResult, listItems, type ShowOptions, type ShowResult,
  showItem,
} from './items/read.js';
import {
  type IngestInput,
  ingestInputSchema,
  type PullInput,
  pullInputSchema,
  type ListInput,
  linkInputSchema,
  type ParsedPut,
  type PutInput,
  putInputSchema,
  type UpdateInput,
  updateInputSchema,
} from './items/schemas.js';
import type { PolicyVerdict } from './policy/evaluate.js';
import { type AutoConsolidated, withAutoConsolidation } from './lifecycle/auto-consolidate.js';
import type { CleanupPlan } from './lifecycle/cleanup.js';
import { type ConsolidationCandidates, type ConsolidationPlan, foldable } from './lifecycle/consolidate.js';
import {
  type CandidatesInput, type CleanupInput, type ConsolidateInput, findConsolidationCandidates, runCleanup,
  runConsolidation, suggest, type SuggestInput,
} from './lifecycle/operations.js';
import { findSimilar, mergeSimilar, type SimilarItem } from './lifecycle/similar.js';
import type { Suggestion } from './lifecycle/suggest.js';
import { type DoctorReport, doctor } from './maintenance/doctor.js';
import { type ExportOptions, exportLines } from './maintenance/export.js';
import { type ReindexOptions, type ReindexResult, reindex } from './maintenance/reindex.js';
import { review, type ReviewOptions } from './maintenance/review.js';
import { stats } from './maintenance/stats.js';
import { RECALL_POOL, recall, type RecallFilter, type RecallInput, type RecallResult } from './retrieval/recall.js';
import { search, type SearchInput, type SearchResult } from './retrieval/search.js';
import { searchCascade } from './search/cascade.js';
import type { CreatedFile } from './store/remove-empty-store.js';
import type { DeleteCounts, Store } from './store/store.js';
import type { LinkType, MemoryItem, MemoryLink, Revision, Secrecy, StoreStats, Workspace } from './types.js';
import { indexText, prepareIndexing } from './search/index-text.js';
import { loadedSegmenter } from './search/segment.js';
import { newItemId } from './util/ids.js';
import {
  listWorkspaces, type RegisterWorkspaceResult, registerWorkspace, removeWorkspace, type RemoveWorkspaceResult,
  resolveWorkspace, type WorkspaceInput,
} from './workspaces/workspaces.js';
import { palace, type PalaceInput, type PalaceResult } from './workspaces/palace.js';
import { type Clock, systemClock } from './util/time.js';
import type { AutoConsolidateOptions, OperationContext } from './context.js';

export type { ImportReport } from './items/import-lines.js';
export type { CreatedFile } from './store/remove-empty-store.js';
export type { ListInput, PutInput, UpdateInput } from './items/schemas.js';
export type { GetQuery, ListResult, ShowOptions, ShowResult } from './items/read.js';
export type { RecallInput, RecallResult } from './retrieval/recall.js';
export type { SearchHit, SearchInput, SearchResult, SearchStage } from './retrieval/search.js';
export type { DoctorReport } from './maintenance/doctor.js';
export type { ExportOptions } from './maintenance/export.js';
export type { ReindexOptions, ReindexResult } from './maintenance/reindex.js';
export type { ReviewOptions } from './maintenance/review.js';
export type { CandidatesInput, CleanupInput, ConsolidateInput, SuggestInput } from './lifecycle/operations.js';
export type { PalaceInput, PalaceResult } from './workspaces/palace.js';
export type { RegisterWorkspaceResult, RemoveWorkspaceResult, WorkspaceInput } from './workspaces/workspaces.js';

export interface EngramOptions {
  /** Database file, or `:memory:`. */
  path: string;
  /** Actor recorded on every event and revision (`--session` / `ENGRAM_SESSION`). */
  session?: string | null;
  /** Time source; tests pass a fixed clock. */
  clock?: Clock;
  /** Write policy, called for every item before it is stored. */
  admit?: AdmissionHook;
  /** Tokenizer preset (`fr`, `en`, `raw`) for the full-text index of a new store. */
  ftsTokenizer?: string;
  /** Set false to search with LIKE only, as if FTS5 were missing (`ENGRAM_FTS=off`). */
  fullText?: boolean;
  /** Output redaction tier for search, recall, show and export (`ENGRAM_SECRECY`); default S3 keeps all. */
  secrecy?: Secrecy;
  /** Opens the store; defaults to the embedded SQLite store. */
  openStore?: (path: string) => Store;
  /**
   * False skips the open check of the store's pages (`doctor`, which reports on a damaged store);
   * by default a store whose pages fail it is refused with STORE_CORRUPT before anything is written.
   */
  checkPages?: boolean;
  /**
   * Automatic consolidation (KOAS) after put, pull and ingest: when the store holds `threshold` live
   * STM items, at most once per `intervalMinutes` (kept in the store). Off unless given; the CLI
   * turns it on with {@link AUTO_CONSOLIDATE_DEFAULTS}.
   */
  autoConsolidate?: AutoConsolidateOptions;
}

export type { AutoConsolidateOptions } from './context.js';

export {
  AUTO_CONSOLIDATE_DEFAULTS,
  type AutoConsolidated,
  type AutoConsolidation,
} from './lifecycle/auto-consolidate.js';

export interface PutResult extends AutoConsolidated {
  /** `created`, `updated`, or `unchanged` when the write would not change the item. */
  action: 'created' | 'updated' | 'unchanged';
  /**
   * How the target was chosen: by `id`, by logical `key`, a `new` item, or the closest near-duplicate
   * (`similar`, with `merge_similar`).
   */
  mode: 'id' | 'key' | 'new' | 'similar';
  item: MemoryItem;
  /** The write policy's verdict; `quarantine` means stored, not injectable, expiring unless verified. */
  policy: PolicyVerdict;
  /** True when the same content already existed in the scope: that item was reinforced instead. */
  deduplicated?: true;
  /**
   * Items of the scope like a new one (word similarity ≥ 0.6, or the same text with other values),
   * most similar first, each a near-duplicate, a possible contradiction ("differs in: 5432 → 5433")
   * or related.
   */
  similar?: SimilarItem[];
}

export interface WriteOptions {
  /**
   * A privileged writer (MCP `memory_write` on a server started with `--trust-writes`): the
   * quarantine rules are skipped, never the reject rules.
   */
  privileged?: boolean;
  /** Judged as a proposal (MCP `memory_write` by default): without provenance, it is quarantined. */
  asProposal?: boolean;
}

export interface DeleteResult {
  id: string;
  action: 'archived' | 'unchanged' | 'deleted';
  /** Rows removed per table, for a hard delete. */
  removed?: DeleteCounts;
}

export type { PullEntry, PullResult } from './ingest/pull.js';
export type { CleanupPlan } from './lifecycle/cleanup.js';
export type { CandidateGroup, ConsolidationCandidates, ConsolidationPlan } from './lifecycle/consolidate.js';
export type { Decay } from './lifecycle/decay.js';
export type { SimilarItem } from './lifecycle/similar.js';
export type { Suggestion } from './lifecycle/suggest.js';
export type { IngestProgress, IngestReport } from './ingest/ingest.js';
export type { IngestInput, PullInput } from './items/schemas.js';

export interface LinkResult {
  created: boolean;
  link: MemoryLink;
}

/** The engram API. Every method validates its input and throws {@link EngramError} on failure. */
export interface Engram {
  readonly path: string;
  /** The tokenizer preset (`en`, `fr`, `raw`) recorded with the search index when the store was created. */
  readonly ftsTokenizer: string | null;
  /** Creates or updates an item (memtool's three modes: by id, by logical key, or new). */
  put(input: PutInput, options?: WriteOptions): Promise<PutResult>;
  /**
   * One item by id, or the newest non-archived item at a logical key — the exact address `put`
   * writes to (a task or step left out means "none", as in `put`).
   */
  get(query: GetQuery): Promise<MemoryItem>;
  /**
   * Ingests files, directories, globs and `-` (stdin) as chunk items with provenance; unchanged
   * files are no-ops, changed files replace their chunks. Every file gets a status.
   */
  ingest(
    input: IngestInput & { readStdin?: () => Promise<Uint8Array>; onProgress?: (progress: IngestProgress) => void },
  ): Promise<IngestReport & AutoConsolidated>;
  /** Stores the memory proposals found in an LLM's answer; each one is admitted by the policy. */
  pull(text: string, defaults?: PullInput): Promise<PullResult & AutoConsolidated>;
  /**
   * An agent's proposals (KOAS `memory_propose`): like `pull`, but each proposal must say where it
   * comes from (`provenance_hint`), or it is quarantined.
   */
  propose(proposals: readonly unknown[], defaults?: PullInput): Promise<PullResult & AutoConsolidated>;
  list(filter?: ListInput): Promise<ListResult>;
  /**
   * Full-text search: BM25 over title, tags, entities and content (CJK segmented), any of the
   * words; when nothing matches, word prefixes, then substrings (LIKE).
   */
  search(input: SearchInput): Promise<SearchResult>;
  /**
   * Token-budgeted recall: injectable, live, non-archived matches packed best first into the
   * injection block (format_version=1). Records usage of the injected items and one event.
   */
  recall(input: RecallInput): Promise<RecallResult>;
  /** One item (redacted for `secrecy`), its revision count and links. */
  show(id: string, options?: ShowOptions): Promise<ShowResult>;
  /** Every stored version, oldest first. */
  history(id: string): Promise<Revision[]>;
  /**
   * Archives expired, stale (decay ≤ 0.2) and weak (weight < 0.1 after 30 days) items and, with
   * `purgeDays`, deletes archived items older than that — only with `apply`; otherwise the plan.
   */
  cleanup(options?: CleanupInput): Promise<CleanupPlan>;
  /**
   * Deterministic, lossless consolidation: STM items (same scope, type, source file and key) whose
   * every sentence and distinguishing token another item already says fold into it, as one MTM
   * item; related items are left apart; MTM items that qualify promote to LTM.
   */
  consolidate(options?: ConsolidateInput): Promise<ConsolidationPlan>;
  /**
   * Host-model consolidation (mem-context): groups to extract (STM older than 3 days) and related
   * memories to merge (alike, but each with facts of its own), each with a ready prompt; the
   * answer comes back through `pull` with `supersedes`. engram calls no model itself.
   */
  consolidationCandidates(options?: CandidatesInput): Promise<ConsolidationCandidates>;
  /** memtool's recommendation: ranked candidates for a task, tags or key prefix, with the reasons. */
  suggest(input: SuggestInput): Promise<Suggestion[]>;
  /** Changes any fields of an existing item (content optional): a new version, through the policy. */
  update(id: string, input: UpdateInput): Promise<PutResult>;
  /** Forgets an item: archived, weight 0, never injected again; its history stays. */
  forget(id: string): Promise<ReviewDecision>;
  /** Links where the item is source or destination. */
  links(id: string): Promise<MemoryLink[]>;
  /** Archives an item, or with `hard` removes it and its derived rows. */
  delete(id: string, options?: { hard?: boolean }): Promise<DeleteResult>;
  link(input: { src_id: string; dst_id: string; type: LinkType }): Promise<LinkResult>;
  stats(): Promise<StoreStats>;
  /** Named workspaces, `default` first among equals (sorted by name). */
  workspaces(): Promise<Workspace[]>;
  /** Creates or updates a workspace; `default` is protected. */
  registerWorkspace(input: WorkspaceInput): Promise<RegisterWorkspaceResult>;
  /** Removes a workspace (never `default`); its items stay. */
  removeWorkspace(name: string): Promise<RemoveWorkspaceResult>;
  /** The workspace called `name`; NOT_FOUND for an unknown one. */
  resolveWorkspace(name: string): Promise<Workspace>;
  /** Browses live items: tiers, then types in a tier, then tags in a type, then the items with a tag. */
  palace(input?: PalaceInput): Promise<PalaceResult>;
  /** Rebuilds the full-text index from the items (derived data); returns how many were indexed. */
  reindex(options?: ReindexOptions): Promise<ReindexResult>;
  /** Schema version, full-text availability, index/item agreement and SQLite's integrity check. */
  doctor(): Promise<DoctorReport>;
  /** JSONL lines, one complete item each, oldest first. */
  exportLines(options?: ExportOptions): AsyncIterable<string>;
  /** Quarantined, contradicted and soon-expiring (within `withinHours`, default 24) items. */
  review(options?: ReviewOptions): Promise<ReviewReport>;
  /** Verifies an item: injectable, expiry and quarantine cleared, after the reject rules pass again. */
  verify(id: string): Promise<ReviewDecision>;
  /** Rejects an item: archived, no longer injectable. */
  reject(id: string, options?: { reason?: string }): Promise<ReviewDecision>;
  /**
   * Upserts items from JSONL lines by id; malformed lines are reported, never dropped silently. A
   * BOM before the first line is skipped; keys import
   * does not know are counted in `unknown_keys`, or with `strict` make their line invalid.
   */
  importLines(lines: Iterable<string> | AsyncIterable<string>, options?: { strict?: boolean }): Promise<ImportReport>;
  close(): void;
}

export { DEFAULT_BUDGET } from './retrieval/recall.js';
/** Weight added to an item each time a duplicate write reinforces it. */
const REINFORCE_WEIGHT = 0.1;

export { checkPolicy, POLICY_RULES } from './policy/check-policy.js';

/**
 * Removes the store file at `path` when it is still the file this process created (`created`: its
 * device and inode) and holds nothing; returns whether it did. Close every connection to it first.
 * The CLI's way to leave no file behind after a first write that stored nothing; see
 * `store/remove-empty-store.ts` for why it never deletes another process's data.
 *
 * @example
 * if (!(await removeEmptyStore(path, { dev, ino, birthtimeMs }))) console.error(`created store ${path}`);
 */
export async function removeEmptyStore(path: string, created: CreatedFile): Promise<boolean> {
  const store = await import('./store/remove-empty-store.js');
  return store.removeEmptyStore(path, created);
}

async function openDefaultStore(path: string, tokenizer: string | undefined, checkPages = true): Promise<Store> {
  const { createSqliteStore } = await import('./store/sqlite-store.js');
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
    ? options.openStore(options.path)
    : await openDefaultStore(options.path, options.ftsTokenizer, options.checkPages !== false);
  const clock = options.clock ?? systemClock;
  const actor = options.session ?? null;
  const now = () => clock().toISOString();
  const fullText = options.fullText !== false;
  const defaultSecrecy = options.secrecy ?? 'S3';

  const ctx: OperationContext = {
    store, clock, now, actor, fullText, defaultSecrecy, admit: options.admit, autoConsolidate: options.autoConsolidate,
  };

  const record = (item: MemoryItem, action: string, details: Record<string, unknown> = {}) =>
    recordWrite(store, actor, item, action, details);

  const requireItem = (id: string): MemoryItem => requireStoredItem(store, id);

  async function write(input: PutInput, operation: WriteOperation, privileged = false): Promise<PutResult> {
    const parsed = parseInput(putInputSchema, input);
    const { id, layer, key, task_id: taskId, step_id: stepId, content, title, tags = [], entities = [] } = parsed;
    const target = id !== undefined
      ? store.getItem(id)
      : layer !== undefined && key !== undefined
        ? store.findByKey({ layer, key, task_id: taskId ?? null, step_id: stepId ?? null })
        : undefined;
    await prepareIndexing(content, title, ...tags, ...entities, target);
    return writeParsed(parsed, operation, privileged);
  }

  /** The write itself, in one transaction (a savepoint inside another), once indexing is prepared. */
  function writeParsed(parsed: ParsedPut, operation: WriteOperation, privileged = false): PutResult {
    const { id, if_version: ifVersion, merge_similar: mergeSimilarOne = false, supersedes = [], ...fields } = parsed;
    if (fields.key !== undefined && fields.layer === undefined && id === undefined) {
      throw new EngramError('PARAM_ERROR', '--key needs --layer to address an item', {
        hint: 'Use --layer project|feature|run with --key, or --id to update by id.',
      });
    }
    const address
      = fields.layer !== undefined && fields.key !== undefined
        ? { layer: fields.layer, key: fields.key, task_id: fields.task_id ?? null, step_id: fields.step_id ?? null }
        : undefined;
    // A summary is injectable only if every item it replaces was (as a consolidation's merged item).
    const hiding = supersedes.some((old) => {
      const replaced = store.getItem(old);
      return replaced !== undefined && (!replaced.injectable || replaced.quarantined);
    });
    if (hiding) fields.injectable = false;
    const linked = (result: PutResult): PutResult => {
      // A summary replacing what it merged: the old items leave recall, their text stays searchable.
      for (const old of supersedes) {
        requireItem(old);
        if (old === result.item.id) continue;
        const at = now();
        if (store.addLink({ src_id: result.item.id, dst_id: old, type: 'supersedes', created_at: at })) {
          store.addEvent({ item_id: result.item.id, action: 'link', actor, at, details: { src_id: result.item.id, dst_id: old, type: 'supersedes' } });
        }
      }
      return result;
    };
    // One write, inside the transaction; its supersedes links are added to whatever it returns.
    const writeOnce = (): PutResult => {
      const at = now();
      let existing: MemoryItem | undefined;
      let mode: PutResult['mode'] = 'new';
      if (id !== undefined) {
        existing = requireItem(id);
        mode = 'id';
      } else if (address !== undefined) {
        existing = store.findByKey(address);
        mode = 'key';
      }
      if (ifVersion !== undefined && (existing?.version ?? 0) !== ifVersion) {
        throw new EngramError(
          'CONFLICT',
          `Version conflict: expected ${ifVersion}, stored ${existing?.version ?? 'none'}`,
          {
            hint: 'Re-read the item, merge your change, and retry with the current version.',
            details: {
              id: existing?.id ?? id ?? null,
              expected_version: ifVersion,
              current_version: existing?.version ?? 0,
            },
          },
        );
      }
      const context = { operation, actor, now: at, privileged };
      if (existing === undefined) {
        const { item, policy } = admitWrite(createItem(newItemId(), fields, at), context, options.admit);
        // Dedup on write (mem-context): the same content, title, source and address in the same scope
        // reinforces the item; the tags and entities the write brings are added to it.
        const { scope, type, injectable, title, source, task_id, step_id, expires_at } = item;
        const target = { scope, type, injectable, title, source, task_id, step_id, expires_at };
        const duplicate = mode === 'new' && !item.quarantined ? store.findDuplicate(item.content, target) : undefined;
        if (duplicate !== undefined) {
          const united = {
            ...duplicate,
            tags: [...new Set([...duplicate.tags, ...item.tags])],
            entities: [...new Set([...duplicate.entities, ...item.entities])],
          };
          const changed = hasChanges(duplicate, united);
          if (changed) {
            const next = nextVersion(duplicate, united, at);
            store.updateItem(next, indexText(next));
            record(next, 'update', { mode: 'dedup' });
          }
          store.reinforce(duplicate.id, at, REINFORCE_WEIGHT);
          store.addEvent({ item_id: duplicate.id, action: 'reinforce', actor, at, details: { operation } });
          const action = changed ? 'updated' : 'unchanged';
          return { action, mode, item: requireItem(duplicate.id), policy, deduplicated: true };
        }
        const similar = mode === 'new' && fullText ? findSimilar(store, item, loadedSegmenter()) : [];
        const reported = similar.length > 0 ? { similar } : {};
        // Only into an item it could fold with: same type, source, address, visibility and expiry.
        const closest = similar.find((s) => s.kind === 'near-duplicate' && foldable(requireItem(s.id), item));
        if (closest !== undefined && mergeSimilarOne) {
          const target = requireItem(closest.id);
          const admitted = admitWrite(mergeSimilar(target, item), context, options.admit);
          let merged = target;
          if (hasChanges(target, admitted.item)) {
            merged = nextVersion(target, admitted.item, at);
            store.updateItem(merged, indexText(merged));
            record(merged, 'update', { mode: 'similar', similarity: closest.similarity, ...policyDetails(admitted.policy) });
          }
          store.reinforce(merged.id, at, REINFORCE_WEIGHT);
          const action = merged === target ? 'unchanged' : 'updated';
          return { action, mode: 'similar', item: requireItem(merged.id), policy: admitted.policy, ...reported };
        }
        store.insertItem(item, indexText(item));
        record(item, 'create', { mode, ...policyDetails(policy) });
        return { action: 'created', mode, item, policy, ...reported };
      }
      const { item: merged, policy } = admitWrite(mergeFields(existing, fields), context, options.admit);
      if (!hasChanges(existing, merged)) return { action: 'unchanged', mode, item: existing, policy };
      const item = nextVersion(existing, merged, at);
      store.updateItem(item, indexText(item));
      record(item, 'update', { mode, ...policyDetails(policy) });
      return { action: 'updated', mode, item, policy };
    };
    return store.transaction(() => linked(writeOnce()));
  }

  /**
   * The live matches recall left out for not being injectable, counted when nothing injectable
   * matched, with what would make them injectable.
   */
  async function nonInjectable(
    query: string,
    filter: RecallFilter,
    at: string,
  ): Promise<{ count: number; hint?: string }> {
    const held = {
      ...filter, injectable: false, archived: 'exclude', quarantined: 'include', recallable: true, live_at: at,
    } as const;
    const { hits } = await searchCascade(store, query, held, RECALL_POOL, fullText);
    if (hits.length === 0) return { count: 0 };
    const quarantined = hits.filter((h) => h.item.quarantined).length;
    const ways = [
      ...(hits.length > quarantined
        ? ['`engram search` lists them; re-run `engram ingest --injectable PATH` for ingested files, '
          + 'or `engram update ID --injectable` for one item']
        : []),
      ...(quarantined > 0 ? ['`engram review` lists the quarantined ones and `engram verify ID` keeps one'] : []),
    ];
    return { count: hits.length, hint: ways.join('; ') };
  }

  const withAuto = <T extends object>(result: T, writtenId?: string): Promise<T & AutoConsolidated> =>
    withAutoConsolidation(ctx, result, writtenId);

  return {
    path: store.path,
    ftsTokenizer: store.getMeta('fts_tokenizer') ?? null,

    put: async (input, { privileged = false, asProposal = false } = {}) => {
      const result = await write(input, asProposal ? 'propose' : 'put', privileged);
      return result.action === 'created' ? withAuto(result, result.item.id) : result;
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
        { store, actor, now, admit: options.admit },
      );
      return !report.dry_run && report.totals.ingested + report.totals.partial > 0 ? withAuto(report) : report;
    },

    async pull(text, input = {}) {
      // All or nothing: the policy sees the whole input, then every proposal is written in one
      // transaction; a refused one (policy, or put's schema: a bad type or tier) stores none.
      const defaults = parseInput(pullInputSchema, input);
      const plan = planPull(text, defaults);
      const texts = plan.entries.flatMap(({ input: p }) => [p.content, p.title, ...p.tags, ...(p.entities ?? [])]);
      await prepareIndexing(...texts);
      const result = commitPull(
        plan,
        (proposal) => writeParsed(parseInput(putInputSchema, proposal), 'pull'),
        (fn) => store.transaction(fn),
      );
      return result.stored + result.quarantined > 0 ? withAuto(result) : result;
    },

    async propose(proposals, input = {}) {
      const defaults = parseInput(pullInputSchema, input);
      const bad = proposals.findIndex((p) => {
        const content = typeof p === 'object' && p !== null ? (p as { content?: unknown }).content : undefined;
        return typeof content !== 'string' || content.trim() === '';
      });
      if (proposals.length === 0 || bad >= 0) {
        throw new EngramError('PARAM_ERROR', proposals.length === 0 ? 'No proposals given' : `Proposal ${bad + 1} has no content`, {
          hint: 'Give a JSON array of {"title", "content", "type", "tags", "provenance_hint"} objects.',
        });
      }
      const admitProposal = (proposal: Record<string, unknown>) => write(proposal as PutInput, 'propose');
      const result = await pullProposals(JSON.stringify(proposals), defaults, admitProposal, 'propose');
      return result.stored + result.quarantined > 0 ? withAuto(result) : result;
    },

    get: (query) => getItem(ctx, query),
    list: (filter) => listItems(ctx, filter),
    search: (input) => search(ctx, input),
    recall: (input) => recall(ctx, input, nonInjectable),
    show: (id, showOptions) => showItem(ctx, id, showOptions),
    consolidate: (consolidateOptions) => runConsolidation(ctx, consolidateOptions),
    consolidationCandidates: (candidatesOptions) => findConsolidationCandidates(ctx, candidatesOptions),
    suggest: (input) => suggest(ctx, input),
    cleanup: (cleanupOptions) => runCleanup(ctx, cleanupOptions),
    history: (id) => itemHistory(ctx, id),

    async delete(id, { hard = false } = {}) {
      return store.transaction((): DeleteResult => {
        const existing = requireItem(id);
        if (hard) {
          const removed = store.deleteItem(id);
          store.addEvent({ item_id: id, action: 'delete', actor, at: now(), details: { removed } });
          return { id, action: 'deleted', removed };
        }
        if (existing.archived) return { id, action: 'unchanged' };
        const item = nextVersion(existing, { ...existing, archived: true }, now());
        store.updateItem(item);
        record(item, 'archive');
        return { id, action: 'archived' };
      });
    },

    async link(input) {
      const parsed = parseInput(linkInputSchema, input);
      if (parsed.src_id === parsed.dst_id) {
        throw new EngramError('PARAM_ERROR', 'An item cannot link to itself', {
          details: { id: parsed.src_id },
        });
      }
      return store.transaction((): LinkResult => {
        requireItem(parsed.src_id);
        requireItem(parsed.dst_id);
        const link: MemoryLink = { ...parsed, created_at: now() };
        const created = store.addLink(link);
        if (created) {
          store.addEvent({
            item_id: link.src_id,
            action: 'link',
            actor,
            at: link.created_at,
            details: { ...parsed },
          });
        }
        return { created, link };
      });
    },

    stats: () => stats(ctx),
    workspaces: () => listWorkspaces(ctx),
    registerWorkspace: (input) => registerWorkspace(ctx, input),
    removeWorkspace: (name) => removeWorkspace(ctx, name),
    resolveWorkspace: (name) => resolveWorkspace(ctx, name),
    palace: (input) => palace(ctx, input),
    reindex: (reindexOptions) => reindex(ctx, reindexOptions),
    doctor: () => doctor(ctx),
    exportLines: (exportOptions) => exportLines(ctx, exportOptions),
    review: (reviewOptions) => review(ctx, reviewOptions),

    async update(id, input) {
      const fields = parseInput(updateInputSchema, input);
      const existing = requireItem(id);
      return write({ ...fields, id, content: fields.content ?? existing.content } as PutInput, 'put');
    },

    async forget(id) {
      return forgetItem(store, actor, id, now());
    },

    links: (id) => itemLinks(ctx, id),

    async verify(id) {
      return verifyItem(store, actor, id, now());
    },

    async reject(id, { reason } = {}) {
      requireCleanFields({ reason });
      return rejectItem(store, actor, id, now(), reason);
    },

    importLines(lines, { strict = false } = {}) {
      return importLines(lines, {
        store,
        actor,
        now,
        strict,
        admit: (item, privileged) =>
          admitWrite(item, { operation: 'import', actor, now: now(), privileged }, options.admit).item,
      });
    },

    close() {
      store.close();
    },
  };
}

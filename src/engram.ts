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
import { EngramError, FIX_HINTS, toEngramError } from './errors.js';
import { type AdmissionHook, admitWrite } from './items/admission.js';
import { type IngestProgress, type IngestReport, ingestSources } from './ingest/ingest.js';
import type { PullResult } from './ingest/pull.js';
import {
  forgetItem,
  rejectItem,
  type ReviewDecision,
  type ReviewReport,
  reviewItems,
  verifyItem,
} from './items/governance.js';
import { requireItem as requireStoredItem } from './items/lookup.js';
import { exportLine } from './items/build-item.js';
import { redactSecrets, requireCleanFields } from './items/field-policy.js';
import { type ImportReport, importLines } from './items/import-lines.js';
import { parseInput } from './items/parse-input.js';
import {
  type GetQuery,
  getQuerySchema,
  type IngestInput,
  ingestInputSchema,
  type PullInput,
  type ListInput,
  listFilterSchema,
  type PutInput,
  type RecallInput,
  recallInputSchema,
  type SuggestInput,
  suggestInputSchema,
  type UpdateInput,
  type SearchInput,
  searchInputSchema,
  type PalaceInput,
  palaceInputSchema,
  type WorkspaceInput,
  workspaceInputSchema,
} from './items/schemas.js';
import { evaluatePolicy, type PolicyOptions, type PolicySubject, type PolicyVerdict } from './policy/evaluate.js';
import { type CleanupPlan, cleanup } from './lifecycle/cleanup.js';
import {
  type ConsolidationPlan,
  consolidate,
} from './lifecycle/consolidate.js';
import { type ConsolidationCandidates, consolidationCandidates } from './lifecycle/candidates.js';
import { type Decay, decayOf } from './forgetting/curve.js';
import { possibleContradictions } from './lifecycle/contradictions.js';
import { rankSuggestions, type Suggestion } from './lifecycle/suggest.js';
import { redactItem } from './policy/redact.js';
import { ALL_RULES, type PolicyRule } from './policy/rules.js';
import { type PackedRecall, packRecall, type RecallMode } from './recall/injection-block.js';
import { explainHit, rankHits, type SearchStage, searchCascade } from './search/cascade.js';
import type { SearchSort } from './search/rank.js';
import type { CreatedFile } from './store/sqlite/remove-empty-store.js';
import type { ListFilter, Store, StoreHealth } from './store/store.js';
import type { LinkType, MemoryItem, MemoryLink, Revision, Secrecy, StoreStats, Workspace } from './types.js';
import { createIndexer } from './search/indexer.js';
import { loadSegmenter } from './search/segment.js';
import { createItemWriter } from './items/writer.js';
import type { OperationContext } from './context.js';
import { type DeleteResult, deleteItem } from './put/delete-item.js';
import { type LinkResult, linkItems } from './put/link-items.js';
import { propose, pull } from './put/pull.js';
import { putItem, updateItem, type WriteOptions, type WriteResult } from './put/put.js';
import { sha256 } from './util/hash.js';
import { type Clock, systemClock } from './util/time.js';
import type { AutoConsolidateOptions } from './context.js';

export type { ImportReport } from './items/import-lines.js';
export type { CreatedFile } from './store/sqlite/remove-empty-store.js';
export type {
  GetQuery,
  ListInput,
  PutInput,
  RecallInput,
  SearchInput,
  SuggestInput,
  UpdateInput,
} from './items/schemas.js';

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

/**
 * The automatic run looks at the newest this many STM items only, so a write never waits on a
 * whole-store pass; `engram consolidate` takes them all.
 */
const AUTO_CONSOLIDATE_WINDOW = 2000;

/** The CLI's automatic consolidation: at 20 live STM items (KOAS), at most every 10 minutes. */
export const AUTO_CONSOLIDATE_DEFAULTS: AutoConsolidateOptions = { threshold: 20, intervalMinutes: 10 };

/** A write's result, with what automatic consolidation did when the write triggered it. */
export interface AutoConsolidated {
  auto_consolidation?: AutoConsolidation;
}

/** What an automatic consolidation did after a write. */
export interface AutoConsolidation {
  /** Live STM items that triggered it. */
  stm: number;
  threshold: number;
  clusters: number;
  archived: number;
  promoted: number;
  /** The merged item that now holds the written item, when it was one of the originals. */
  merged_into?: string;
}

/** A write's result (see {@link WriteResult}), with what automatic consolidation did after it. */
export interface PutResult extends WriteResult, AutoConsolidated {}

export interface ListResult {
  items: MemoryItem[];
  total: number;
  limit: number;
  offset: number;
}

export interface ShowResult {
  item: MemoryItem;
  revisions: number;
  links: MemoryLink[];
  /** The forgetting curve now: decay, staleness and the rates behind them. */
  lifecycle: Decay;
}

export type { SearchStage } from './search/cascade.js';

export interface SearchHit extends MemoryItem {
  /** The final ranking score (see `search/rank.ts`); higher is better. */
  score: number;
  /** Every ranking factor, with `explain: true`. */
  explain?: ReturnType<typeof explainHit>;
}

export interface SearchResult {
  query: string;
  /** The words searched for, after stopwords and segmentation. */
  terms: string[];
  stage: SearchStage;
  /** False when the LIKE fallback answered because the full-text index is unavailable or off. */
  fts: boolean;
  sort: SearchSort;
  count: number;
  items: SearchHit[];
}

export interface RecallResult extends Omit<PackedRecall, 'text'> {
  /** The block (or catalog) to paste into a prompt; '' when nothing matched. */
  inject_text: string;
  query: string;
  mode: RecallMode;
  format_version: 1;
  budget: number;
  stage: SearchStage;
  fts: boolean;
  /**
   * When no injectable item matched: how many live items did match but are not injectable
   * (quarantined, or ingested without `--injectable`), so an empty recall is never a silent
   * surprise. 0 when something injectable matched (they are not looked for then).
   */
  non_injectable: number;
  /** With `non_injectable` > 0: how to make those items injectable. */
  hint?: string;
}

export interface ReindexResult {
  indexed: number;
  full_text: boolean;
}

export interface DoctorReport {
  ok: boolean;
  schema_version: number;
  /** The tokenizer preset recorded with the search index when the store was created. */
  fts_tokenizer: string | null;
  full_text: boolean;
  items: number;
  indexed: number;
  integrity: string[];
  /** Every item's content hashed again as the write path does (SHA-256): the ids that differ. */
  content_hashes: { checked: number; mismatched: string[] };
  problems: string[];
}

export type { PullEntry, PullResult } from './ingest/pull.js';
export type { CleanupPlan } from './lifecycle/cleanup.js';
export type { ConsolidationPlan } from './lifecycle/consolidate.js';
export type { CandidateGroup, ConsolidationCandidates } from './lifecycle/candidates.js';
export type { DeleteResult } from './put/delete-item.js';
export type { LinkResult } from './put/link-items.js';
export type { WriteOptions, WriteResult } from './put/put.js';
export type { Decay } from './forgetting/curve.js';
export type { SimilarItem } from './lifecycle/similar.js';
export type { Suggestion } from './lifecycle/suggest.js';
export type { IngestProgress, IngestReport } from './ingest/ingest.js';
export type { IngestInput, PullInput } from './items/schemas.js';

export type { PalaceInput, WorkspaceInput } from './items/schemas.js';

/** One level of the palace: counts of the next level down, or (with a tag) the items there. */
export interface PalaceResult {
  path: { scope: string | null; tier: string | null; type: string | null; tag: string | null };
  level: 'tier' | 'type' | 'tag' | 'items';
  counts?: Record<string, number>;
  items?: { id: string; title: string; tier: string; type: string; tags: string[]; updated_at: string }[];
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
  show(id: string, options?: { secrecy?: Secrecy }): Promise<ShowResult>;
  /** Every stored version, oldest first. */
  history(id: string): Promise<Revision[]>;
  /**
   * Archives expired, stale (decay ≤ 0.2) and weak (weight < 0.1 after 30 days) items and, with
   * `purgeDays`, deletes archived items older than that — only with `apply`; otherwise the plan.
   */
  cleanup(options?: { apply?: boolean; purgeDays?: number; scope?: string }): Promise<CleanupPlan>;
  /**
   * Deterministic, lossless consolidation: STM items (same scope, type, source file and key) whose
   * every sentence and distinguishing token another item already says fold into it, as one MTM
   * item; related items are left apart; MTM items that qualify promote to LTM.
   */
  consolidate(options?: { dryRun?: boolean; scope?: string }): Promise<ConsolidationPlan>;
  /**
   * Host-model consolidation (mem-context): groups to extract (STM older than 3 days) and related
   * memories to merge (alike, but each with facts of its own), each with a ready prompt; the
   * answer comes back through `pull` with `supersedes`. engram calls no model itself.
   */
  consolidationCandidates(options?: { scope?: string }): Promise<ConsolidationCandidates>;
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
  registerWorkspace(input: WorkspaceInput): Promise<{ created: boolean; workspace: Workspace }>;
  /** Removes a workspace (never `default`); its items stay. */
  removeWorkspace(name: string): Promise<{ removed: Workspace }>;
  /** The workspace called `name`; NOT_FOUND for an unknown one. */
  resolveWorkspace(name: string): Promise<Workspace>;
  /** Browses live items: tiers, then types in a tier, then tags in a type, then the items with a tag. */
  palace(input?: PalaceInput): Promise<PalaceResult>;
  /** Rebuilds the full-text index from the items (derived data); returns how many were indexed. */
  reindex(options?: { onProgress?: (done: number, total: number) => void }): Promise<ReindexResult>;
  /** Schema version, full-text availability, index/item agreement and SQLite's integrity check. */
  doctor(): Promise<DoctorReport>;
  /** JSONL lines, one complete item each, oldest first. */
  exportLines(options?: { withHistory?: boolean; secrecy?: Secrecy }): AsyncIterable<string>;
  /** Quarantined, contradicted and soon-expiring (within `withinHours`, default 24) items. */
  review(options?: { withinHours?: number; limit?: number }): Promise<ReviewReport>;
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

const DEFAULT_LIST_LIMIT = 50;
/** The protected workspace every store has (scope `project`). */
export const DEFAULT_WORKSPACE = 'default';
/** `engram review` lists items expiring within this many hours. */
const DEFAULT_REVIEW_HOURS = 24;
const DEFAULT_SEARCH_K = 10;
/** Default recall budget in tokens (KOAS); `ENGRAM_BUDGET` and `--budget` override it. */
export const DEFAULT_BUDGET = 1500;
/** How many recent candidates suggest scores. */
const SUGGEST_POOL = 200;
/** How many search hits recall considers before packing. */
const RECALL_POOL = 100;

/** The filters recall takes besides the query. */
type RecallFilter = Pick<ListFilter, 'tier' | 'type' | 'scope' | 'tags'>;

/**
 * The write policy's verdict on any text, without storing anything (`engram policy check`).
 *
 * @example
 * checkPolicy({ content: 'Deploys run from the release branch' }).verdict; // 'accept'
 */
export function checkPolicy(subject: PolicySubject, options: PolicyOptions = {}): PolicyVerdict {
  return evaluatePolicy(subject, options);
}

/** Every rule of the write policy: id, group, action and description (`engram policy rules`). */
export const POLICY_RULES: readonly PolicyRule[] = ALL_RULES;

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

  const indexer = createIndexer({ loadSegmenter });
  const writer = createItemWriter({ store, indexer, actor });
  const ctx: OperationContext = {
    store, writer, indexer, clock, now, actor, fullText, defaultSecrecy,
    admit: options.admit,
    autoConsolidate: options.autoConsolidate,
  };

  const requireItem = (id: string): MemoryItem => requireStoredItem(store, id);

  const requireWorkspace = (name: string): Workspace => {
    const workspace = store.getWorkspace(name);
    if (workspace === undefined) {
      const known = store.listWorkspaces().map((w) => w.name).join(', ');
      throw new EngramError('NOT_FOUND', `Unknown workspace: ${name}`, {
        hint: `Known workspaces: ${known}. ${FIX_HINTS.register_workspace}`,
        fix: 'register_workspace',
        details: { workspace: name },
      });
    }
    return workspace;
  };

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
    const { hits } = await searchCascade(store, query, held, RECALL_POOL, fullText, indexer);
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

  const AUTO_META_KEY = 'auto_consolidated_at';
  const auto = options.autoConsolidate;
  const autoDue = (at: Date): boolean => {
    const last = store.getMeta(AUTO_META_KEY);
    return last === undefined || at.getTime() - Date.parse(last) >= (auto?.intervalMinutes ?? 0) * 60_000;
  };

  /**
   * KOAS's trigger, after a write: consolidate when STM holds `threshold` memories, at most once per
   * interval. Ingested document chunks neither count nor merge here: folding alike parts of a file
   * into one would hide the others from search; `engram consolidate` still takes them.
   */
  async function autoConsolidate(writtenId?: string): Promise<AutoConsolidation | undefined> {
    if (auto === undefined) return undefined;
    const at = clock();
    if (!autoDue(at) || store.countLiveMemories('stm') < auto.threshold) return undefined;
    await writer.prepareAll();
    return store.transaction((): AutoConsolidation | undefined => {
      // Another process may have run it since the check above.
      const stm = store.countLiveMemories('stm');
      if (!autoDue(at) || stm < auto.threshold) return undefined;
      const plan = consolidate(ctx, {
        now: at.toISOString(),
        actor,
        dryRun: false,
        admit: options.admit,
        newest: AUTO_CONSOLIDATE_WINDOW,
      });
      store.setMeta(AUTO_META_KEY, at.toISOString());
      const folded = plan.clusters.filter((c) => c.refused === undefined);
      const summary: AutoConsolidation = {
        stm,
        threshold: auto.threshold,
        clusters: folded.length,
        archived: folded.reduce((n, c) => n + c.members.length, 0),
        promoted: plan.promotions.length,
      };
      store.addEvent({ item_id: null, action: 'auto_consolidate', actor, at: at.toISOString(), details: { ...summary } });
      const home = folded.find((c) => writtenId !== undefined && c.members.includes(writtenId));
      return home ? { ...summary, merged_into: home.result_id } : summary;
    });
  }

  const withAuto = async <T extends object>(result: T, writtenId?: string): Promise<T & AutoConsolidated> => {
    const ran = await autoConsolidate(writtenId);
    return ran ? { ...result, auto_consolidation: ran } : result;
  };

  return {
    path: store.path,
    ftsTokenizer: store.getMeta('fts_tokenizer') ?? null,

    put: async (input, { privileged = false, asProposal = false } = {}) => {
      const result = await putItem(ctx, input, asProposal ? 'propose' : 'put', privileged);
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
        { store, writer, actor, now, admit: options.admit },
      );
      return !report.dry_run && report.totals.ingested + report.totals.partial > 0 ? withAuto(report) : report;
    },

    async pull(text, input = {}) {
      const result = await pull(ctx, text, input);
      return result.stored + result.quarantined > 0 ? withAuto(result) : result;
    },

    async propose(proposals, input = {}) {
      const result = await propose(ctx, proposals, input);
      return result.stored + result.quarantined > 0 ? withAuto(result) : result;
    },

    async get(query) {
      const parsed = parseInput(getQuerySchema, query);
      if ('id' in parsed) return requireItem(parsed.id);
      const item = store.findByKey({
        layer: parsed.layer,
        key: parsed.key,
        task_id: parsed.task_id ?? null,
        step_id: parsed.step_id ?? null,
      });
      if (item === undefined) {
        const address = [parsed.layer, parsed.key, parsed.task_id, parsed.step_id].filter(Boolean);
        throw new EngramError('NOT_FOUND', `No memory item at ${address.join('/')}`, {
          hint: FIX_HINTS.check_address,
          fix: 'check_address',
          details: { ...parsed },
        });
      }
      return item;
    },

    async list(filter = {}) {
      const parsed = parseInput(listFilterSchema, filter);
      const limit = parsed.limit ?? DEFAULT_LIST_LIMIT;
      const offset = parsed.offset ?? 0;
      const page = store.listItems({ ...parsed, limit, offset });
      return { ...page, limit, offset };
    },

    async search(input) {
      const parsed = parseInput(searchInputSchema, input);
      const { query, k = DEFAULT_SEARCH_K, sort = 'relevance', explain = false, secrecy = defaultSecrecy, ...rest } = parsed;
      const filter = { ...rest, quarantined: rest.quarantined ?? 'exclude' };
      const found = await searchCascade(store, query, filter, Math.min(Math.max(k * 3, 30), 500), fullText, indexer);
      const items = rankHits(found.hits, sort, clock())
        .slice(0, k)
        .map(({ item, factors }) => ({
          ...redactItem(item, secrecy),
          score: factors.final,
          ...(explain ? { explain: explainHit(item, factors, found.terms, clock()) } : {}),
        }));
      return { query, terms: found.terms, stage: found.stage, fts: found.fts, sort, count: items.length, items };
    },

    async recall(input) {
      const {
        query,
        budget = DEFAULT_BUDGET,
        mode = 'inject',
        header = true,
        secrecy = defaultSecrecy,
        ...filter
      } = parseInput(recallInputSchema, input);
      const at = now();
      const live = {
        ...filter,
        injectable: true,
        archived: 'exclude',
        quarantined: 'exclude',
        recallable: true,
        live_at: at,
      } as const;
      const found = await searchCascade(store, query, live, RECALL_POOL, fullText, indexer);
      const ranked = rankHits(found.hits, 'relevance', clock()).map(({ item, factors }) => ({
        item: redactItem(item, secrecy),
        score: factors.final,
      }));
      const packed = packRecall(ranked, { budget, mode, header });
      const held = packed.matched === 0 ? await nonInjectable(query, filter, at) : { count: 0 };
      store.transaction(() => {
        store.touchItems(
          packed.injected.map((e) => e.id),
          at,
        );
        store.addEvent({
          item_id: null,
          action: 'recall',
          actor,
          at,
          // A read never fails on its query, but a secret in it is not recorded.
          details: {
            query: redactSecrets(query), mode, matched: packed.matched, injected: packed.injected.map((e) => e.id),
          },
        });
      });
      const { text, ...rest } = packed;
      return {
        query, mode, format_version: 1, budget, stage: found.stage, fts: found.fts, inject_text: text, ...rest,
        non_injectable: held.count,
        ...(held.hint === undefined ? {} : { hint: held.hint }),
      };
    },

    async show(id, { secrecy = defaultSecrecy } = {}) {
      const stored = requireItem(id);
      const item = redactItem(stored, secrecy);
      const lifecycle = decayOf(stored, clock());
      return { item, revisions: store.countRevisions(id), links: store.listLinks(id), lifecycle };
    },

    async consolidate({ dryRun = false, scope } = {}) {
      // Merged items are indexed inside the transaction; the segmenter must be ready for CJK text.
      if (!dryRun) await writer.prepareAll();
      return consolidate(ctx, { now: now(), actor, scope, dryRun, admit: options.admit });
    },

    async consolidationCandidates({ scope } = {}) {
      return consolidationCandidates(store, clock(), scope);
    },

    async suggest(input) {
      const { context = '', k = 5, tags = [], ...filter } = parseInput(suggestInputSchema, input);
      // Candidates: the filtered items, most recent first (memtool); the context ranks them.
      const { items } = store.listItems({ ...filter, tags, live_at: now(), limit: SUGGEST_POOL });
      return rankSuggestions(items, context, tags, clock()).slice(0, k);
    },

    async cleanup({ apply = false, purgeDays, scope } = {}) {
      if (purgeDays !== undefined && (!Number.isInteger(purgeDays) || purgeDays < 0)) {
        throw new EngramError('PARAM_ERROR', `Invalid purge age ${purgeDays}`, { hint: 'Expected a whole number of days >= 0' });
      }
      return cleanup(ctx, { now: clock(), apply, purgeDays, scope });
    },

    async history(id) {
      requireItem(id);
      return store.listRevisions(id);
    },

    async delete(id, { hard = false } = {}) {
      return deleteItem(ctx, id, hard);
    },

    async link(input) {
      return linkItems(ctx, input);
    },

    async stats() {
      return store.stats();
    },

    async workspaces() {
      return store.listWorkspaces();
    },

    async registerWorkspace(input) {
      const parsed = parseInput(workspaceInputSchema, input);
      if (parsed.name === DEFAULT_WORKSPACE) {
        throw new EngramError('PARAM_ERROR', 'The default workspace is protected', {
          hint: 'Register a workspace under another name.',
        });
      }
      return store.transaction(() => {
        const at = now();
        const existing = store.getWorkspace(parsed.name);
        const workspace: Workspace = {
          name: parsed.name,
          scope: parsed.scope ?? existing?.scope ?? parsed.name,
          corpus_id: parsed.corpus_id ?? existing?.corpus_id ?? '',
          description: parsed.description ?? existing?.description ?? '',
          created_at: existing?.created_at ?? at,
          updated_at: at,
        };
        const { name, scope, corpus_id, description } = workspace;
        requireCleanFields({ name, scope, corpus_id, description });
        const created = store.putWorkspace(workspace);
        store.addEvent({ item_id: null, action: 'workspace', actor, at, details: { ...workspace, created } });
        return { created, workspace };
      });
    },

    async removeWorkspace(name) {
      if (name === DEFAULT_WORKSPACE) {
        throw new EngramError('PARAM_ERROR', 'The default workspace is protected', {
          hint: 'Only workspaces you registered can be removed.',
        });
      }
      return store.transaction(() => {
        const removed = requireWorkspace(name);
        store.removeWorkspace(name);
        store.addEvent({ item_id: null, action: 'workspace_remove', actor, at: now(), details: { name } });
        return { removed };
      });
    },

    async resolveWorkspace(name) {
      return requireWorkspace(name);
    },

    async palace(input = {}) {
      const { scope, tier, type, tag, limit = DEFAULT_LIST_LIMIT } = parseInput(palaceInputSchema, input);
      const path = { scope: scope ?? null, tier: tier ?? null, type: type ?? null, tag: tag ?? null };
      const filter = { archived: 'exclude', scope, tier, type } as const;
      if (tag !== undefined) {
        const { items } = store.listItems({ ...filter, tags: [tag], limit });
        const entries = items.map((i) => ({
          id: i.id, title: i.title, tier: i.tier, type: i.type, tags: i.tags, updated_at: i.updated_at,
        }));
        return { path, level: 'items', items: entries };
      }
      const level = tier === undefined ? 'tier' : type === undefined ? 'type' : 'tag';
      return { path, level, counts: store.countGroups(level, filter) };
    },

    async reindex({ onProgress } = {}) {
      await indexer.prepareAll();
      const { total } = store.listItems({ archived: 'include', limit: 1 });
      const entries = {
        * [Symbol.iterator]() {
          let done = 0;
          for (const item of store.iterateItems()) {
            yield { item, index: indexer.indexText(item) };
            if (++done % 1000 === 0 || done === total) onProgress?.(done, total);
          }
        },
      };
      return { indexed: store.rebuildFullText(entries), full_text: store.hasFullText() };
    },

    async doctor() {
      let checked: StoreHealth;
      try {
        checked = store.health();
      } catch (error) {
        // Damage SQLite's check cannot walk past: reported, not thrown (that is what doctor is for).
        const failure = toEngramError(error);
        if (failure.code !== 'STORE_CORRUPT') throw failure;
        const version = Number(store.getMeta('schema_version') ?? 0);
        const health = { full_text: store.hasFullText(), items: 0, indexed: 0, integrity: [failure.message] };
        const content_hashes = { checked: 0, mismatched: [] };
        const problems = [`integrity_check: ${failure.message}`];
        return { ok: false, schema_version: version, fts_tokenizer: store.getMeta('fts_tokenizer') ?? null, ...health, content_hashes, problems };
      }
      const { schema_version, ...health } = checked;
      const fts_tokenizer = store.getMeta('fts_tokenizer') ?? null;
      const problems: string[] = [];
      if (health.integrity.join() !== 'ok') problems.push(`integrity_check: ${health.integrity.join('; ')}`);
      if (!health.full_text) problems.push('full-text index unavailable (FTS5 missing): search uses LIKE');
      else if (health.indexed !== health.items) {
        problems.push(`full-text index has ${health.indexed} rows for ${health.items} items: run \`engram reindex\``);
      }
      const content_hashes = { checked: 0, mismatched: [] as string[] };
      try {
        for (const item of store.iterateItems()) {
          content_hashes.checked++;
          if (sha256(item.content) !== item.content_hash) content_hashes.mismatched.push(item.id);
        }
      } catch (error) {
        problems.push(`content hashes: stopped after ${content_hashes.checked} items (${toEngramError(error).message})`);
      }
      const { mismatched } = content_hashes;
      if (mismatched.length > 0) {
        const shown = mismatched.slice(0, 20).join(', ') + (mismatched.length > 20 ? ', …' : '');
        problems.push(`content_hash differs from the content of ${mismatched.length} item(s), changed outside engram: ${shown}`);
      }
      return { ok: problems.length === 0, schema_version, fts_tokenizer, ...health, content_hashes, problems };
    },

    async* exportLines({ withHistory = false, secrecy = defaultSecrecy } = {}) {
      for (const item of store.iterateItems()) {
        const revisions = withHistory
          ? store.listRevisions(item.id).map((r) => ({ ...r, item: redactItem(r.item, secrecy) }))
          : undefined;
        yield exportLine(redactItem(item, secrecy), revisions);
      }
    },

    async review({ withinHours = DEFAULT_REVIEW_HOURS, limit = DEFAULT_LIST_LIMIT } = {}) {
      const report = reviewItems(store, now(), withinHours, limit);
      return { ...report, possible_contradictions: possibleContradictions(store, limit) };
    },

    async update(id, input) {
      return updateItem(ctx, id, input);
    },

    async forget(id) {
      return forgetItem(ctx, id, now());
    },

    async links(id) {
      requireItem(id);
      return store.listLinks(id);
    },

    async verify(id) {
      return verifyItem(ctx, id, now());
    },

    async reject(id, { reason } = {}) {
      requireCleanFields({ reason });
      return rejectItem(ctx, id, now(), reason);
    },

    importLines(lines, { strict = false } = {}) {
      return importLines(lines, {
        store,
        writer,
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

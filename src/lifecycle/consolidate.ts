/**
 * Deterministic consolidation (memctl, KOAS; no LLM), lossless by construction. Live,
 * non-quarantined, recallable STM memories (ingested chunks never: their file is their source) are
 * grouped by scope, type, source file, logical address, injectability, validation, secrecy and
 * expiry, and inside a group an item folds into another only when that other already says all of
 * it ({@link says}: its text, as written, is a run of the other's). Each fold group becomes one MTM
 * item: the container's title and content, tags and entities united, an id derived from its
 * members, linked `supersedes` to each original, which is archived. Items that are only related
 * (same topic, different facts) stay apart: `consolidationCandidates` offers them to the host
 * model. Then MTM items promote to LTM when used ≥ 5 times, typed decision / constraint /
 * definition, verified, or confident (≥ 0.8) with provenance.
 */
import { type Admission, admitWrite, type AdmissionHook, rejectedRules } from '../items/admission.js';
import { isEngramError } from '../errors.js';
import { nextVersion } from '../items/build-item.js';
import { policyDetails, recordWrite } from '../items/journal.js';
import { indexText } from '../search/index-text.js';
import { queryTerms } from '../search/fts-query.js';
import type { Store } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { sha256 } from '../util/hash.js';
import { saidText, says, type SaidText } from './lossless.js';

export const TAG_SIMILARITY = 0.3;
export const CONTENT_SIMILARITY = 0.35;
export const PROMOTE_USAGE = 5;
const PROMOTED_TYPES: ReadonlySet<string> = new Set(['decision', 'constraint', 'definition']);

export interface ConsolidationCluster {
  /** The id the merged item gets (the same members always give the same id). */
  result_id: string;
  /** The member that says everything the others say: its title and content are kept. */
  winner: string;
  /** `duplicate`: every member says the same sentences; `near-duplicate`: the winner says more. */
  kind: 'duplicate' | 'near-duplicate';
  members: string[];
  type: MemoryItem['type'];
  source: string | null;
  /**
   * Set when the merged item did not pass the write policy (rejected, or it would be quarantined
   * while its members are not): nothing was merged, the members stay as they were.
   */
  refused?: { verdict: 'reject' | 'quarantine'; rules: string[] };
}

export type PromotionReason = 'usage' | 'type' | 'verified' | 'confident';

export interface ConsolidationPlan {
  dry_run: boolean;
  scope: string | null;
  candidates: number;
  clusters: ConsolidationCluster[];
  promotions: { id: string; reasons: PromotionReason[] }[];
}

export interface ConsolidateOptions {
  now: string;
  actor: string | null;
  scope?: string;
  dryRun: boolean;
  /** Only the newest this many STM items (the automatic trigger's bound); all of them when absent. */
  newest?: number;
  admit?: AdmissionHook;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const x of small) if (large.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

function sourceOf(item: MemoryItem): string {
  const path = item.provenance?.source_path;
  return typeof path === 'string' ? path : (item.source ?? '');
}

/** Oldest first; ties by id. */
export const byAge = (a: MemoryItem, b: MemoryItem) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

function promotionReasons(item: MemoryItem): PromotionReason[] {
  const reasons: PromotionReason[] = [];
  if (item.usage_count >= PROMOTE_USAGE) reasons.push('usage');
  if (PROMOTED_TYPES.has(item.type)) reasons.push('type');
  if (item.validation === 'verified') reasons.push('verified');
  // Where it came from counts, not that it was consolidated.
  const sourced = Object.keys(item.provenance ?? {}).some((k) => k !== 'consolidated_from');
  if (item.confidence >= 0.8 && sourced) reasons.push('confident');
  return reasons;
}

/** The features clustering compares: tag set and word set (every word, not a query's first 32). */
export function similarityFeatures(item: Pick<MemoryItem, 'tags' | 'title' | 'content'>): Features {
  return { tags: new Set(item.tags), words: new Set(queryTerms(`${item.title} ${item.content}`, undefined, Infinity)) };
}

export interface Features {
  tags: ReadonlySet<string>;
  words: ReadonlySet<string>;
}

/** Word Jaccard, the content similarity used by consolidation and near-duplicate reporting. */
export function contentSimilarity(a: Features, b: Features): number {
  return jaccard(a.words, b.words);
}

function alike(a: Features, b: Features): boolean {
  // Jaccard can never reach t when one set is more than 1/t times the other.
  const [small, large] = a.words.size <= b.words.size ? [a.words.size, b.words.size] : [b.words.size, a.words.size];
  if (small < CONTENT_SIMILARITY * large) return false;
  return jaccard(a.tags, b.tags) >= TAG_SIMILARITY && jaccard(a.words, b.words) >= CONTENT_SIMILARITY;
}

/**
 * The prefix filter of set-similarity joins: with every word set ordered rarest first (one order
 * for the whole group), two sets with Jaccard ≥ t always share a word among their first
 * `n - ceil(t·n) + 1` words. Only those words need indexing and probing.
 */
function prefixWords(words: ReadonlySet<string>, frequency: ReadonlyMap<string, number>): string[] {
  const rarestFirst = [...words].sort((a, b) => (frequency.get(a) ?? 0) - (frequency.get(b) ?? 0) || (a < b ? -1 : 1));
  return rarestFirst.slice(0, words.size - Math.ceil(CONTENT_SIMILARITY * words.size) + 1);
}

/**
 * Complete-link clusters of two or more, oldest item first: an item joins the first cluster
 * whose every member is alike. A cluster can only take an item similar to its first member, so
 * clusters are found through their first member's prefix words instead of scanned — the same
 * result as the scan, in near-linear time on real text.
 */
export function clusterItems(items: readonly MemoryItem[]): MemoryItem[][] {
  const groups = new Map<string, MemoryItem[]>();
  for (const item of [...items].sort(byAge)) {
    const key = JSON.stringify([item.scope, item.type, sourceOf(item)]);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  const clusters: MemoryItem[][] = [];
  for (const group of groups.values()) {
    const local: { members: MemoryItem[]; features: Features[] }[] = [];
    const byWord = new Map<string, number[]>();
    const wordless: number[] = [];
    const features = group.map((item) => similarityFeatures(item));
    const seen = new Int32Array(group.length);
    const frequency = new Map<string, number>();
    for (const f of features) for (const word of f.words) frequency.set(word, (frequency.get(word) ?? 0) + 1);
    for (const [position, item] of group.entries()) {
      const f = features[position] as Features;
      const prefix = prefixWords(f.words, frequency);
      // Each cluster once (marked with this item's position + 1), then in creation order.
      const found: number[] = [];
      for (const word of prefix) {
        for (const c of byWord.get(word) ?? []) {
          if (seen[c] !== position + 1) {
            seen[c] = position + 1;
            found.push(c);
          }
        }
      }
      const candidates = f.words.size === 0 ? wordless : Int32Array.from(found).sort();
      let home: (typeof local)[number] | undefined;
      for (const c of candidates) {
        const cluster = local[c];
        if (cluster?.features.every((g) => alike(f, g))) {
          home = cluster;
          break;
        }
      }
      if (home) {
        home.members.push(item);
        home.features.push(f);
        continue;
      }
      const index = local.push({ members: [item], features: [f] }) - 1;
      if (f.words.size === 0) wordless.push(index);
      for (const word of prefix) {
        const list = byWord.get(word);
        if (list) list.push(index);
        else byWord.set(word, [index]);
      }
    }
    clusters.push(...local.map((c) => c.members));
  }
  return clusters.filter((c) => c.length >= 2);
}

/** A fold group: the winner first, then the members it says everything of, oldest first. */
export interface FoldGroup {
  winner: MemoryItem;
  members: MemoryItem[];
  kind: ConsolidationCluster['kind'];
}

/**
 * What two items must share to fold: where they live and come from (scope, type, source, logical
 * address) and how they may be used (injectable, validation, secrecy, expiry) — a fold never makes
 * a hidden, contradicted or expiring text visible or lasting, nor hides a live one.
 */
const foldKey = (item: MemoryItem) =>
  JSON.stringify([
    item.scope, item.type, sourceOf(item), item.layer, item.key, item.task_id, item.step_id,
    item.injectable, item.validation, item.secrecy, item.expires_at,
  ]);

/** Whether `a` and `b` may ever fold into one item (see {@link foldKey}). */
export const foldable = (a: MemoryItem, b: MemoryItem): boolean => foldKey(a) === foldKey(b);

/**
 * The lossless merges among `items`: inside each group of the same {@link foldKey},
 * items are taken longest first and each folds into the first kept item that says all of it
 * (found through its rarest sentence), or is kept. Every folded item's text is in its winner, so
 * archiving it loses nothing.
 */
export function foldItems(items: readonly MemoryItem[]): FoldGroup[] {
  const groups = new Map<string, MemoryItem[]>();
  for (const item of [...items].sort(byAge)) {
    const key = foldKey(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  const folds: FoldGroup[] = [];
  for (const group of groups.values()) {
    const ordered = [...group].sort((a, b) => b.content.length - a.content.length || byAge(a, b));
    const said: SaidText[] = ordered.map((item) => saidText(item));
    const holders = new Map<string, number[]>();
    const folded = new Map<number, number[]>();
    for (const [i, mine] of said.entries()) {
      let rarest: number[] | undefined;
      for (const sentence of mine.sentences) {
        const list = holders.get(sentence);
        if (list === undefined) {
          rarest = undefined;
          break;
        }
        if (rarest === undefined || list.length < rarest.length) rarest = list;
      }
      const home = rarest?.find((k) => says(said[k] as SaidText, mine));
      if (home !== undefined && mine.sentences.size > 0) {
        folded.get(home)?.push(i);
        continue;
      }
      folded.set(i, []);
      for (const sentence of mine.sentences) {
        const list = holders.get(sentence);
        if (list) list.push(i);
        else holders.set(sentence, [i]);
      }
    }
    for (const [root, rest] of folded) {
      if (rest.length === 0) continue;
      const winner = ordered[root] as MemoryItem;
      const members = [root, ...rest].map((k) => ordered[k] as MemoryItem).sort(byAge);
      const same = rest.every((k) => (said[k] as SaidText).sentences.size === (said[root] as SaidText).sentences.size);
      folds.push({ winner, members, kind: same ? 'duplicate' : 'near-duplicate' });
    }
  }
  return folds.sort((a, b) => byAge(a.members[0] as MemoryItem, b.members[0] as MemoryItem));
}

function mergedItem({ winner, members }: FoldGroup, id: string, now: string): MemoryItem {
  const unite = (lists: string[][]) => [...new Set(lists.flat())];
  return {
    ...winner,
    id,
    tier: 'mtm',
    tags: unite(members.map((m) => m.tags)),
    entities: unite(members.map((m) => m.entities)),
    // Injectable only if every member was: a fold never makes a hidden text visible.
    injectable: members.every((m) => m.injectable && !m.quarantined),
    // The kept text's own confidence: a fact folded into a hedged note does not make the note surer.
    confidence: winner.confidence,
    weight: Math.max(...members.map((m) => m.weight)),
    // A recall that used several members used the fact once.
    usage_count: Math.max(...members.map((m) => m.usage_count)),
    provenance: { ...winner.provenance, consolidated_from: members.map((m) => m.id) },
    version: 1,
    created_at: now,
    updated_at: now,
    last_used_at: null,
    archived: false,
    quarantined: false,
  };
}

/** The merged item admitted by the write policy, or why it is refused (never stored then). */
function admitMerge(merged: MemoryItem, options: ConsolidateOptions): Admission | { refused: NonNullable<ConsolidationCluster['refused']> } {
  const context = { operation: 'consolidate', actor: options.actor, now: options.now } as const;
  try {
    const admission = admitWrite(merged, context, options.admit);
    if (admission.item.quarantined) {
      return { refused: { verdict: 'quarantine', rules: admission.policy.matches.map((m) => m.rule) } };
    }
    return admission;
  } catch (error) {
    const rules = isEngramError(error) ? rejectedRules(error) : undefined;
    if (rules === undefined) throw error;
    return { refused: { verdict: 'reject', rules } };
  }
}

/** Plans, and unless `dryRun` applies in one transaction, one consolidation pass. */
export function consolidate(store: Store, options: ConsolidateOptions): ConsolidationPlan {
  const run = (): ConsolidationPlan => {
    const stm = {
      tier: 'stm',
      quarantined: 'exclude',
      sort: 'created',
      limit: options.newest,
      // Ingested chunks never fold: their file is their source, and re-ingest keeps them in step.
      chunks: 'exclude',
      // A superseded item is already out of recall: nothing may fold into it.
      recallable: true,
    } as const;
    const live = store.listItems({ ...stm, ...(options.scope ? { scope: options.scope } : {}) }).items;
    const clusters = foldItems(live);
    const mtm = store.listItems({ tier: 'mtm', quarantined: 'exclude', ...(options.scope ? { scope: options.scope } : {}) }).items;
    const plan: ConsolidationPlan = {
      dry_run: options.dryRun,
      scope: options.scope ?? null,
      candidates: live.length,
      clusters: clusters.map(({ winner, members, kind }) => ({
        result_id: `MEM-${sha256(members.map((m) => m.id).sort().join(',')).slice(0, 12)}`,
        winner: winner.id,
        kind,
        members: members.map((m) => m.id),
        type: members[0]?.type ?? 'note',
        source: sourceOf(members[0] as MemoryItem) || null,
      })),
      promotions: [...mtm]
        .sort(byAge)
        .map((item) => ({ id: item.id, reasons: promotionReasons(item) }))
        .filter((p) => p.reasons.length > 0),
    };
    // The merged text passes the policy again (united tags and entities are new text); a merge it
    // refuses, or would quarantine, is not made and the plan says why.
    const admissions = clusters.map((fold, i) => {
      const cluster = plan.clusters[i] as ConsolidationCluster;
      const judged = admitMerge(mergedItem(fold, cluster.result_id, options.now), options);
      if ('refused' in judged) cluster.refused = judged.refused;
      return 'refused' in judged ? undefined : judged;
    });
    if (options.dryRun) return plan;
    for (const [i, fold] of clusters.entries()) {
      const id = plan.clusters[i]?.result_id ?? '';
      const admission = admissions[i];
      if (admission === undefined || store.getItem(id) !== undefined) continue;
      const { members } = fold;
      const { item, policy } = admission;
      store.insertItem(item, indexText(item));
      recordWrite(store, options.actor, item, 'consolidate', { members: item.provenance?.consolidated_from, ...policyDetails(policy) });
      for (const member of members) {
        store.addLink({ src_id: id, dst_id: member.id, type: 'supersedes', created_at: options.now });
        const archived = nextVersion(member, { ...member, archived: true }, options.now);
        store.updateItem(archived);
        recordWrite(store, options.actor, archived, 'archive', { reason: 'consolidated', into: id });
      }
    }
    for (const { id, reasons } of plan.promotions) {
      const item = store.getItem(id);
      if (item === undefined || item.tier !== 'mtm') continue;
      const promoted = nextVersion(item, { ...item, tier: 'ltm' }, options.now);
      store.updateItem(promoted);
      recordWrite(store, options.actor, promoted, 'promote', { reasons });
    }
    return plan;
  };
  return options.dryRun ? run() : store.transaction(run);
}

/** mem-context's host-model pipeline: STM older than this is extracted into lasting memories. */
export const EXTRACT_AFTER_DAYS = 3;
const CANDIDATE_GROUP_LIMIT = 20;
const DAY_MS = 86_400_000;

export interface CandidateGroup {
  kind: 'extract' | 'merge';
  scope: string;
  source: string | null;
  item_ids: string[];
  items: { id: string; title: string; type: MemoryItem['type']; tags: string[]; content: string }[];
  /** Ready to give the agent's own model; its answer goes back through `engram pull`. */
  prompt: string;
}

const EXTRACT_PROMPT = `These are short-term memories from past work sessions. Extract what stays true and useful
beyond them: decisions, constraints, definitions, facts and patterns, each stated on its own,
without repeating the rest. Answer with a JSON array of objects {"title", "content", "type",
"tags"}, type one of fact, decision, definition, constraint, pattern, todo, note. The answer is
stored with \`engram pull\`; link each new item to its sources with
\`engram link NEW_ID SOURCE_ID --type derived_from\`.`;

const MERGE_PROMPT = `These memories are about one topic but each says something the others do not. Write one memory
that keeps every fact in them (every number, name, version, path and date) and drops only the
repetition; where two disagree, keep both and say so. Answer with a JSON array holding one object
{"title", "content", "type", "tags", "supersedes"}, where "supersedes" lists the ids below that your
memory fully replaces. The answer is stored with \`engram pull\` (or memory_propose), which links it
to them: recall then uses your memory instead of those.`;

function candidateGroup(kind: CandidateGroup['kind'], members: readonly MemoryItem[]): CandidateGroup {
  const items = members.map((m) => ({ id: m.id, title: m.title, type: m.type, tags: m.tags, content: m.content }));
  const listing = items.map((m) => `--- ${m.id} [${m.type}${m.tags.length ? ` | ${m.tags.join(',')}` : ''}]\n${m.title ? `${m.title}\n` : ''}${m.content}`);
  return {
    kind,
    scope: members[0]?.scope ?? 'project',
    source: members[0] ? sourceOf(members[0]) || null : null,
    item_ids: items.map((m) => m.id),
    items,
    prompt: `${kind === 'extract' ? EXTRACT_PROMPT : MERGE_PROMPT}\n\n${listing.join('\n')}`,
  };
}

/**
 * The groups an agent's own model should consolidate (engram never calls a model): STM items older
 * than 3 days, by scope and source, to extract lasting memories from; and related memories — STM
 * or MTM, same scope, type and source, alike in tags and words but each saying something the
 * others do not — to merge, which the deterministic pass never does.
 */
export interface ConsolidationCandidates {
  extract: CandidateGroup[];
  merge: CandidateGroup[];
}

export function consolidationCandidates(store: Store, now: Date, scope?: string): ConsolidationCandidates {
  const before = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  const filter = { quarantined: 'exclude', recallable: true, ...(scope ? { scope } : {}) } as const;
  const stm = store.listItems({ ...filter, tier: 'stm' }).items;
  const bySource = new Map<string, MemoryItem[]>();
  for (const item of stm.filter((i) => i.created_at < before(EXTRACT_AFTER_DAYS)).sort(byAge)) {
    const key = JSON.stringify([item.scope, sourceOf(item)]);
    const group = bySource.get(key);
    if (group) group.push(item);
    else bySource.set(key, [item]);
  }
  const extract: CandidateGroup[] = [];
  for (const members of bySource.values()) {
    for (let i = 0; i < members.length; i += CANDIDATE_GROUP_LIMIT) {
      extract.push(candidateGroup('extract', members.slice(i, i + CANDIDATE_GROUP_LIMIT)));
    }
  }
  const mtm = store.listItems({ ...filter, tier: 'mtm' }).items;
  const merge = clusterItems([...stm, ...mtm])
    .map((members) => members.slice(0, CANDIDATE_GROUP_LIMIT))
    .map((members) => candidateGroup('merge', members));
  return { extract, merge };
}

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
import { policyDetails } from '../items/journal.js';
import type { WriteAccess } from '../items/writer.js';
import type { MemoryItem } from '../types.js';
import { sha256 } from '../util/hash.js';
import { byAge, sourceOf } from './cluster.js';
import { saidText, says, type SaidText } from './lossless.js';

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
  /** Recorded in the admission context of merged items (the writer records it on their events). */
  actor: string | null;
  scope?: string;
  dryRun: boolean;
  /** Only the newest this many STM items (the automatic trigger's bound); all of them when absent. */
  newest?: number;
  admit?: AdmissionHook;
}

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

/**
 * Plans, and unless `dryRun` applies in one transaction, one consolidation pass. The writer must
 * be prepared for any text (`writer.prepareAll()`): merged items are indexed inside the transaction.
 */
export function consolidate({ store, writer }: WriteAccess, options: ConsolidateOptions): Promise<ConsolidationPlan> {
  const run = async (): Promise<ConsolidationPlan> => {
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
    const scoped = options.scope ? { scope: options.scope } : {};
    const live = (await store.items.list({ ...stm, ...scoped })).items;
    const clusters = foldItems(live);
    const mtm = (await store.items.list({ tier: 'mtm', quarantined: 'exclude', ...scoped })).items;
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
      if (admission === undefined || await store.items.get(id) !== undefined) continue;
      const { members } = fold;
      const { item, policy } = admission;
      await writer.insert(item, 'consolidate', { members: item.provenance?.consolidated_from, ...policyDetails(policy) });
      for (const member of members) {
        await writer.link({ src_id: id, dst_id: member.id, type: 'supersedes', created_at: options.now }, { recorded: false });
        await writer.archive(member, options.now, 'archive', { reason: 'consolidated', into: id });
      }
    }
    for (const { id, reasons } of plan.promotions) {
      const item = await store.items.get(id);
      if (item === undefined || item.tier !== 'mtm') continue;
      await writer.amend(nextVersion(item, { ...item, tier: 'ltm' }, options.now), 'promote', { reasons });
    }
    return plan;
  };
  return options.dryRun ? run() : store.transaction(run);
}

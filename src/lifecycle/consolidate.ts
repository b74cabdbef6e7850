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
 * definition, verified, or confident (≥ 0.8) with provenance. Both passes read the store in pages
 * and compare only items that can fold together (fold.ts), so memory stays bounded at any size.
 */
import { type Admission, admitWrite, type AdmissionHook, rejectedRules } from '../items/admission.js';
import { isEngramError } from '../errors.js';
import { nextVersion } from '../items/build-item.js';
import { policyDetails } from '../items/journal.js';
import type { WriteAccess } from '../items/writer.js';
import type { Store } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { sha256 } from '../util/hash.js';
import { byAge, sourceOf } from './cluster.js';
import { foldItems, type FoldGroup, foldPartitions } from './fold.js';

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

/** The MTM items that promote to LTM, oldest first; read in pages (only their ids and reasons are kept). */
async function promotionsOf(store: Store, scoped: { scope?: string }): Promise<ConsolidationPlan['promotions']> {
  const promotions: ConsolidationPlan['promotions'] = [];
  for await (const item of store.items.iterate({ tier: 'mtm', quarantined: 'exclude', ...scoped })) {
    const reasons = promotionReasons(item);
    if (reasons.length > 0) promotions.push({ id: item.id, reasons });
  }
  return promotions;
}

/** Stores a merged item, links it `supersedes` to each member and archives them (unless it is stored already). */
async function writeMerge(
  { store, writer }: WriteAccess,
  fold: FoldGroup,
  admission: Admission,
  id: string,
  now: string,
): Promise<void> {
  if (await store.items.get(id) !== undefined) return;
  const { item, policy } = admission;
  await writer.insert(item, 'consolidate', { members: item.provenance?.consolidated_from, ...policyDetails(policy) });
  for (const member of fold.members) {
    await writer.link({ src_id: id, dst_id: member.id, type: 'supersedes', created_at: now }, { recorded: false });
    await writer.archive(member, now, 'archive', { reason: 'consolidated', into: id });
  }
}

/**
 * Plans, and unless `dryRun` applies in one transaction, one consolidation pass. Merged items are
 * indexed inside the transaction; a CJK one makes the writer load the segmenter there, which never
 * waits on I/O (`search/segment.ts`).
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
    const plan: ConsolidationPlan = {
      dry_run: options.dryRun,
      scope: options.scope ?? null,
      candidates: 0,
      clusters: [],
      // The MTM items as they are before this pass merges anything (read in pages, oldest first).
      promotions: await promotionsOf(store, scoped),
    };
    // Clusters are listed oldest first (by their oldest member), whatever partition found them.
    const firsts = new Map<ConsolidationCluster, MemoryItem>();
    const counted = (n: number) => (plan.candidates = n);
    for await (const partition of foldPartitions(store, { ...stm, ...scoped }, counted)) {
      for (const fold of foldItems(partition)) {
        const { winner, members, kind } = fold;
        const first = members[0] as MemoryItem;
        const cluster: ConsolidationCluster = {
          result_id: `MEM-${sha256(members.map((m) => m.id).sort().join(',')).slice(0, 12)}`,
          winner: winner.id,
          kind,
          members: members.map((m) => m.id),
          type: first.type,
          source: sourceOf(first) || null,
        };
        plan.clusters.push(cluster);
        firsts.set(cluster, first);
        // The merged text passes the policy again (united tags and entities are new text); a merge
        // it refuses, or would quarantine, is not made and the plan says why.
        const judged = admitMerge(mergedItem(fold, cluster.result_id, options.now), options);
        if ('refused' in judged) cluster.refused = judged.refused;
        else if (!options.dryRun) await writeMerge({ store, writer }, fold, judged, cluster.result_id, options.now);
      }
    }
    plan.clusters.sort((a, b) => byAge(firsts.get(a) as MemoryItem, firsts.get(b) as MemoryItem));
    if (options.dryRun) return plan;
    for (const { id, reasons } of plan.promotions) {
      const item = await store.items.get(id);
      if (item === undefined || item.tier !== 'mtm') continue;
      await writer.amend(nextVersion(item, { ...item, tier: 'ltm' }, options.now), 'promote', { reasons });
    }
    return plan;
  };
  return options.dryRun ? run() : store.transaction(run);
}

/**
 * Host-model consolidation (mem-context): the groups an agent's own model should consolidate,
 * each with a ready prompt; the answer comes back through `pull` (engram never calls a model).
 * Captured session turns (`episodes.ts`) are offered at once, session by session in turn order,
 * until something is linked `derived_from` them; they are never merged with each other. The
 * groups come a batch at a time (`limit`, default {@link CANDIDATE_BATCH}) with how many are left,
 * found with bounded memory (candidate-scan.ts): only the batch is read in full.
 */
import { EngramError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { extractPlans, type GroupPlan, mergePlans } from './candidate-scan.js';
import { sourceOf } from './cluster.js';

/** mem-context's host-model pipeline: STM older than this is extracted into lasting memories. */
export const EXTRACT_AFTER_DAYS = 3;
/** Groups per batch when no limit is given (mem-context's `max_merge`: what one model turn handles well). */
export const CANDIDATE_BATCH = 10;
/** The most groups one batch may ask for. */
export const MAX_CANDIDATE_BATCH = 1000;
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
\`engram link NEW_ID SOURCE_ID --type derived_from\` (a memory linked so is not offered again).`;

const EPISODE_PROMPT = `These are turns of a past work session with an agent: each holds the person's request, the tools
the agent used (names only) and its final answer. Extract what stays true and useful beyond the
session: decisions, constraints, definitions, facts and patterns, each stated on its own, without
repeating the rest; leave out what only mattered while the session ran. Answer with a JSON array
of objects {"title", "content", "type", "tags"}, type one of fact, decision, definition,
constraint, pattern, todo, note. The answer is stored with \`engram pull\`; link each new item to
the turns it comes from with \`engram link NEW_ID TURN_ID --type derived_from\` (a turn linked so
is not offered again).`;

const MERGE_PROMPT = `These memories are about one topic but each says something the others do not. Write one memory
that keeps every fact in them (every number, name, version, path and date) and drops only the
repetition; where two disagree, keep both and say so. Answer with a JSON array holding one object
{"title", "content", "type", "tags", "supersedes"}, where "supersedes" lists the ids below that your
memory fully replaces. The answer is stored with \`engram pull\` (or memory_propose), which links it
to them: recall then uses your memory instead of those.`;

function candidateGroup(kind: CandidateGroup['kind'], members: readonly MemoryItem[], lead?: string): CandidateGroup {
  const items = members.map((m) => ({ id: m.id, title: m.title, type: m.type, tags: m.tags, content: m.content }));
  const listing = items.map((m) => `--- ${m.id} [${m.type}${m.tags.length ? ` | ${m.tags.join(',')}` : ''}]\n${m.title ? `${m.title}\n` : ''}${m.content}`);
  return {
    kind,
    scope: members[0]?.scope ?? 'project',
    source: members[0] ? sourceOf(members[0]) || null : null,
    item_ids: items.map((m) => m.id),
    items,
    prompt: `${lead ?? (kind === 'extract' ? EXTRACT_PROMPT : MERGE_PROMPT)}\n\n${listing.join('\n')}`,
  };
}

/**
 * One batch of the groups an agent's own model should consolidate (engram never calls a model):
 * STM items older than 3 days, by scope and source, and captured session turns at once, session
 * by session in turn order, to extract lasting memories from (until something is linked
 * `derived_from` them); then related memories — STM or MTM, same scope, type and source, alike in
 * tags and words but each saying something the others do not — to merge, which the deterministic
 * pass never does (until a memory supersedes them). Always in that order, so a batch's groups
 * come first again until handled, and `offset` passes over ones left as they are.
 */
export interface ConsolidationCandidates {
  extract: CandidateGroup[];
  merge: CandidateGroup[];
  /** Groups after this batch: call again (after handling it, or with `offset`) for them. */
  more: number;
  /**
   * False when the batch was full and a group was known to follow before every cluster to merge
   * was found (the costly part): `more` is then a lower bound, above 0. Always true with limit 0.
   */
  more_exact: boolean;
  /** Groups passed over before this batch. */
  offset: number;
  /** The batch size asked for. */
  limit: number;
}

export interface CandidateOptions {
  scope?: string;
  /** Groups per batch, 0 to {@link MAX_CANDIDATE_BATCH} (0: only the exact count); default {@link CANDIDATE_BATCH}. */
  limit?: number;
  /** Groups to pass over first (default 0). */
  offset?: number;
}

function count(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new EngramError('PARAM_ERROR', `Invalid ${name} ${value}`, { hint: `Expected a whole number from 0 to ${max}` });
  }
  return value;
}

/** The groups of one batch, kept as they are offered in order; the others only counted. */
class Batch {
  readonly plans: GroupPlan[] = [];
  offered = 0;

  constructor(readonly offset: number, readonly limit: number) {}

  offer(plan: GroupPlan): void {
    if (this.offered++ >= this.offset && this.plans.length < this.limit) this.plans.push(plan);
  }

  /** Groups offered after the batch. */
  get after(): number {
    return Math.max(0, this.offered - this.offset - this.plans.length);
  }
}

export async function consolidationCandidates(
  store: Store,
  now: Date,
  { scope, limit = CANDIDATE_BATCH, offset = 0 }: CandidateOptions = {},
): Promise<ConsolidationCandidates> {
  count('limit', limit, MAX_CANDIDATE_BATCH);
  count('offset', offset, Number.MAX_SAFE_INTEGER);
  const before = new Date(now.getTime() - EXTRACT_AFTER_DAYS * DAY_MS).toISOString();
  const filter = { quarantined: 'exclude', recallable: true, ...(scope ? { scope } : {}) } as const;
  const batch = new Batch(offset, limit);
  for (const plan of await extractPlans(store, filter, before)) batch.offer(plan);
  // Once the batch is full and a group is known to follow, the clusters to merge of the scopes,
  // types and sources after it can wait (a later batch finds them): `more` is then a lower bound,
  // above 0, so a loop on it goes on.
  const done = () => limit > 0 && batch.plans.length === limit && batch.after > 0;
  let exact = !done();
  if (exact) {
    for await (const { plans, last } of mergePlans(store, filter)) {
      for (const plan of plans) batch.offer(plan);
      if (done() && !last) {
        exact = false;
        break;
      }
    }
  }
  const groups: CandidateGroup[] = [];
  for (const plan of batch.plans) {
    const members: MemoryItem[] = [];
    for (const id of plan.ids) {
      const item = await store.items.get(id);
      if (item !== undefined) members.push(item);
    }
    groups.push(candidateGroup(plan.kind, members, plan.episodes ? EPISODE_PROMPT : undefined));
  }
  return {
    extract: groups.filter((g) => g.kind === 'extract'),
    merge: groups.filter((g) => g.kind === 'merge'),
    more: batch.after,
    more_exact: exact,
    offset,
    limit,
  };
}

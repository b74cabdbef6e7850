/**
 * Host-model consolidation (mem-context): the groups an agent's own model should consolidate,
 * each with a ready prompt; the answer comes back through `pull` (engram never calls a model).
 * Captured session turns (`episodes.ts`) are offered at once, session by session in turn order,
 * until something is linked `derived_from` them; they are never merged with each other.
 */
import type { Store } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { byAge, clusterItems, sourceOf } from './cluster.js';
import { isEpisode } from './episodes.js';

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
 * The groups an agent's own model should consolidate (engram never calls a model): STM items older
 * than 3 days, by scope and source, and captured session turns at once, session by session in turn
 * order, to extract lasting memories from; and related memories — STM
 * or MTM, same scope, type and source, alike in tags and words but each saying something the
 * others do not — to merge, which the deterministic pass never does.
 */
export interface ConsolidationCandidates {
  extract: CandidateGroup[];
  merge: CandidateGroup[];
}

/** `items` by scope and source, each group in `order`, cut into groups of at most 20. */
function bySource(items: readonly MemoryItem[], order: (a: MemoryItem, b: MemoryItem) => number): MemoryItem[][] {
  const groups = new Map<string, MemoryItem[]>();
  for (const item of [...items].sort(order)) {
    const key = JSON.stringify([item.scope, sourceOf(item)]);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.values()].flatMap((members) => {
    const cut: MemoryItem[][] = [];
    for (let i = 0; i < members.length; i += CANDIDATE_GROUP_LIMIT) {
      cut.push(members.slice(i, i + CANDIDATE_GROUP_LIMIT));
    }
    return cut;
  });
}

/** Session order: by session, then turn (and part), whenever each was captured. */
const byTurn = (a: MemoryItem, b: MemoryItem) => {
  const [x, y] = [`${a.task_id}\u0000${a.step_id}`, `${b.task_id}\u0000${b.step_id}`];
  return x < y ? -1 : x > y ? 1 : byAge(a, b);
};

/** Episodes nothing has been derived from yet. */
async function undistilled(store: Store, episodes: readonly MemoryItem[]): Promise<MemoryItem[]> {
  const left: MemoryItem[] = [];
  for (const episode of episodes) {
    const links = await store.links.list(episode.id);
    if (!links.some((l) => l.type === 'derived_from' && l.dst_id === episode.id)) left.push(episode);
  }
  return left;
}

export async function consolidationCandidates(
  store: Store,
  now: Date,
  scope?: string,
): Promise<ConsolidationCandidates> {
  const before = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  const filter = { quarantined: 'exclude', recallable: true, ...(scope ? { scope } : {}) } as const;
  const listed = (await store.items.list({ ...filter, tier: 'stm' })).items;
  const stm = listed.filter((i) => !isEpisode(i));
  const episodes = await undistilled(store, listed.filter(isEpisode));
  const extract = [
    ...bySource(stm.filter((i) => i.created_at < before(EXTRACT_AFTER_DAYS)), byAge)
      .map((m) => candidateGroup('extract', m)),
    ...bySource(episodes, byTurn).map((m) => candidateGroup('extract', m, EPISODE_PROMPT)),
  ];
  const mtm = (await store.items.list({ ...filter, tier: 'mtm' })).items;
  const merge = clusterItems([...stm, ...mtm])
    .map((members) => members.slice(0, CANDIDATE_GROUP_LIMIT))
    .map((members) => candidateGroup('merge', members));
  return { extract, merge };
}

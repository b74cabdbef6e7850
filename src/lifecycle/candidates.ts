/**
 * Host-model consolidation (mem-context): the groups an agent's own model should consolidate,
 * each with a ready prompt; the answer comes back through `pull` (engram never calls a model).
 */
import type { Store } from '../store/store.js';
import type { MemoryItem } from '../types.js';
import { byAge, clusterItems, sourceOf } from './cluster.js';

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

export async function consolidationCandidates(
  store: Store,
  now: Date,
  scope?: string,
): Promise<ConsolidationCandidates> {
  const before = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  const filter = { quarantined: 'exclude', recallable: true, ...(scope ? { scope } : {}) } as const;
  const stm = (await store.items.list({ ...filter, tier: 'stm' })).items;
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
  const mtm = (await store.items.list({ ...filter, tier: 'mtm' })).items;
  const merge = clusterItems([...stm, ...mtm])
    .map((members) => members.slice(0, CANDIDATE_GROUP_LIMIT))
    .map((members) => candidateGroup('merge', members));
  return { extract, merge };
}

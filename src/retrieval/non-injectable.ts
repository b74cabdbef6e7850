/**
 * Why recall came back empty: the live matches it left out for not being injectable (quarantined,
 * or ingested without `--injectable`), counted only when nothing injectable matched, with what
 * would make them injectable.
 */
import type { OperationContext } from '../context.js';
import type { ListFilter } from '../store/store.js';
import { retrieve, type RetrievalPlan } from './retrieve.js';

/** How many search hits recall considers before packing. */
export const RECALL_POOL = 100;

/** The filters recall takes besides the query. */
export type RecallFilter = Pick<ListFilter, 'tier' | 'type' | 'scope' | 'tags'>;

export async function countNonInjectable(
  ctx: OperationContext,
  query: string,
  filter: RecallFilter,
  at: string,
  plan: RetrievalPlan,
): Promise<{ count: number; hint?: string }> {
  const held = {
    ...filter, injectable: false, archived: 'exclude', quarantined: 'include', recallable: true, live_at: at,
  } as const;
  const { hits } = await retrieve(ctx, query, held, RECALL_POOL, plan);
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

/**
 * The read operations on items: one by id or logical key (`get`), a filtered page (`list`), one
 * item with its revision count, links and forgetting curve (`show`), its versions (`history`) and
 * its links (`links`). None of them writes.
 */
import type { OperationContext } from '../context.js';
import { EngramError, FIX_HINTS } from '../errors.js';
import { type Decay, decayOf } from '../forgetting/curve.js';
import { redactItem } from '../policy/redact.js';
import type { MemoryItem, MemoryLink, Revision, Secrecy } from '../types.js';
import { requireItem } from './lookup.js';
import { LIGHT_SCHEMAS } from './light-schemas.js';
import { parseInputLight } from './parse-input.js';
import type { GetQuery, ListInput } from './schemas.js';

/** A page of `list` (and the palace's item level) holds this many items unless told otherwise. */
export const DEFAULT_LIST_LIMIT = 50;

export type { GetQuery } from './schemas.js';

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

/** `show`'s options: the output redaction tier (the session's by default). */
export interface ShowOptions {
  secrecy?: Secrecy;
}

/**
 * One item by id, or the newest non-archived item at a logical key — the exact address `put`
 * writes to (a task or step left out means "none", as in `put`).
 *
 * @example
 * const item = await getItem(ctx, { layer: 'project', key: 'db.port' });
 */
export async function getItem(ctx: OperationContext, query: GetQuery): Promise<MemoryItem> {
  const parsed = await parseInputLight(LIGHT_SCHEMAS.get, query, async () => (await import('./schemas.js')).getQuerySchema);
  if ('id' in parsed) return requireItem(ctx.store, parsed.id);
  const item = await ctx.store.items.findByKey({
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
}

/**
 * A page of items matching the filter, newest first by default.
 *
 * @example
 * const { items, total } = await listItems(ctx, { tier: 'ltm', limit: 20 });
 */
export async function listItems(ctx: OperationContext, filter: ListInput = {}): Promise<ListResult> {
  const parsed = await parseInputLight(LIGHT_SCHEMAS.list, filter, async () => (await import('./schemas.js')).listFilterSchema);
  const limit = parsed.limit ?? DEFAULT_LIST_LIMIT;
  const offset = parsed.offset ?? 0;
  const page = await ctx.store.items.list({ ...parsed, limit, offset });
  return { ...page, limit, offset };
}

/**
 * One item (redacted for `secrecy`), its revision count, links and forgetting curve.
 *
 * @example
 * const { item, lifecycle } = await showItem(ctx, 'MEM-0123456789ab', { secrecy: 'S2' });
 */
export async function showItem(
  ctx: OperationContext,
  id: string,
  { secrecy = ctx.defaultSecrecy }: ShowOptions = {},
): Promise<ShowResult> {
  const stored = await requireItem(ctx.store, id);
  const item = redactItem(stored, secrecy);
  const lifecycle = decayOf(stored, ctx.clock());
  const revisions = await ctx.store.history.countRevisions(id);
  return { item, revisions, links: await ctx.store.links.list(id), lifecycle };
}

/** Every stored version of an item, oldest first; NOT_FOUND for an unknown id. */
export async function itemHistory(ctx: OperationContext, id: string): Promise<Revision[]> {
  await requireItem(ctx.store, id);
  return await ctx.store.history.listRevisions(id);
}

/** The links where the item is source or destination; NOT_FOUND for an unknown id. */
export async function itemLinks(ctx: OperationContext, id: string): Promise<MemoryLink[]> {
  await requireItem(ctx.store, id);
  return await ctx.store.links.list(id);
}

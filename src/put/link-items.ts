/** `link`: a typed link between two stored items, with a `link` event when it is new. */
import type { OperationContext } from '../context.js';
import { EngramError } from '../errors.js';
import { requireItem } from '../items/lookup.js';
import { parseInput } from '../items/parse-input.js';
import { linkInputSchema } from '../items/schemas.js';
import type { LinkType, MemoryLink } from '../types.js';

export interface LinkResult {
  created: boolean;
  link: MemoryLink;
}

/** Links `src_id` to `dst_id`; `created` is false when the link existed. */
export function linkItems(
  ctx: OperationContext,
  input: { src_id: string; dst_id: string; type: LinkType },
): Promise<LinkResult> {
  const parsed = parseInput(linkInputSchema, input);
  if (parsed.src_id === parsed.dst_id) {
    throw new EngramError('PARAM_ERROR', 'An item cannot link to itself', {
      details: { id: parsed.src_id },
    });
  }
  return ctx.store.transaction(async (): Promise<LinkResult> => {
    await requireItem(ctx.store, parsed.src_id);
    await requireItem(ctx.store, parsed.dst_id);
    const link: MemoryLink = { ...parsed, created_at: ctx.now() };
    const created = await ctx.writer.link(link);
    return { created, link };
  });
}

/**
 * `engram export`: one JSONL line per item, oldest first, each complete enough for `import` to
 * restore it (with its history on request), redacted for the caller's secrecy tier.
 */
import type { OperationContext } from '../context.js';
import { exportLine } from '../items/build-item.js';
import { redactItem } from '../policy/redact.js';
import type { Secrecy } from '../types.js';

/** `export`'s options: every revision of each item too, and the output redaction tier. */
export interface ExportOptions {
  withHistory?: boolean;
  secrecy?: Secrecy;
}

/**
 * The store's items as JSONL lines, read one at a time.
 *
 * @example
 * for await (const line of exportLines(ctx, { withHistory: true })) out.write(`${line}\n`);
 */
export async function* exportLines(
  ctx: OperationContext,
  { withHistory = false, secrecy = ctx.defaultSecrecy }: ExportOptions = {},
): AsyncGenerator<string> {
  const { store } = ctx;
  for await (const item of store.items.iterate()) {
    const revisions = withHistory
      ? (await store.history.listRevisions(item.id)).map((r) => ({ ...r, item: redactItem(r.item, secrecy) }))
      : undefined;
    yield exportLine(redactItem(item, secrecy), revisions);
  }
}

/**
 * The recall operation: injectable, live, non-archived matches (found lexically, by meaning, or
 * both: `search_mode`, see `retrieve.ts`) packed best first into the token budget as the injection
 * block (format_version=1), with the usage of what was injected recorded.
 * The packing and the block are `recall/`'s pure core; this operation composes it with the search
 * cascade and the item schemas, above all three.
 */
import type { OperationContext } from '../context.js';
import { recordedText } from '../policy/secret-precheck.js';
import { LIGHT_SCHEMAS } from '../items/light-schemas.js';
import { parseInputLight } from '../items/parse-input.js';
import { redactItem } from '../policy/redact.js';
import { rankHits } from '../search/cascade.js';
import { countNonInjectable, RECALL_POOL } from './non-injectable.js';
import { planRetrieval, retrieve, type RetrievalMode, type RetrievalStage } from './retrieve.js';
import type { RecallInput } from './recall-schema.js';
import { type PackedRecall, packRecall, type RecallMode } from '../recall/injection-block.js';
import { loadTokenizer } from '../recall/tokenizer.js';
import type { TokenizerName } from '../types.js';

/** Default recall budget in tokens (KOAS); `ENGRAM_BUDGET` and `--budget` override it. */
export const DEFAULT_BUDGET = 1500;

export type { RecallInput } from './recall-schema.js';

export interface RecallResult extends Omit<PackedRecall, 'text'> {
  /** The block (or catalog) to paste into a prompt; '' when nothing matched. */
  inject_text: string;
  query: string;
  mode: RecallMode;
  format_version: 1;
  budget: number;
  /** What `budget` and `tokens_used` are counted in. */
  tokenizer: TokenizerName;
  /** How the matches were found: the mode asked for, the default, or lexical when the query embedding failed. */
  search_mode: RetrievalMode;
  stage: RetrievalStage;
  fts: boolean;
  /**
   * When no injectable item matched: how many live items did match but are not injectable
   * (quarantined, or ingested without `--injectable`), so an empty recall is never a silent
   * surprise. 0 when something injectable matched (they are not looked for then).
   */
  non_injectable: number;
  /** With `non_injectable` > 0: how to make those items injectable. */
  hint?: string;
  /** Present when recall ran in another mode than it would have (the query embedding failed). */
  warnings?: string[];
}

/**
 * Token-budgeted recall. Records the usage of the injected items and one `recall` event (its
 * query with any secret redacted).
 *
 * @example
 * const { inject_text } = await recall(ctx, { query: 'how do we deploy', budget: 800 });
 */
export async function recall(
  ctx: OperationContext,
  input: RecallInput,
): Promise<RecallResult> {
  const {
    query,
    budget = DEFAULT_BUDGET,
    mode = 'inject',
    header = true,
    secrecy = ctx.defaultSecrecy,
    search_mode: asked,
    limit = RECALL_POOL,
    min_score: minScore = 0,
    exclude_ids: excludeIds = [],
    ...filter
  } = await parseInputLight(LIGHT_SCHEMAS.recall, input, async () => (await import('./recall-schema.js')).recallInputSchema);
  const excluded = new Set(excludeIds);
  const { store } = ctx;
  const at = ctx.now();
  const live = {
    ...filter,
    injectable: true,
    archived: 'exclude',
    quarantined: 'exclude',
    recallable: true,
    live_at: at,
  } as const;
  const plan = await planRetrieval(ctx, query, asked);
  // The pool grows by the excluded items, so that they never crowd out the new ones.
  const found = await retrieve(ctx, query, live, RECALL_POOL + excluded.size, plan);
  const hits = rankHits(
    excluded.size === 0 ? found.hits : found.hits.filter((hit) => !excluded.has(hit.item.id)),
    'relevance',
    ctx.clock(),
  );
  const ranked = hits
    .filter(({ factors }) => factors.final >= minScore)
    .slice(0, limit)
    .map(({ item, factors }) => ({ item: redactItem(item, secrecy), score: factors.final }));
  const tokenizer = await loadTokenizer(ctx.tokenizer);
  const packed = packRecall(ranked, { budget, mode, header, tokenizer });
  // Items held back are looked for only when nothing injectable matched, not when min_score or
  // exclude_ids left all out.
  const held = found.hits.length === 0 ? await countNonInjectable(ctx, query, filter, at, plan) : { count: 0 };
  // A read never fails on its query, but a secret in it is not recorded.
  const recorded = await recordedText(query);
  await store.transaction(async () => {
    await store.items.touch(
      packed.injected.map((e) => e.id),
      at,
    );
    await store.history.addEvent({
      item_id: null,
      action: 'recall',
      actor: ctx.actor,
      at,
      details: {
        query: recorded, mode, matched: packed.matched, injected: packed.injected.map((e) => e.id),
      },
    });
  });
  const { text, ...rest } = packed;
  return {
    query, mode, format_version: 1, budget, tokenizer: tokenizer.name,
    search_mode: found.mode, stage: found.stage, fts: found.fts,
    inject_text: text, ...rest,
    non_injectable: held.count,
    ...(held.hint === undefined ? {} : { hint: held.hint }),
    ...(plan.warnings.length > 0 ? { warnings: plan.warnings } : {}),
  };
}

/**
 * The write operation (memtool's three modes): by id, by logical key, or a new item; with an
 * optimistic version check, dedup on write (the same text reinforces the stored item), similar
 * items reported and, with `merge_similar`, folded into the closest near-duplicate, and
 * `supersedes` links. Every write passes the admission policy and goes through the item writer.
 */
import type { OperationContext } from '../context.js';
import { EngramError, FIX_HINTS, FIX_MESSAGES } from '../errors.js';
import { foldable } from '../lifecycle/fold.js';
import { findSimilar, mergeSimilar, type SimilarItem } from '../lifecycle/similar.js';
import { findSimilarByMeaning, vectorForSimilar } from '../lifecycle/similar-meaning.js';
import { embeddingText, type KnownVectors } from '../items/embed-items.js';
import type { PolicyVerdict } from '../policy/evaluate.js';
import type { MemoryItem } from '../types.js';
import { newItemId } from '../util/ids.js';
import { admitWrite, type WriteOperation } from '../items/admission.js';
import { createItem, hasChanges, mergeFields, nextVersion } from '../items/build-item.js';
import { policyDetails } from '../items/journal.js';
import { requireItem } from '../items/lookup.js';
import { LIGHT_SCHEMAS } from '../items/light-schemas.js';
import { parseInputLight } from '../items/parse-input.js';
import type { ParsedPut, PutInput, UpdateInput } from '../items/schemas.js';

const schemas = () => import('../items/schemas.js');

/** Weight added to an item each time a duplicate write reinforces it. */
const REINFORCE_WEIGHT = 0.1;

/** What one write did. */
export interface WriteResult {
  /** `created`, `updated`, or `unchanged` when the write would not change the item. */
  action: 'created' | 'updated' | 'unchanged';
  /**
   * How the target was chosen: by `id`, by logical `key`, a `new` item, or the closest near-duplicate
   * (`similar`, with `merge_similar`).
   */
  mode: 'id' | 'key' | 'new' | 'similar';
  item: MemoryItem;
  /** The write policy's verdict; `quarantine` means stored, not injectable, expiring unless verified. */
  policy: PolicyVerdict;
  /** True when the same content already existed in the scope: that item was reinforced instead. */
  deduplicated?: true;
  /**
   * Items of the scope like a new one (word similarity ≥ 0.6, or the same text with other values),
   * most similar first, each a near-duplicate, a possible contradiction ("differs in: 5432 → 5433")
   * or related; then, with vectors, those alike in meaning (cosine ≥ 0.82, `cosine` set), which
   * are only reported, never merged into.
   */
  similar?: SimilarItem[];
}

export interface WriteOptions {
  /**
   * A privileged writer (MCP `memory_write` on a server started with `--trust-writes`): the
   * quarantine rules are skipped, never the reject rules.
   */
  privileged?: boolean;
  /** Judged as a proposal (MCP `memory_write` by default): without provenance, it is quarantined. */
  asProposal?: boolean;
}

/**
 * Validates `input`, prepares the indexing of its text and of the item it may rewrite, then
 * writes it in one transaction. The vector a new item's text got for the similar check is added
 * to `known`, so the embedding after the write does not compute it again.
 *
 * @example
 * const { action, item } = await putItem(ctx, { content: 'We chose JWT for stateless auth' }, 'put');
 */
export async function putItem(
  ctx: OperationContext,
  input: PutInput,
  operation: WriteOperation,
  privileged = false,
  known?: KnownVectors,
): Promise<WriteResult> {
  const { store } = ctx;
  const parsed = await parseInputLight(LIGHT_SCHEMAS.put, input, async () => (await schemas()).putInputSchema);
  const { id, layer, key, task_id: taskId, step_id: stepId, content, title, tags = [], entities = [] } = parsed;
  const target = id !== undefined
    ? await store.items.get(id)
    : layer !== undefined && key !== undefined
      ? await store.items.findByKey({ layer, key, task_id: taskId ?? null, step_id: stepId ?? null })
      : undefined;
  await ctx.writer.prepare(content, title, ...tags, ...entities, target);
  // A new item is compared by meaning too: its vector is computed before the transaction.
  const isNew = target === undefined && id === undefined && (layer === undefined || key === undefined);
  const text = embeddingText({ title: title ?? '', content });
  const meaning = isNew ? await vectorForSimilar(ctx, text) : undefined;
  if (meaning !== undefined) known?.set(text, meaning);
  return writeParsed(ctx, parsed, operation, privileged, meaning);
}

/** The word-similar items, each with its cosine when the vectors found it too, then the items alike in meaning only. */
function unite(byWords: SimilarItem[], byMeaning: SimilarItem[]): SimilarItem[] {
  const cosines = new Map(byMeaning.map((s) => [s.id, s.cosine]));
  const known = new Set(byWords.map((s) => s.id));
  return [
    ...byWords.map((s) => (cosines.get(s.id) === undefined ? s : { ...s, cosine: cosines.get(s.id)! })),
    ...byMeaning.filter((s) => !known.has(s.id)),
  ];
}

/** Changes any fields of an existing item (content optional): a new version, through the policy. */
export async function updateItem(ctx: OperationContext, id: string, input: UpdateInput): Promise<WriteResult> {
  const fields = await parseInputLight(LIGHT_SCHEMAS.update, input, async () => (await schemas()).updateInputSchema);
  const existing = await requireItem(ctx.store, id);
  return putItem(ctx, { ...fields, id, content: fields.content ?? existing.content } as PutInput, 'put');
}

/**
 * The write itself, in one transaction (a savepoint inside another), once indexing is prepared
 * (see {@link putItem}); `meaning` is the new text's vector, for the similar items by meaning.
 */
export function writeParsed(
  ctx: OperationContext,
  parsed: ParsedPut,
  operation: WriteOperation,
  privileged = false,
  meaning?: Float32Array,
): Promise<WriteResult> {
  const { store, writer } = ctx;
  const { id, if_version: ifVersion, merge_similar: mergeSimilarOne = false, supersedes = [], ...fields } = parsed;
  if (fields.key !== undefined && fields.layer === undefined && id === undefined) {
    throw new EngramError('PARAM_ERROR', FIX_MESSAGES.key_needs_layer, {
      hint: FIX_HINTS.key_needs_layer,
      fix: 'key_needs_layer',
    });
  }
  const address
    = fields.layer !== undefined && fields.key !== undefined
      ? { layer: fields.layer, key: fields.key, task_id: fields.task_id ?? null, step_id: fields.step_id ?? null }
      : undefined;
  const hidden = async (old: string) => {
    const replaced = await store.items.get(old);
    return replaced !== undefined && (!replaced.injectable || replaced.quarantined);
  };
  const linked = async (result: WriteResult): Promise<WriteResult> => {
    // A summary replacing what it merged: the old items leave recall, their text stays searchable.
    for (const old of supersedes) {
      await requireItem(store, old);
      if (old === result.item.id) continue;
      await writer.link({ src_id: result.item.id, dst_id: old, type: 'supersedes', created_at: ctx.now() });
    }
    return result;
  };
  // One write, inside the transaction; its supersedes links are added to whatever it returns.
  const writeOnce = async (): Promise<WriteResult> => {
    const at = ctx.now();
    let existing: MemoryItem | undefined;
    let mode: WriteResult['mode'] = 'new';
    if (id !== undefined) {
      existing = await requireItem(store, id);
      mode = 'id';
    } else if (address !== undefined) {
      existing = await store.items.findByKey(address);
      mode = 'key';
    }
    if (ifVersion !== undefined && (existing?.version ?? 0) !== ifVersion) {
      throw new EngramError(
        'CONFLICT',
        `Version conflict: expected ${ifVersion}, stored ${existing?.version ?? 'none'}`,
        {
          hint: 'Re-read the item, merge your change, and retry with the current version.',
          details: {
            id: existing?.id ?? id ?? null,
            expected_version: ifVersion,
            current_version: existing?.version ?? 0,
          },
        },
      );
    }
    const context = { operation, actor: ctx.actor, now: at, privileged };
    if (existing === undefined) {
      const { item, policy } = admitWrite(createItem(newItemId(), fields, at), context, ctx.admit);
      // Dedup on write (mem-context): the same content, title, source and address in the same scope
      // reinforces the item; the tags and entities the write brings are added to it.
      const { scope, type, injectable, title, source, task_id, step_id, expires_at } = item;
      const target = { scope, type, injectable, title, source, task_id, step_id, expires_at };
      const duplicate = mode === 'new' && !item.quarantined
        ? await store.items.findDuplicate(item.content, target)
        : undefined;
      if (duplicate !== undefined) {
        const united = {
          ...duplicate,
          tags: [...new Set([...duplicate.tags, ...item.tags])],
          entities: [...new Set([...duplicate.entities, ...item.entities])],
        };
        const changed = hasChanges(duplicate, united);
        if (changed) await writer.update(nextVersion(duplicate, united, at), 'update', { mode: 'dedup' });
        await writer.reinforce(duplicate.id, at, REINFORCE_WEIGHT, { operation });
        const action = changed ? 'updated' : 'unchanged';
        return { action, mode, item: await requireItem(store, duplicate.id), policy, deduplicated: true };
      }
      const byWords = mode === 'new' && ctx.fullText ? await findSimilar(store, item, ctx.indexer.loadedSegmenter()) : [];
      const byMeaning = mode === 'new' && meaning !== undefined ? await findSimilarByMeaning(ctx, item, meaning) : [];
      const similar = unite(byWords, byMeaning);
      const reported = similar.length > 0 ? { similar } : {};
      // Only into an item it could fold with: same type, source, address, visibility and expiry;
      // found by words (an item alike in meaning only is reported, never merged into).
      let closest: (typeof similar)[number] | undefined;
      for (const s of byWords) {
        if (s.kind === 'near-duplicate' && foldable(await requireItem(store, s.id), item)) {
          closest = s;
          break;
        }
      }
      if (closest !== undefined && mergeSimilarOne) {
        const target = await requireItem(store, closest.id);
        const admitted = admitWrite(mergeSimilar(target, item), context, ctx.admit);
        let merged = target;
        if (hasChanges(target, admitted.item)) {
          merged = nextVersion(target, admitted.item, at);
          const details = { mode: 'similar', similarity: closest.similarity, ...policyDetails(admitted.policy) };
          await writer.update(merged, 'update', details);
        }
        await writer.reinforce(merged.id, at, REINFORCE_WEIGHT);
        const action = merged === target ? 'unchanged' : 'updated';
        const stored = await requireItem(store, merged.id);
        return { action, mode: 'similar', item: stored, policy: admitted.policy, ...reported };
      }
      await writer.insert(item, 'create', { mode, ...policyDetails(policy) });
      return { action: 'created', mode, item, policy, ...reported };
    }
    const { item: merged, policy } = admitWrite(mergeFields(existing, fields), context, ctx.admit);
    if (!hasChanges(existing, merged)) return { action: 'unchanged', mode, item: existing, policy };
    const item = nextVersion(existing, merged, at);
    await writer.update(item, 'update', { mode, ...policyDetails(policy) });
    return { action: 'updated', mode, item, policy };
  };
  return store.transaction(async () => {
    // A summary is injectable only if every item it replaces was (as a consolidation's merged item).
    for (const old of supersedes) {
      if (await hidden(old)) {
        fields.injectable = false;
        break;
      }
    }
    return linked(await writeOnce());
  });
}

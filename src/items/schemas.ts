/**
 * The item's fields as input schemas (and the schemas of the writes built on them), shared by the
 * CLI, the library and the MCP tools so that all three validate the same way and report the same
 * PARAM_ERROR. An operation of its own keeps its input schema beside it (`retrieval/search.ts`,
 * `retrieval/recall.ts`, `items/read.ts`, `workspaces/`, `lifecycle/operations.ts`).
 */
import { z } from 'zod';
import { ITEM_TYPES, LAYERS, LINK_TYPES, SECRECY_TIERS, TIER_ALIASES, TIERS, VALIDATIONS } from '../types.js';
import { parseRfc3339 } from '../util/rfc3339.js';
import { isCanonicalTimestamp } from '../util/time.js';

const text = z.string().max(1000);
const nullableText = text.nullable();
const timestamp = z.string().refine(isCanonicalTimestamp, {
  message: 'must be a UTC ISO-8601 timestamp like 2026-11-22T10:00:00.000Z',
});
/** On import: any RFC 3339 date-time, stored as canonical UTC milliseconds. */
const importTimestamp = z
  .string()
  .refine((value) => parseRfc3339(value) !== undefined, {
    message: 'must be an RFC 3339 date-time like 2026-11-22T10:00:00Z or 2026-11-22T12:00:00.5+02:00',
  })
  .transform((value) => parseRfc3339(value) ?? value);
const terms = z.array(z.string().max(200)).max(1000);
const provenance = z.record(z.string(), z.unknown());
/** A tier, or one of mem-context's names for it (episodic, semantic, permanent). */
const tier = z.preprocess((value) => (typeof value === 'string' ? (TIER_ALIASES[value] ?? value) : value), z.enum(TIERS));

/** The field schemas the operations' own input schemas are built from. */
export { terms as termsSchema, text as textSchema, tier as tierSchema };

/** An item id: `MEM-…` for new items, but any imported id is kept as given. */
export const itemIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\s\p{Cc}]+$/u, { message: 'must not contain whitespace or control characters' });

/** The fields a caller may set on an item through `put`. */
export const itemFieldsSchema = z.strictObject({
  title: z.string().max(1000).optional(),
  content: z.string(),
  type: z.enum(ITEM_TYPES).optional(),
  tier: tier.optional(),
  layer: z.enum(LAYERS).optional(),
  task_id: text.optional(),
  step_id: text.optional(),
  key: text.optional(),
  scope: text.min(1).optional(),
  corpus_id: text.optional(),
  tags: terms.optional(),
  entities: terms.optional(),
  source: text.optional(),
  provenance: provenance.optional(),
  confidence: z.number().min(0).max(1).optional(),
  validation: z.enum(VALIDATIONS).optional(),
  weight: z.number().min(0).max(1e6).optional(),
  injectable: z.boolean().optional(),
  secrecy: z.enum(SECRECY_TIERS).optional(),
  expires_at: timestamp.nullable().optional(),
});

export const putInputSchema = itemFieldsSchema.extend({
  id: itemIdSchema.optional(),
  if_version: z.number().int().min(0).optional(),
  /** Fold a new item into its closest near-duplicate in the scope instead of storing it beside it. */
  merge_similar: z.boolean().optional(),
  /** Ids this item replaces (a host model's summary): linked `supersedes`, so recall leaves them out. */
  supersedes: z.array(itemIdSchema).max(100).optional(),
});

export type PutInput = z.input<typeof putInputSchema>;
/** A put input once validated (defaults applied). */
export type ParsedPut = z.output<typeof putInputSchema>;

/** `update`: any of put's fields, content included, on an existing item. */
export const updateInputSchema = itemFieldsSchema.partial().extend({
  if_version: z.number().int().min(0).optional(),
});

export type UpdateInput = z.input<typeof updateInputSchema>;

export const listFilterSchema = z.strictObject({
  layer: z.enum(LAYERS).optional(),
  type: z.enum(ITEM_TYPES).optional(),
  tier: tier.optional(),
  task_id: text.optional(),
  step_id: text.optional(),
  key: text.optional(),
  key_prefix: text.optional(),
  tags: terms.optional(),
  scope: text.optional(),
  archived: z.enum(['exclude', 'only', 'include']).optional(),
  quarantined: z.enum(['exclude', 'only', 'include']).optional(),
  since: timestamp.optional(),
  until: timestamp.optional(),
  sort: z.enum(['updated', 'created']).optional(),
  limit: z.number().int().min(1).max(100_000).optional(),
  offset: z.number().int().min(0).optional(),
});

export type ListInput = z.input<typeof listFilterSchema>;

/** `get`: an id, or a logical key (task and step narrow it when given). */
export const getQuerySchema = z.union([
  z.strictObject({ id: itemIdSchema }),
  z.strictObject({
    layer: z.enum(LAYERS),
    key: text.min(1),
    task_id: text.optional(),
    step_id: text.optional(),
  }),
]);

export type GetQuery = z.input<typeof getQuerySchema>;

/**
 * An imported item's id: engram's own form (`MEM-` and 12 lowercase hex digits), or an id from
 * another tool (a UUID, `note-42`): 1 to 64 letters, digits, `.`, `_`, `:` or `-`, starting with
 * a letter or digit, and not a malformed `MEM-` id.
 */
export const importIdSchema = z
  .string()
  .regex(/^(?:MEM-[0-9a-f]{12}|(?!MEM-)[A-Za-z0-9][A-Za-z0-9._:-]{0,63})$/, {
    message: 'expected MEM- and 12 lowercase hex digits, or another tool\'s id: 1-64 letters, digits, . _ : -',
  });

/** A complete item as `export` writes it; missing fields take their defaults on import. */
export const importItemSchema = z.object({
  id: importIdSchema.optional(),
  title: z.string().default(''),
  content: z.string(),
  type: z.enum(ITEM_TYPES).default('note'),
  tier: tier.default('stm'),
  layer: z.enum(LAYERS).nullable().default(null),
  task_id: nullableText.default(null),
  step_id: nullableText.default(null),
  key: nullableText.default(null),
  scope: text.min(1).default('project'),
  corpus_id: nullableText.default(null),
  tags: terms.default([]),
  entities: terms.default([]),
  source: nullableText.default(null),
  provenance: provenance.nullable().default(null),
  confidence: z.number().min(0).max(1).default(0.5),
  validation: z.enum(VALIDATIONS).default('unverified'),
  weight: z.number().min(0).max(1e6).default(1),
  injectable: z.boolean().default(true),
  secrecy: z.enum(SECRECY_TIERS).default('S3'),
  version: z.number().int().min(1).default(1),
  usage_count: z.number().int().min(0).default(0),
  last_used_at: importTimestamp.nullable().default(null),
  content_hash: z.string().optional(),
  created_at: importTimestamp.optional(),
  updated_at: importTimestamp.optional(),
  expires_at: importTimestamp.nullable().default(null),
  archived: z.boolean().default(false),
  quarantined: z.boolean().default(false),
});

export const importRevisionSchema = z.object({
  version: z.number().int().min(1),
  changed_at: importTimestamp,
  actor: z.string().nullable(),
  reason: z.string(),
  item: importItemSchema,
});

export const importLineSchema = importItemSchema.extend({
  revisions: z.array(importRevisionSchema).optional(),
});

export const linkInputSchema = z.strictObject({
  src_id: itemIdSchema,
  dst_id: itemIdSchema,
  type: z.enum(LINK_TYPES),
});

/** `ingest`: what to read and how to store it (the stdin reader and progress callback aside). */
export const ingestInputSchema = z.strictObject({
  sources: z.array(z.string().min(1)).min(1),
  cwd: z.string().optional(),
  include: z.array(z.string()).optional(),
  exclude: z.array(z.string()).optional(),
  chunk_tokens: z.number().int().min(1).max(1_000_000).optional(),
  tags: terms.optional(),
  format: z.enum(['text', 'auto']).optional(),
  injectable: z.boolean().optional(),
  scope: text.min(1).optional(),
  corpus: text.min(1).optional(),
  tier: tier.optional(),
  dry_run: z.boolean().optional(),
  /** False keeps the chunks of files gone from a re-ingested directory. */
  prune: z.boolean().optional(),
  /** Follow symlinks whose target is outside the directory walked (default: skipped, reported). */
  follow_symlinks: z.boolean().optional(),
});

export type IngestInput = z.input<typeof ingestInputSchema>;

/** `pull`: defaults applied to every proposal found in the text. */
export const pullInputSchema = z.strictObject({
  title: z.string().max(1000).optional(),
  type: z.enum(ITEM_TYPES).optional(),
  tags: terms.optional(),
  scope: text.min(1).optional(),
});

export type PullInput = z.input<typeof pullInputSchema>;

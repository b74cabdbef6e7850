/**
 * `recall`'s input schema (zod): loaded by the MCP tools and, only when the light check of
 * `items/light-schemas.ts` cannot vouch for an input, by the recall operation.
 */
import { z } from 'zod';
import { termsSchema, textSchema, tierSchema } from '../items/schemas.js';
import { ITEM_TYPES, SECRECY_TIERS } from '../types.js';
import { RECALL_POOL } from './non-injectable.js';
import { RETRIEVAL_MODES } from './retrieve.js';

/** `recall`: a query, a token budget and a mode, with the filters that make sense for recall. */
export const recallInputSchema = z.strictObject({
  query: z.string().max(10_000),
  budget: z.number().int().min(1).max(1_000_000).optional(),
  mode: z.enum(['inject', 'catalog', 'hybrid']).optional(),
  header: z.boolean().optional(),
  tier: tierSchema.optional(),
  type: z.enum(ITEM_TYPES).optional(),
  scope: textSchema.optional(),
  tags: termsSchema.optional(),
  secrecy: z.enum(SECRECY_TIERS).optional(),
  /** How matches are found (`mode` is the output's form): lexical, semantic or hybrid, as in search. */
  search_mode: z.enum(RETRIEVAL_MODES).optional(),
  /** At most this many matches, best first (mem-context's `limit`). */
  limit: z.number().int().min(1).max(RECALL_POOL).optional(),
  /** Only matches scoring at least this (the ranking's final score; mem-context's `min_score`). */
  min_score: z.number().min(0).max(1e6).optional(),
  /** Items already given (the recall–answer loop's earlier rounds): left out before packing. */
  exclude_ids: z.array(z.string().max(100)).max(10_000).optional(),
});

export type RecallInput = z.input<typeof recallInputSchema>;

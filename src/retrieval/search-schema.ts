/**
 * `search`'s input schema (zod): loaded by the MCP tools and, only when the light check of
 * `items/light-schemas.ts` cannot vouch for an input, by the search operation.
 */
import { z } from 'zod';
import { listFilterSchema } from '../items/schemas.js';
import { SORTS } from '../search/rank.js';
import { SECRECY_TIERS } from '../types.js';
import { RETRIEVAL_MODES } from './retrieve.js';

/** `search`: a free-text query (any string is safe) with list's filters and a result count. */
export const searchInputSchema = listFilterSchema.omit({ sort: true, limit: true, offset: true }).extend({
  query: z.string().max(10_000),
  k: z.number().int().min(1).max(1000).optional(),
  injectable: z.boolean().optional(),
  sort: z.enum(SORTS).optional(),
  explain: z.boolean().optional(),
  secrecy: z.enum(SECRECY_TIERS).optional(),
  /** lexical, semantic or hybrid; default hybrid when the store's vectors match the embedder, else lexical. */
  mode: z.enum(RETRIEVAL_MODES).optional(),
});

export type SearchInput = z.input<typeof searchInputSchema>;

/**
 * The parameters several tools share that are the MCP shell's own: a workspace name, tags as an
 * array or a comma list, tier names with their aliases listed for the client, and loose item ids.
 * Parameters that are an operation's field are taken from the operation's schema instead.
 */
import { z } from 'zod';
import { putInputSchema } from '../../items/schemas.js';
import { TIER_ALIASES, TIERS } from '../../types.js';
import type { ToolContext } from './tool.js';

/** A short text parameter (names, ids of sessions, descriptions). */
export const text = z.string().max(1000);

/**
 * A tier, or one of its aliases. The operations map aliases in a preprocess step, which JSON
 * Schema cannot show, so the client is given the accepted names as an enum.
 */
export const tierParam = z.enum([...TIERS, ...Object.keys(TIER_ALIASES)]).describe('stm|mtm|ltm = short|medium|long-term');

/** The item's scope, as `put` takes it. */
export const scopeParam = putInputSchema.shape.scope.unwrap();

export const workspaceParam = text.min(1).describe('named workspace; overrides scope');

/** Any id a client may send: an unknown or malformed one is a NOT_FOUND from the operation. */
export const itemIdParam = z.string().min(1).max(200);

export const tagListParam = z
  .union([z.array(z.string().max(200)).max(100), z.string().max(5000)])
  .describe('array or comma list');

/** Tags from an array or a comma-separated string; undefined when none are left. */
export function tagsOf(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : value.split(',');
  const tags = list.map((t) => t.trim()).filter((t) => t !== '');
  return tags.length > 0 ? tags : undefined;
}

/** The scope (and corpus) a call works in: its workspace's, else its scope. */
export async function whereTo(context: ToolContext, args: { workspace?: string; scope?: string }) {
  if (args.workspace === undefined) return { scope: args.scope, corpus_id: undefined };
  const found = await context.engram.resolveWorkspace(args.workspace);
  return { scope: found.scope, corpus_id: found.corpus_id === '' ? undefined : found.corpus_id };
}

/** How matches are found (search's `mode`, recall's `search_mode`), described once for both. */
export function matchModeParam<T extends z.ZodType>(schema: T): T {
  return schema.describe('default hybrid when the store has vectors');
}

/** Consolidation candidates: groups per batch (the operation's default is 10) and groups passed over. */
export const batchLimitParam = z.number().int().min(0).max(1000).describe('groups per batch (default 10)');
export const batchOffsetParam = z.number().int().min(0).describe('groups to skip');

/**
 * `engram status`: one screen on the store's state for people and agents — where it is and how
 * big, what it holds per tier and type, what waits for a decision (quarantined items, contradicted
 * items and possible contradictions), pending vectors, the last consolidation, how far the synced
 * folders are behind, and which agent clients have engram wired in. Reads only: counts come from
 * `stats`, contradictions from `review`'s detector, folder changes from file metadata.
 */
import { type WiredClient, wiredClients, type WiredClientsOptions } from '../config/wired-clients.js';
import type { OperationContext } from '../context.js';
import { folderChanges, type FolderChanges } from '../ingest/folder-changes.js';
import { possibleContradictions } from '../lifecycle/contradictions.js';
import { lastConsolidation } from '../lifecycle/last-consolidation.js';
import type { VectorStats } from '../types.js';
import { stats } from './stats.js';

/** Possible contradictions are counted up to this many (`status` says "at least" beyond). */
export const STATUS_CONTRADICTIONS_LIMIT = 100;

/**
 * `status` looks for possible contradictions among the newest this many live memories only, so it
 * stays fast on a large store (comparing 10,000 memories takes over a second); `review` looks at
 * them all.
 */
export const STATUS_CONTRADICTIONS_WINDOW = 1000;

export interface StatusOptions {
  /** Where to look for the agent clients' configuration (none: clients are not looked at). */
  clients?: WiredClientsOptions;
}

/** A synced folder and how far it is behind. */
export interface FolderStatus {
  name: string;
  path: string;
  synced_at: string | null;
  changes: FolderChanges;
}

export interface StatusReport {
  /** When the status was taken (ages are measured from it). */
  at: string;
  store: { path: string; size_bytes: number; schema_version: number };
  items: {
    /** Non-archived items. */
    active: number;
    archived: number;
    by_tier: Record<string, number>;
    by_type: Record<string, number>;
  };
  review: {
    /** Live items held by the write policy, awaiting verify or reject. */
    quarantined: number;
    /** Items marked contradicted. */
    contradicted: number;
    /**
     * Pairs of memories saying the same thing with other values, among the newest
     * {@link STATUS_CONTRADICTIONS_WINDOW} live memories (counted up to the limit).
     */
    possible_contradictions: number;
    /** True when the count stopped at {@link STATUS_CONTRADICTIONS_LIMIT}. */
    possible_contradictions_capped: boolean;
  };
  /** The vector figures when the store keeps vectors (pending: items without a vector yet). */
  vectors: VectorStats | null;
  /** The last consolidation (manual or automatic); null when never. */
  last_consolidation: string | null;
  folders: FolderStatus[];
  /** The client configuration files found; absent when clients were not looked at. */
  clients?: WiredClient[];
}

/**
 * The store's status in one report.
 *
 * @example
 * const { review, folders } = await status(ctx, { clients: { project: process.cwd(), home: os.homedir() } });
 */
export async function status(ctx: OperationContext, options: StatusOptions = {}): Promise<StatusReport> {
  const { store } = ctx;
  const counts = await stats(ctx);
  const contradicted = (await store.items.list({ validation: 'contradicted', archived: 'exclude', limit: 1 })).total;
  const possible = (
    await possibleContradictions(store, STATUS_CONTRADICTIONS_LIMIT, STATUS_CONTRADICTIONS_WINDOW)
  ).length;
  const folders = await Promise.all(
    (await store.folders.list()).map(async (f) => ({
      name: f.name,
      path: f.path,
      synced_at: f.synced_at,
      changes: await folderChanges(store, f),
    })),
  );
  return {
    at: ctx.now(),
    store: { path: counts.path, size_bytes: counts.size_bytes, schema_version: counts.schema_version },
    items: { active: counts.active, archived: counts.archived, by_tier: counts.by_tier, by_type: counts.by_type },
    review: {
      quarantined: counts.quarantined,
      contradicted,
      possible_contradictions: possible,
      possible_contradictions_capped: possible >= STATUS_CONTRADICTIONS_LIMIT,
    },
    vectors: counts.vectors ?? null,
    last_consolidation: await lastConsolidation(store),
    folders,
    ...(options.clients === undefined ? {} : { clients: wiredClients(options.clients) }),
  };
}

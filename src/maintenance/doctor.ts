/**
 * The store's health for `engram doctor`: schema version, full-text availability, index/item
 * agreement, the store's integrity check and every item's content hash checked again. A damaged
 * store is reported, not thrown: that is what doctor is for.
 */
import type { OperationContext } from '../context.js';
import { toEngramError } from '../errors.js';
import type { HealthCheck } from '../store/store.js';
import type { VectorStats } from '../types.js';
import { sha256 } from '../util/hash.js';
import { vectorStats } from './embed.js';
import { type EmbedderHealth, embedderHealth } from './embedder-health.js';

export interface DoctorReport {
  ok: boolean;
  schema_version: number;
  /** The tokenizer preset recorded with the search index when the store was created. */
  fts_tokenizer: string | null;
  full_text: boolean;
  items: number;
  indexed: number;
  integrity: string[];
  /** Every item's content hashed again as the write path does (SHA-256): the ids that differ. */
  content_hashes: { checked: number; mismatched: string[] };
  /** The vectors, when the store keeps them: model, count, pending items, configured embedder. */
  vectors?: VectorStats;
  /** The configured embedder's state (see {@link EmbedderHealth}); absent without one. */
  embedder?: EmbedderHealth;
  problems: string[];
}

/**
 * Checks the store; `ok` is true when `problems` is empty. Only a STORE_CORRUPT failure of the
 * integrity check is turned into a report; any other error is thrown.
 *
 * @example
 * const report = await doctor(ctx);
 * if (!report.ok) for (const problem of report.problems) warn(problem);
 */
export async function doctor(ctx: OperationContext): Promise<DoctorReport> {
  const { store } = ctx;
  let checks: HealthCheck[];
  try {
    checks = await store.health();
  } catch (error) {
    // Damage SQLite's check cannot walk past: reported, not thrown (that is what doctor is for).
    const failure = toEngramError(error);
    if (failure.code !== 'STORE_CORRUPT') throw failure;
    const version = Number(await store.meta.get('schema_version') ?? 0);
    const health = { full_text: store.text.ranked, items: 0, indexed: 0, integrity: [failure.message] };
    const content_hashes = { checked: 0, mismatched: [] };
    const problems = [`integrity_check: ${failure.message}`];
    const fts_tokenizer = await store.meta.get('fts_tokenizer') ?? null;
    return { ok: false, schema_version: version, fts_tokenizer, ...health, content_hashes, problems };
  }
  const { schema_version, ...health } = fromChecks(checks);
  const fts_tokenizer = await store.meta.get('fts_tokenizer') ?? null;
  const problems: string[] = [];
  if (health.integrity.join() !== 'ok') problems.push(`integrity_check: ${health.integrity.join('; ')}`);
  if (!health.full_text) problems.push('full-text index unavailable (FTS5 missing): search uses LIKE');
  else if (health.indexed !== health.items) {
    problems.push(`full-text index has ${health.indexed} rows for ${health.items} items: run \`engram reindex\``);
  }
  const content_hashes = await checkContentHashes(ctx, problems);
  const { vectors, embedder } = await checkVectors(ctx, checks, problems);
  const report = { ok: problems.length === 0, schema_version, fts_tokenizer, ...health, content_hashes };
  const optional = { ...(vectors === undefined ? {} : { vectors }), ...(embedder === undefined ? {} : { embedder }) };
  return { ...report, ...optional, problems };
}

/**
 * The vector figures, the store's `vectors` check, and the configured embedder's state: unusable,
 * or of another model than the stored vectors (a rebuild is needed), is a problem. Pending items
 * are work to do, and an embedder that does not answer is not the store's problem.
 */
async function checkVectors(
  ctx: OperationContext,
  checks: readonly HealthCheck[],
  problems: string[],
): Promise<{ vectors?: VectorStats | undefined; embedder?: EmbedderHealth }> {
  for (const problem of checks.find((c) => c.name === 'vectors')?.problems ?? []) problems.push(`vectors: ${problem}`);
  const vectors = await vectorStats(ctx);
  if (ctx.embedder === undefined) return { vectors };
  const recorded = vectors?.model == null ? undefined : { id: vectors.model, dimensions: vectors.dimensions ?? 0 };
  const embedder = await embedderHealth(ctx.embedder, recorded, problems);
  // A Model2Vec model's id is known once it is loaded: the figures name it as the probe found it.
  return { vectors: vectors && { ...vectors, embedder: embedder.id }, embedder };
}

/** The store's named checks in the report's fields. */
function fromChecks(checks: readonly HealthCheck[]) {
  const check = (name: string) => checks.find((c) => c.name === name);
  const integrity = check('integrity');
  return {
    schema_version: check('schema')?.figures.schema_version ?? 0,
    full_text: check('full_text')?.ok ?? false,
    items: check('index')?.figures.items ?? 0,
    indexed: check('index')?.figures.indexed ?? 0,
    integrity: integrity === undefined || integrity.ok ? ['ok'] : integrity.problems,
  };
}

/**
 * Hashes every item's content again; the ids whose hash differs were changed outside engram. A
 * read that fails part-way is a problem, not an exception.
 */
async function checkContentHashes(
  { store }: OperationContext,
  problems: string[],
): Promise<DoctorReport['content_hashes']> {
  const content_hashes = { checked: 0, mismatched: [] as string[] };
  try {
    for await (const item of store.items.iterate()) {
      content_hashes.checked++;
      if (sha256(item.content) !== item.content_hash) content_hashes.mismatched.push(item.id);
    }
  } catch (error) {
    problems.push(`content hashes: stopped after ${content_hashes.checked} items (${toEngramError(error).message})`);
  }
  const { mismatched } = content_hashes;
  if (mismatched.length > 0) {
    const shown = mismatched.slice(0, 20).join(', ') + (mismatched.length > 20 ? ', …' : '');
    problems.push(`content_hash differs from the content of ${mismatched.length} item(s), changed outside engram: ${shown}`);
  }
  return content_hashes;
}

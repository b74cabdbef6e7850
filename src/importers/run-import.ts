/**
 * `engram import --from SOURCE PATH`: reads a foreign store with the source's reader, maps each
 * record onto an item, admits it through the write policy and stores it with the item writer, in
 * transactions of {@link IMPORT_BATCH} records. A record already imported (found by its source id,
 * kept in `provenance.import`) is updated, or left as it is when nothing changed; links are
 * written once all records are in; vectors are kept when they fit the embedder
 * (`keep-vectors.ts`). A dry run reads, maps and admits the same way and writes nothing.
 */
import { resolve } from 'node:path';
import type { OperationContext } from '../context.js';
import { admitWrite } from '../items/admission.js';
import { hasChanges, nextVersion } from '../items/build-item.js';
import { IMPORT_BATCH } from '../items/import-lines.js';
import type { MemoryItem } from '../types.js';
import { emptyReport, type SourceImportReport } from './import-report.js';
import { keepVector, type VectorTarget, vectorTarget } from './keep-vectors.js';
import { type PendingLink, writeLinks } from './link-records.js';
import { candidateIds, isImportOf, type MapContext, type MappedRecord, mapRecord, refusalOf, withId } from './map-record.js';
import type { ImportSource, ImportSourceName, SourceEntry } from './source.js';

export type { SourceImportReport } from './import-report.js';
import { changedFields, reimported, storedHash } from './reimport.js';
import { sanitiseReport } from './shown-text.js';
import { loadSource } from './sources/index.js';

export interface ImportFromInput {
  from: ImportSourceName;
  /** The source's file or folder. */
  path: string;
  /** Read, map and check everything; write nothing. */
  dryRun?: boolean;
  /** What `path` `-` reads (memtool, mem-context); the process's standard input by default. */
  stdin?: NodeJS.ReadableStream;
  /** Once aborted, the run writes the records read so far and stops (`interrupted` in the report). */
  signal?: AbortSignal;
}

type Outcome = 'created' | 'updated' | 'unchanged';

interface Run {
  ctx: OperationContext;
  from: ImportSourceName;
  namespace?: string;
  dryRun: boolean;
  report: SourceImportReport;
  /** Source id → engram id of the records stored or found unchanged. */
  ids: Map<string, string>;
  links: PendingLink[];
  target?: VectorTarget;
}

/** Where a record goes: its stored item (a re-import), else the first free candidate id. */
async function placeOf(run: Run, sourceId: string): Promise<{ id: string; existing?: MemoryItem }> {
  const candidates = candidateIds(run.from, sourceId, run.namespace);
  const found = await Promise.all(candidates.map((id) => run.ctx.store.items.get(id)));
  const mine = found.findIndex((item) => item !== undefined && isImportOf(item, run.from, sourceId, run.namespace));
  if (mine >= 0) return { id: candidates[mine] as string, existing: found[mine] };
  const free = found.findIndex((item) => item === undefined);
  if (free >= 0) return { id: candidates[free] as string };
  // Reached only when a hash-derived id is taken by another item: astronomically unlikely.
  throw new Error(`No free id for ${sourceId}`);
}

/** Writes one record (inside the batch's transaction), its vector after it; says what it did. */
async function writeOne(run: Run, record: MappedRecord, vector: Float32Array | undefined): Promise<Outcome> {
  const { store, writer } = run.ctx;
  const place = await placeOf(run, record.sourceId);
  const { item: incoming, history } = withId(record, place.id);
  const existing = place.existing;
  run.ids.set(record.sourceId, place.id);
  const details = { result: '', from: run.from };
  let outcome: Outcome;
  if (existing === undefined) {
    outcome = 'created';
    if (!run.dryRun) await writer.insert(incoming, 'import', { ...details, result: outcome }, { at: run.ctx.now(), history });
  } else {
    const before = storedHash(existing);
    const { record_hash: hash, record_fields: fields } = record.hash;
    const changed = before.record_fields === undefined ? undefined : changedFields(before.record_fields, fields);
    const next = before.record_hash === hash ? existing : reimported(existing, incoming, record.stated, changed);
    outcome = hasChanges(existing, next) ? 'updated' : 'unchanged';
    if (outcome === 'updated' && !run.dryRun) {
      await writer.update(nextVersion(existing, next, run.ctx.now()), 'import', { ...details, result: outcome });
    }
  }
  if (vector !== undefined && !run.dryRun && run.target !== undefined && 'model' in run.target) {
    await store.vectors?.put(place.id, vector, run.target.model);
  }
  return outcome;
}

async function writeBatch(run: Run, batch: MappedRecord[]): Promise<void> {
  if (batch.length === 0) return;
  const vectors: (Float32Array | undefined)[] = [];
  for (const record of batch) {
    if (record.vector === undefined) vectors.push(undefined);
    else {
      run.target ??= await vectorTarget(run.ctx);
      vectors.push(keepVector(record.vector, run.target, run.report));
    }
  }
  const write = async () => {
    const outcomes: Outcome[] = [];
    for (const [i, record] of batch.entries()) outcomes.push(await writeOne(run, record, vectors[i]));
    return outcomes;
  };
  // Counted after commit: a busy retry runs the transaction again from the start.
  const outcomes = run.dryRun ? await write() : await run.ctx.store.transaction(write);
  for (const [i, outcome] of outcomes.entries()) {
    const record = batch[i] as MappedRecord;
    run.report[outcome]++;
    if (outcome !== 'unchanged' && record.item.quarantined) run.report.quarantined++;
    if (outcome === 'created') run.report.revisions.stored += record.history.length;
    for (const link of record.links) run.links.push({ from: record.sourceId, to: link.to, type: link.type });
  }
}

function mapContext(run: Run, path: string): MapContext {
  const { ctx } = run;
  return {
    from: run.from,
    path,
    namespace: run.namespace,
    now: ctx.now(),
    admit: (item, privileged) => {
      const admitted = admitWrite(item, { operation: 'import', actor: ctx.actor, now: ctx.now(), privileged }, ctx.admit).item;
      // An old memory held for review is not a new write to let lapse: it waits for `engram review`
      // without the quarantine's expiry (cleanup would archive it after 72 hours otherwise).
      return admitted.quarantined && !item.quarantined ? { ...admitted, expires_at: item.expires_at } : admitted;
    },
  };
}

/** Counts one entry the reader could not map: a whole record, or one field of a kept record. */
function countUnmapped(run: Run, entry: Extract<SourceEntry, { unmapped: unknown }>): void {
  run.report.not_mapped.push(entry.unmapped);
  if (entry.unmapped.field === undefined) {
    run.report.read++;
    run.report.unmapped++;
  }
}

/**
 * Imports everything `input.path` holds for the source `input.from` and reports it.
 *
 * @example
 * const report = await importFrom(ctx, { from: 'memtool', path: 'memtool-export.jsonl' });
 * console.log(report.created, report.refused, report.not_mapped);
 */
export async function importFrom(ctx: OperationContext, input: ImportFromInput): Promise<SourceImportReport> {
  return runImport(ctx, await loadSource(input.from), input);
}

/** {@link importFrom} with the reader given (a source's tests, a library user's own reader). */
export async function runImport(
  ctx: OperationContext,
  source: ImportSource,
  input: ImportFromInput,
): Promise<SourceImportReport> {
  const dryRun = input.dryRun === true;
  const report = emptyReport(input.from, input.path, dryRun);
  if (dryRun) report.mapping = source.mapping;
  const namespace = await source.namespace?.(input.path);
  const run: Run = { ctx, from: input.from, namespace, dryRun, report, ids: new Map(), links: [] };
  const mapping = mapContext(run, input.path === '-' ? '-' : resolve(input.path));
  // The first record with a source id wins: a later one would overwrite it in the same run.
  const seen = new Set<string>();
  let batch: MappedRecord[] = [];
  for await (const entry of source.read(input.path, input.stdin)) {
    if (input.signal?.aborted === true) {
      report.interrupted = true;
      break;
    }
    if ('unmapped' in entry) {
      countUnmapped(run, entry);
      continue;
    }
    if (seen.has(entry.record.sourceId)) {
      countUnmapped(run, { unmapped: { where: entry.record.sourceId, reason: 'duplicate source id, first kept' } });
      continue;
    }
    seen.add(entry.record.sourceId);
    report.read++;
    try {
      const { mapped, refused } = mapRecord(entry.record, mapping);
      report.revisions.refused += refused.length;
      report.refusals.push(...refused);
      if (!dryRun) await ctx.writer.prepare(mapped.item);
      batch.push(mapped);
    } catch (error) {
      const refusal = refusalOf(entry.record.sourceId, error);
      if (refusal.error === 'POLICY_REJECTED') report.refused++;
      else report.invalid++;
      report.refusals.push(refusal);
    }
    if (batch.length >= IMPORT_BATCH) {
      await writeBatch(run, batch);
      batch = [];
    }
  }
  await writeBatch(run, batch);
  if (report.interrupted === true) {
    // The links wait for the run that finishes: it finds these records unchanged and links them.
    sanitiseReport(report);
    return report;
  }
  const { store, writer } = ctx;
  const pass = { store, writer, source: input.from, namespace, ids: run.ids, now: ctx.now(), dryRun };
  await writeLinks(run.links, pass, report);
  sanitiseReport(report);
  return report;
}

/**
 * Shared pieces of the `engram import --from` tests: secrets built at run time (never written in
 * a file of the repository), the store's bytes, the report's sums.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cli, type CliOptions, type CliRun } from './helpers.js';
import type { OperationContext } from '../src/context.js';
import type { SourceImportReport } from '../src/index.js';
import type { ImportSource, SourceRecord, Unmapped } from '../src/importers/source.js';
import { createItemWriter } from '../src/items/writer.js';
import { createIndexer } from '../src/search/indexer.js';
import { loadSegmenter } from '../src/search/segment.js';
import { createSqliteStore } from '../src/store/sqlite/store.js';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * The `n`th secret of a fixture: an access-key-shaped value, different for each `n` and `salt`,
 * assembled here so that no file holds one.
 */
export function secretValue(n: number, salt: string): string {
  const digest = createHash('sha256').update(`${salt}:${n}`).digest();
  const body = [...digest.subarray(0, 16)].map((b) => UPPER[b % UPPER.length]).join('');
  return ['AK', 'IA', body].join('');
}

/** The store file and its WAL and shared-memory files, as bytes. */
export function storeBytes(db: string): Buffer {
  return Buffer.concat(['', '-wal', '-shm'].map((s) => (existsSync(db + s) ? readFileSync(db + s) : Buffer.alloc(0))));
}

/** The report of one `engram import --from` run (JSON on stdout). */
export type Report = SourceImportReport;

/** Runs `engram --db DB import --from FROM PATH ...extra` and returns the run and its report. */
export function importFrom(
  db: string,
  from: string,
  path: string,
  extra: string[] = [],
  options: CliOptions = {},
): CliRun & { report: Report } {
  const run = cli(['--db', db, 'import', '--from', from, path, '--json', ...extra], options);
  assert.ok(run.json !== undefined, `import printed its report (stderr: ${run.stderr})`);
  return { ...run, report: run.json as unknown as Report };
}

/** The report's record counts add up to what was read. */
export function assertAddsUp(report: Report): void {
  const { read, created, updated, unchanged, refused, invalid, unmapped } = report;
  assert.equal(created + updated + unchanged + refused + invalid + unmapped, read, 'the counts add up to what was read');
  assert.equal(report.refusals.length, refused + invalid + report.revisions.refused, 'every refusal listed');
}

/** Every secret is absent from the store's bytes and from what the run printed. */
export function assertNowhere(db: string, secrets: readonly string[], run: CliRun): void {
  const bytes = storeBytes(db);
  assert.ok(bytes.length > 0, 'the store exists');
  for (const secret of secrets) {
    assert.equal(bytes.indexOf(Buffer.from(secret, 'utf8')), -1, 'a refused secret is not in the store file');
    assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret), 'the report masks the secret');
  }
}

/** An operation context over the store at `db`, for the runner called in process. */
export function importContext(db: string): OperationContext {
  const store = createSqliteStore(db);
  const indexer = createIndexer({ loadSegmenter });
  return {
    store,
    indexer,
    writer: createItemWriter({ store, indexer, actor: null }),
    clock: () => new Date(),
    now: () => new Date().toISOString(),
    actor: null,
    fullText: true,
    defaultSecrecy: 'S3',
  };
}

/** An imported item's provenance without the record's fingerprint (checked present), for comparisons. */
export function withoutHash(provenance: Record<string, unknown> | null): Record<string, unknown> | null {
  const mark = provenance?.import as Record<string, unknown> | undefined;
  if (mark === undefined) return provenance;
  const { record_hash: hash, record_fields: fields, ...rest } = mark;
  assert.match(String(hash), /^[0-9a-f]{16}$/, 'the import keeps the record\'s hash');
  assert.equal(typeof fields, 'object', 'and the hash of each of its fields');
  return { ...provenance, import: rest };
}

/** Every entry a reader gives for `path`: the records, and the notes on what it could not map. */
export async function readAll(
  source: ImportSource,
  path: string,
): Promise<{ records: SourceRecord[]; notes: Unmapped[] }> {
  const records: SourceRecord[] = [];
  const notes: Unmapped[] = [];
  for await (const entry of source.read(path)) {
    if ('record' in entry) records.push(entry.record);
    else notes.push(entry.unmapped);
  }
  return { records, notes };
}

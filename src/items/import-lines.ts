/**
 * JSONL import: every line is validated and admitted on its own, then written in batches of
 * {@link IMPORT_BATCH} lines, one transaction per batch. A bad line is reported with its number and
 * skipped; it never takes the rest of its batch down with it.
 */
import { EngramError, toEngramError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { MemoryItem, Revision } from '../types.js';
import { indexText, prepareIndexing } from '../search/index-text.js';
import { newItemId } from '../util/ids.js';
import { hasChanges, importedToItem, nextVersion } from './build-item.js';
import { requireCleanFields } from './field-policy.js';
import { parseInput } from './parse-input.js';
import { importLineSchema } from './schemas.js';

export const IMPORT_BATCH = 500;

export interface ImportLineError {
  line: number;
  error: EngramError['code'];
  message: string;
}

export interface ImportReport {
  created: number;
  updated: number;
  unchanged: number;
  invalid: number;
  errors: ImportLineError[];
}

export interface ImportContext {
  store: Store;
  actor: string | null;
  now: () => string;
  /** Admission of one item; history (`privileged`) is checked for what must never be stored only. */
  admit: (item: MemoryItem, privileged?: boolean) => MemoryItem;
}

interface Prepared {
  item: MemoryItem;
  revisions: Omit<Revision, 'item_id'>[];
}

function prepareLine(text: string, context: ImportContext, now: string): Prepared {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new EngramError('PARAM_ERROR', `Malformed JSON: ${(error as Error).message}`);
  }
  const { revisions = [], ...fields } = parseInput(importLineSchema, json);
  for (const r of revisions) requireCleanFields({ 'revision actor': r.actor, 'revision reason': r.reason });
  const id = fields.id ?? newItemId();
  const item = context.admit(importedToItem(fields, id, now));
  return {
    item,
    // History passes admission too: an old version must not smuggle in what the policy refuses.
    revisions: revisions.map((r) => ({ ...r, item: context.admit(importedToItem(r.item, id, now), true) })),
  };
}

type Counts = Pick<ImportReport, 'created' | 'updated' | 'unchanged'>;

function writeOne(prepared: Prepared, context: ImportContext, report: Counts): void {
  const { store, actor } = context;
  const incoming = prepared.item;
  const existing = store.getItem(incoming.id);
  if (existing === undefined) {
    store.insertItem(incoming, indexText(incoming));
    for (const r of prepared.revisions) store.addRevision({ item_id: incoming.id, ...r });
    store.addRevision({
      item_id: incoming.id,
      version: incoming.version,
      changed_at: incoming.updated_at,
      actor,
      reason: 'import',
      item: incoming,
    });
    store.addEvent({
      item_id: incoming.id,
      action: 'import',
      actor,
      at: context.now(),
      details: { version: incoming.version, result: 'created' },
    });
    report.created++;
    return;
  }
  if (!hasChanges(existing, { ...incoming, created_at: existing.created_at })) {
    report.unchanged++;
    return;
  }
  const at = context.now();
  const item = nextVersion(existing, { ...incoming, created_at: existing.created_at }, at);
  store.updateItem(item, indexText(item));
  store.addRevision({
    item_id: item.id,
    version: item.version,
    changed_at: at,
    actor,
    reason: 'import',
    item,
  });
  store.addEvent({
    item_id: item.id,
    action: 'import',
    actor,
    at,
    details: { version: item.version, result: 'updated' },
  });
  report.updated++;
}

/** Imports JSONL `lines` into the store and reports what happened to each. */
export async function importLines(
  lines: Iterable<string> | AsyncIterable<string>,
  context: ImportContext,
): Promise<ImportReport> {
  const report: ImportReport = { created: 0, updated: 0, unchanged: 0, invalid: 0, errors: [] };
  let batch: Prepared[] = [];
  const flush = () => {
    const pending = batch;
    batch = [];
    if (pending.length === 0) return;
    // Counted inside, added after commit: a busy retry re-runs the transaction from scratch.
    const counts = context.store.transaction(() => {
      const batchCounts: Counts = { created: 0, updated: 0, unchanged: 0 };
      for (const prepared of pending) writeOne(prepared, context, batchCounts);
      return batchCounts;
    });
    report.created += counts.created;
    report.updated += counts.updated;
    report.unchanged += counts.unchanged;
  };
  let lineNumber = 0;
  for await (const text of lines) {
    lineNumber++;
    if (text.trim() === '') continue;
    try {
      const prepared = prepareLine(text, context, context.now());
      await prepareIndexing(prepared.item);
      batch.push(prepared);
    } catch (error) {
      const failure = toEngramError(error);
      report.invalid++;
      report.errors.push({ line: lineNumber, error: failure.code, message: failure.message });
    }
    if (batch.length >= IMPORT_BATCH) flush();
  }
  flush();
  return report;
}

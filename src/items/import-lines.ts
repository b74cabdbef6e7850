/**
 * JSONL import: every line is validated and admitted on its own, then written in batches of
 * {@link IMPORT_BATCH} lines, one transaction per batch. A bad line (a malformed id included) is
 * reported with its number and skipped; it never takes the rest of its batch down with it. A BOM
 * before the first line is skipped; unknown keys are counted (or, `strict`, refuse their line).
 */
import { EngramError, FIX_HINTS, toEngramError } from '../errors.js';
import { evaluatePolicy } from '../policy/evaluate.js';
import type { Store } from '../store/store.js';
import type { MemoryItem, Revision } from '../types.js';
import { newItemId } from '../util/ids.js';
import { hasChanges, importedToItem, nextVersion } from './build-item.js';
import { requireCleanFields } from './field-policy.js';
import { parseInput } from './parse-input.js';
import { importItemSchema, importLineSchema, importRevisionSchema } from './schemas.js';
import type { ItemWriter } from './writer.js';

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
  /**
   * Keys import does not know (ignored), with the number of lines carrying each: `foo`,
   * `revisions.foo`, `revisions.item.foo`. A name that is not a short identifier, or that the
   * policy would refuse, is shown as `[key of N characters]`.
   */
  unknown_keys: Record<string, number>;
}

export interface ImportContext {
  store: Store;
  writer: ItemWriter;
  /** Unknown keys make their line invalid (PARAM_ERROR) instead of being counted and ignored. */
  strict?: boolean;
  now: () => string;
  /** Admission of one item; history (`privileged`) is checked for what must never be stored only. */
  admit: (item: MemoryItem, privileged?: boolean) => MemoryItem;
}

interface Prepared {
  item: MemoryItem;
  revisions: Omit<Revision, 'item_id'>[];
}

const LINE_KEYS: ReadonlySet<string> = new Set(Object.keys(importLineSchema.shape));
const REVISION_KEYS: ReadonlySet<string> = new Set(Object.keys(importRevisionSchema.shape));
const ITEM_KEYS: ReadonlySet<string> = new Set(Object.keys(importItemSchema.shape));
/** Distinct unknown key names reported by name; any beyond are counted together. */
const MAX_KEY_NAMES = 100;
const OTHER_KEYS = '[other keys]';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The keys of one parsed line that import does not know, as `revisions.item.foo` paths. */
function unknownKeys(json: unknown): string[] {
  if (!isRecord(json)) return [];
  const found = Object.keys(json).filter((k) => !LINE_KEYS.has(k));
  for (const revision of Array.isArray(json.revisions) ? json.revisions : []) {
    if (!isRecord(revision)) continue;
    found.push(...Object.keys(revision).filter((k) => !REVISION_KEYS.has(k)).map((k) => `revisions.${k}`));
    if (isRecord(revision.item)) {
      found.push(...Object.keys(revision.item).filter((k) => !ITEM_KEYS.has(k)).map((k) => `revisions.item.${k}`));
    }
  }
  return [...new Set(found)];
}

/** A key name as reports show it: a short identifier the policy accepts, else its length only. */
function shownKey(path: string): string {
  const name = path.slice(path.lastIndexOf('.') + 1);
  const plain = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/.test(name) && evaluatePolicy({ content: name }, { ignoreSize: true }).verdict !== 'reject';
  return plain ? path : `${path.slice(0, path.length - name.length)}[key of ${name.length} characters]`;
}

function countUnknown(report: ImportReport, keys: readonly string[]): void {
  for (const key of keys) {
    let shown = shownKey(key);
    if (!(shown in report.unknown_keys) && Object.keys(report.unknown_keys).length >= MAX_KEY_NAMES) shown = OTHER_KEYS;
    report.unknown_keys[shown] = (report.unknown_keys[shown] ?? 0) + 1;
  }
}

function prepareLine(text: string, context: ImportContext, now: string, report: ImportReport): Prepared {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new EngramError('PARAM_ERROR', `Malformed JSON: ${(error as Error).message}`);
  }
  const unknown = unknownKeys(json);
  if (unknown.length > 0 && context.strict) {
    const shown = unknown.map(shownKey);
    throw new EngramError('PARAM_ERROR', `Unknown field(s): ${shown.join(', ')}`, {
      hint: FIX_HINTS.lenient_import,
      fix: 'lenient_import',
      details: { fields: shown },
    });
  }
  const { revisions = [], ...fields } = parseInput(importLineSchema, json);
  for (const r of revisions) requireCleanFields({ 'revision actor': r.actor, 'revision reason': r.reason });
  countUnknown(report, unknown);
  const id = fields.id ?? newItemId();
  const item = context.admit(importedToItem(fields, id, now));
  return {
    item,
    // History passes admission too: an old version must not smuggle in what the policy refuses.
    revisions: revisions.map((r) => ({ ...r, item: context.admit(importedToItem(r.item, id, now), true) })),
  };
}

type Counts = Pick<ImportReport, 'created' | 'updated' | 'unchanged'>;

async function writeOne(prepared: Prepared, context: ImportContext, report: Counts): Promise<void> {
  const { store, writer } = context;
  const incoming = prepared.item;
  const existing = await store.items.get(incoming.id);
  if (existing === undefined) {
    await writer.insert(incoming, 'import', { result: 'created' }, { at: context.now(), history: prepared.revisions });
    report.created++;
    return;
  }
  if (!hasChanges(existing, { ...incoming, created_at: existing.created_at })) {
    report.unchanged++;
    return;
  }
  const item = nextVersion(existing, { ...incoming, created_at: existing.created_at }, context.now());
  await writer.update(item, 'import', { result: 'updated' });
  report.updated++;
}

/** Imports JSONL `lines` into the store and reports what happened to each. */
export async function importLines(
  lines: Iterable<string> | AsyncIterable<string>,
  context: ImportContext,
): Promise<ImportReport> {
  const report: ImportReport = { created: 0, updated: 0, unchanged: 0, invalid: 0, errors: [], unknown_keys: {} };
  let batch: Prepared[] = [];
  const flush = async () => {
    const pending = batch;
    batch = [];
    if (pending.length === 0) return;
    // Counted inside, added after commit: a busy retry re-runs the transaction from scratch.
    const counts = await context.store.transaction(async () => {
      const batchCounts: Counts = { created: 0, updated: 0, unchanged: 0 };
      for (const prepared of pending) await writeOne(prepared, context, batchCounts);
      return batchCounts;
    });
    report.created += counts.created;
    report.updated += counts.updated;
    report.unchanged += counts.unchanged;
  };
  let lineNumber = 0;
  for await (const raw of lines) {
    lineNumber++;
    // A UTF-8 byte order mark before the first line (files saved by some editors) is not data.
    const text = lineNumber === 1 && raw.startsWith('\uFEFF') ? raw.slice(1) : raw;
    if (text.trim() === '') continue;
    try {
      const prepared = prepareLine(text, context, context.now(), report);
      await context.writer.prepare(prepared.item);
      batch.push(prepared);
    } catch (error) {
      const failure = toEngramError(error);
      report.invalid++;
      report.errors.push({ line: lineNumber, error: failure.code, message: failure.message });
    }
    if (batch.length >= IMPORT_BATCH) await flush();
  }
  await flush();
  return report;
}

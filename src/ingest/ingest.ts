/**
 * `ingest`: files become chunk items with provenance, deduplicated and governed. Each file's
 * writes — its new chunks, the archiving of its old ones (linked `supersedes`) and its SHA-256
 * record — are all or nothing (a savepoint of a batch's transaction, write-batch.ts), so an
 * interrupted run never leaves a half-ingested file recorded as done, and the next run picks it
 * up. An unchanged file (same SHA-256) writes nothing, except the `--tags` its chunks lack (status
 * `retagged`: they get them as a new version, through the policy).
 *
 * A chunk the policy refuses is cut into pieces at sections, paragraphs and lines (split-refused.ts)
 * and only the refused pieces are left out and reported (number, line range, rule ids — never
 * their text); the rest of the file is stored, its pieces numbered as its chunks, and the file is
 * `partial`. The policy also reads the whole text before anything is stored: a match only two
 * neighbouring chunks show together refuses both, one no pair accounts for refuses the file
 * (across-chunks.ts). Re-ingesting a directory archives the chunks of the files gone from it (`removed`,
 * see prune.ts).
 */
import { relative, sep } from 'node:path';
import { isEngramError } from '../errors.js';
import { type AdmissionHook, admitJudged, admitWrite } from '../items/admission.js';
import { createItem } from '../items/build-item.js';
import { redactSecrets } from '../policy/secret-spans.js';
import type { WriteAccess } from '../items/writer.js';
import { MAX_CONTENT_CHARS } from '../policy/rules.js';
import type { MemoryItem, Tier } from '../types.js';
import { sha256 } from '../util/hash.js';
import { newItemId } from '../util/ids.js';
import { type Chunk, chunkText } from './chunk.js';
import { ExtractError, extract } from './extract/index.js';
import { binaryReason, detectByName, type Family, kindName } from './formats.js';
import { LOOKAHEAD, Lookahead, type Planning } from './lookahead.js';
import { planChunks } from './plan-chunks.js';
import { createPolicyPool, ONE_TASK_CHARS, poolSize } from './policy-pool.js';
import { prejudge } from './prejudge.js';
import { pruneRemoved } from './prune.js';
import type { FileReport, FileStatus, IngestProgress, IngestReport } from './report.js';
import { readEntry, resolveSources, type SourceEntry } from './sources.js';
import { slug, titles, typeFromPath } from './titles.js';
import { createWriteBatch, failureReason, type FileWrite } from './write-batch.js';
import { adopt, type CorpusTarget, makeInjectable, retag, sameChunks } from './write-file.js';

export type { FileReport, FileStatus, IngestProgress, IngestReport, RefusedChunk } from './report.js';

export const DEFAULT_CHUNK_TOKENS = 1800;

/** The longest chunk, in characters, for a chunk size in tokens (never over the policy's size limit). */
export function chunkCharsFor(tokens: number = DEFAULT_CHUNK_TOKENS): number {
  return Math.min(tokens * 4, MAX_CONTENT_CHARS);
}

export interface IngestSettings {
  sources: readonly string[];
  cwd: string;
  /** Standard input, read only when a source is `-`. */
  readStdin?: () => Promise<Uint8Array>;
  include?: readonly string[];
  exclude?: readonly string[];
  /** Chunk budget in tokens (characters/4); the policy's 2,000-character limit caps it. */
  chunkTokens?: number;
  tags?: readonly string[];
  /** `auto` infers title, type and tags from path and content. */
  format?: 'text' | 'auto';
  injectable?: boolean;
  scope?: string;
  corpus?: string;
  tier?: Tier;
  dryRun?: boolean;
  /** False keeps the chunks of files gone from a re-ingested directory (default true). */
  prune?: boolean;
  /**
   * Archive the chunks of gone files before ingesting the others (`sync`): a renamed file then
   * gets chunks of its own, under its new path, instead of sharing those of its old name.
   */
  pruneFirst?: boolean;
  /** Follow symlinks out of the directory walked (default: skipped and reported). */
  followSymlinks?: boolean;
  onProgress?: (progress: IngestProgress) => void;
  /** Policy worker threads (default: one per core for an ingest of 512 KB or more; 0: none). */
  workers?: number;
}

export interface IngestContext extends WriteAccess {
  actor: string | null;
  now: () => string;
  admit?: AdmissionHook;
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

function lineRange(r: { line_start: number; line_end: number }): string {
  return `lines ${r.line_start}–${r.line_end}`;
}

/** Ingests the sources; every file gets a status, and one bad file never stops the run. */
export async function ingestSources(settings: IngestSettings, context: IngestContext): Promise<IngestReport> {
  const { store, writer } = context;
  const chunkChars = chunkCharsFor(settings.chunkTokens);
  const corpus = settings.corpus ?? '';
  const scope = settings.scope ?? 'project';
  const auto = settings.format === 'auto';
  const { cwd, include, exclude, followSymlinks } = settings;
  const { entries, roots } = resolveSources(settings.sources, { cwd, include, exclude, followSymlinks });
  const report: IngestReport = {
    dry_run: settings.dryRun === true,
    chunk_chars: chunkChars,
    files: [],
    totals: {
      files: 0, ingested: 0, unchanged: 0, retagged: 0, partial: 0, removed: 0, skipped: 0, failed: 0,
      chunks: 0, bytes: 0,
    },
    symlinks_outside: entries.flatMap((e) => (e.kind === 'problem' && e.skip === 'symlink-outside' ? [redactSecrets(e.display)] : [])),
  };
  const target: CorpusTarget = { store, writer, corpus, scope };
  const { actor, now, admit } = context;
  const retagging = { tags: settings.tags ?? [], actor, now, admit, dryRun: settings.dryRun };
  const batch = createWriteBatch(target);
  const progress = { files_done: 0, files_total: entries.length, bytes: 0, chunks: 0, current: '' };

  const prune = async () => {
    if (settings.prune === false) return;
    const present = new Set(entries.flatMap((e) => (e.kind === 'file' ? [e.path] : [])));
    const dryRun = settings.dryRun === true;
    (await pruneRemoved({ store, writer, now: context.now, cwd, corpus, scope, roots, present, dryRun })).forEach(add);
  };
  if (settings.pruneFirst === true) await prune();
  // With policy workers, the next files are read, chunked and judged while a file is written.
  const bytes = entries.reduce((n, e) => n + (e.kind === 'file' ? e.size : 0), 0);
  const pool = createPolicyPool(poolSize(bytes, settings.workers));
  const ahead = new Lookahead(pool.workers > 0 ? LOOKAHEAD : { files: 1, bytes: 0 });
  try {
    for (const entry of entries) {
      // The same file named twice (or standard input): what was planned before it is written first.
      if (entry.kind !== 'problem' && ahead.has(entry)) while (ahead.size > 0) await settle(ahead.next());
      while (ahead.full()) await settle(ahead.next());
      // A file name is shown in the report and progress: a secret in it is masked there.
      const shown = redactSecrets(entry.display);
      progress.current = shown;
      settings.onProgress?.({ ...progress });
      const file: FileReport = { path: shown, status: 'failed', chunks: 0, deduplicated: 0, archived: 0, bytes: 0 };
      ahead.push(entry, file, planOne(entry, file).then((job) => ({ job }), (error: unknown) => ({ error })));
    }
    while (ahead.size > 0) await settle(ahead.next());
  } finally {
    await ahead.drain();
    await pool.close();
  }
  await batch.flush();
  if (settings.pruneFirst !== true) await prune();
  settings.onProgress?.({ ...progress, current: '' });
  // Totals last: a batched file's status is known once its batch is written.
  for (const file of report.files) {
    report.totals.files++;
    report.totals[file.status]++;
    report.totals.chunks += file.chunks;
    report.totals.bytes += file.bytes;
  }
  return report;

  function add(file: FileReport): void {
    report.files.push(file);
  }

  /** A planned file, in order: its write joins the batch, its report the run's. */
  async function settle({ file, plan }: Planning): Promise<void> {
    const planned = await plan;
    try {
      if ('error' in planned) throw planned.error;
      if (planned.job !== undefined) await batch.add(planned.job);
    } catch (error) {
      file.status = 'failed';
      file.reason = error instanceof ExtractError ? error.message : failureReason(error);
      if (isStoreFailure(error)) throw error;
    }
    report.files.push(file);
    progress.files_done++;
    progress.bytes += file.bytes;
    progress.chunks += file.chunks;
  }

  /** Reads, chunks and judges one file; returns its write for the batch, or undefined when it has none. */
  async function planOne(entry: SourceEntry, file: FileReport): Promise<FileWrite | undefined> {
    if (entry.kind === 'problem' && entry.skip !== undefined) {
      Object.assign(file, { status: 'skipped', reason: entry.reason });
      return;
    }
    const detected = entry.kind === 'stdin' ? { family: 'text' as Family, ext: '' } : detectByName(entry.display);
    if (detected !== undefined && 'skip' in detected) {
      Object.assign(file, { status: 'skipped', reason: detected.skip });
      return;
    }
    const bytes = await readEntry(entry, settings.readStdin);
    file.bytes = bytes.length;
    if (bytes.length === 0) {
      Object.assign(file, { status: 'skipped', reason: 'empty file' });
      return;
    }
    const family = detected?.family ?? 'text';
    const binary = family === 'text' || family === 'code' || family === 'markup' ? binaryReason(bytes) : undefined;
    if (binary !== undefined) {
      Object.assign(file, { status: 'skipped', reason: 'binary content', note: binary });
      return;
    }
    const fileHash = sha256(bytes);
    const key = entry.kind === 'file' ? entry.path : `stdin:${fileHash}`;
    // The same file named twice: its first write must be stored before its record is read again.
    if (batch.holds(key)) await batch.flush();
    const previous = await store.corpus.get(corpus, key);
    if (previous?.sha256 === fileHash && entry.kind === 'file' && entry.walked && !settings.dryRun) await adopt(target, previous, entry.root);
    if (previous?.sha256 === fileHash && previous.refused === 0) {
      file.status = 'unchanged';
      file.chunks = previous.item_ids.length;
      if (settings.injectable && !settings.dryRun) await makeInjectable(target, previous.item_ids, file, context.now);
      if (await retag(target, previous.item_ids, file, retagging) > 0) file.status = 'retagged';
      return;
    }
    const extracted = await extract(family, detected?.ext ?? '', bytes);
    if (extracted.note) file.note = extracted.note;
    // With workers, the whole text's secret spans (the longest judgement) are found while it is chunked.
    const spans = pool.workers > 0 && extracted.text.length > ONE_TASK_CHARS ? pool.spans(extracted.text) : undefined;
    spans?.catch(() => undefined);
    const chunks = chunkText(extracted.text, { maxChars: chunkChars, code: family === 'code' });
    if (chunks.length === 0) {
      Object.assign(file, { status: 'skipped', reason: 'no text to ingest' });
      return;
    }
    const kind = kindName(family, detected?.ext ?? '');
    const display = entry.display === '-' ? '<stdin>' : entry.display;
    // Where the chunk comes from, relative to the directory it was ingested from (recall shows it).
    const origin = entry.kind === 'file'
      ? { relative_path: toPosix(relative(entry.root, entry.path)), ingest_root: toPosix(relative(cwd, entry.root)) || '.' }
      : {};
    const autoTags = auto ? [kind, ...(display.includes('/') ? [slug(display.split('/')[0] ?? '')] : [])] : [];
    const at = context.now();
    const build = (chunk: Chunk, title: string | undefined, index: number, count: number) => createItem(newItemId(), {
      content: chunk.content,
      title,
      type: auto ? typeFromPath(display) : 'note',
      tier: settings.tier ?? 'stm',
      scope,
      ...(settings.corpus === undefined ? {} : { corpus_id: settings.corpus }),
      tags: [...(settings.tags ?? []), ...autoTags].filter((t) => t !== ''),
      source: display,
      provenance: {
        source_path: display,
        ...origin,
        source_kind: kind,
        format: family,
        line_start: chunk.line_start,
        line_end: chunk.line_end,
        file_sha256: fileHash,
        chunk_sha256: sha256(chunk.content),
        chunk_index: index,
        chunk_count: count,
      },
      injectable: settings.injectable === true,
    }, at);
    const fileTitles = (parts: readonly Chunk[]) => titles(display, parts, extracted, auto);
    const input = { text: extracted.text, chunks, build, titles: fileTitles };
    const judged = pool.workers > 0 ? await prejudge(pool, input, spans) : undefined;
    const admit = (item: MemoryItem) => {
      const verdict = judged?.verdictOf(item);
      const admission = { operation: 'ingest' as const, actor: context.actor, now: at };
      // A verdict judged ahead on a worker is the one admitWrite would reach here.
      if (verdict === undefined) return admitWrite(item, admission, context.admit);
      return admitJudged(item, admission, () => verdict, context.admit);
    };
    const { planned, refused, units } = planChunks({ ...input, ...judged, admit });
    if (refused.length > 0) {
      file.refused = refused;
      const which = refused.map((r) => `chunk ${r.chunk} (${lineRange(r)}): ${r.rules.join(', ')}`).join('; ');
      if (planned.length === 0) throw new ExtractError(`POLICY_REJECTED: ${which}; nothing from this file was stored`);
      file.reason = `POLICY_REJECTED: ${refused.length} of ${units} chunks refused: ${which}`;
    }
    const status: FileStatus = refused.length > 0 ? 'partial' : 'ingested';
    file.chunks = planned.length;
    if (settings.dryRun) {
      file.status = status;
      return;
    }
    if (previous?.sha256 === fileHash && await sameChunks(target, previous.item_ids, planned)) {
      // A partial file met again: the same chunks are stored and the same ones refused.
      file.status = status;
      if (settings.injectable) await makeInjectable(target, previous.item_ids, file, context.now);
      await retag(target, previous.item_ids, file, retagging); // said in the note; the file stays partial
      return;
    }
    await writer.prepare(...planned.map((p) => p.item));
    const oldIds = previous?.item_ids ?? [];
    const record = { key, fileHash, size: bytes.length, root: entry.kind === 'file' && entry.walked ? entry.root : null, refused: refused.length };
    return { file, status, record, planned, oldIds, at };
  }
}

function isStoreFailure(error: unknown): boolean {
  return isEngramError(error) && (error.code === 'DB_BUSY' || error.code === 'DB_ERROR');
}

/**
 * `ingest`: files become chunk items with provenance, deduplicated and governed. Each file is one
 * transaction — its new chunks, the archiving of its old ones (linked `supersedes`) and its
 * SHA-256 record — so an interrupted run never leaves a half-ingested file recorded as done, and
 * the next run picks it up. An unchanged file (same SHA-256) writes nothing.
 *
 * A chunk the policy refuses is cut into pieces at sections, paragraphs and lines (split-refused.ts)
 * and only the refused pieces are left out and reported (number, line range, rule ids — never
 * their text); the rest of the file is stored, its pieces numbered as its chunks, and the file is
 * `partial`. The policy also reads the whole text before anything is stored: a match only two
 * neighbouring chunks show together refuses both, one no pair accounts for refuses the file
 * (across-chunks.ts). Re-ingesting a directory archives the chunks of the files gone from it (`removed`,
 * see prune.ts).
 */
import { readFile } from 'node:fs/promises';
import { basename, relative, sep } from 'node:path';
import { isEngramError } from '../errors.js';
import { type Admission, type AdmissionHook, admitWrite, rejectedRules } from '../items/admission.js';
import { createItem, nextVersion } from '../items/build-item.js';
import { redactSecrets } from '../items/field-policy.js';
import { policyDetails, recordWrite } from '../items/journal.js';
import { evaluatePolicy } from '../policy/evaluate.js';
import { MAX_CONTENT_CHARS } from '../policy/rules.js';
import { type SecretSpan, secretSpans } from '../policy/secret-spans.js';
import { indexText, prepareIndexing } from '../search/index-text.js';
import type { CorpusFile, Store } from '../store/store.js';
import type { ItemType, MemoryItem, Tier } from '../types.js';
import { sha256 } from '../util/hash.js';
import { newItemId } from '../util/ids.js';
import { type JudgedRange, refusedAcrossChunks } from './across-chunks.js';
import { type Chunk, chunkText } from './chunk.js';
import { type Extracted, ExtractError, extract } from './extract/index.js';
import { binaryReason, detectByName, type Family, kindName, MAX_FILE_BYTES } from './formats.js';
import { pruneRemoved } from './prune.js';
import { splitRefused } from './split-refused.js';
import { resolveSources, type SourceEntry } from './sources.js';

export const DEFAULT_CHUNK_TOKENS = 1800;

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
  /** Follow symlinks out of the directory walked (default: skipped and reported). */
  followSymlinks?: boolean;
  onProgress?: (progress: IngestProgress) => void;
}

export interface IngestProgress {
  files_done: number;
  files_total: number;
  bytes: number;
  chunks: number;
  current: string;
}

/**
 * `partial`: some chunks stored, some refused by the policy; `removed`: the file is gone from the
 * re-ingested directory and its chunks were archived.
 */
export type FileStatus = 'ingested' | 'unchanged' | 'partial' | 'removed' | 'skipped' | 'failed';

/** A chunk the policy refused: where it is and which rules refused it; its text is kept nowhere. */
export interface RefusedChunk {
  chunk: number;
  line_start: number;
  line_end: number;
  rules: string[];
}

export interface FileReport {
  path: string;
  status: FileStatus;
  reason?: string;
  note?: string;
  /** Chunks the policy refused (status `partial`, or `failed` when every chunk was refused). */
  refused?: RefusedChunk[];
  /** Chunks the file has now (new items plus identical chunks already stored). */
  chunks: number;
  /** Of those, chunks whose identical content was already stored. */
  deduplicated: number;
  /** Old chunk items archived because the file changed or is gone. */
  archived: number;
  bytes: number;
}

export interface IngestReport {
  dry_run: boolean;
  chunk_chars: number;
  files: FileReport[];
  totals: Record<FileStatus, number> & { files: number; chunks: number; bytes: number };
  /** Symlinks not followed because their target is outside the directory walked (also in `files`, skipped). */
  symlinks_outside: string[];
}

export interface IngestContext {
  store: Store;
  actor: string | null;
  now: () => string;
  admit?: AdmissionHook;
}

/** A chunk as judged, or a piece of a refused one: `start` is its offset in the text. */
interface Unit {
  chunk: Chunk;
  /** The chunk it is or was cut from. */
  index: number;
  start: number;
  /** The admission of a whole chunk, and the title it was admitted with. */
  admitted?: { admission: Admission; title: string | undefined };
  refused?: string[];
}

interface Verdict {
  admitted?: Admission;
  rules: string[];
}

interface Planned {
  item: MemoryItem;
  chunk: Chunk;
  rules: ReturnType<typeof policyDetails>;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '');
}

/** mem-context / RAGIX `--format auto`: the type a path suggests. */
function typeFromPath(path: string): ItemType {
  const p = path.toLowerCase();
  if (/(^|[/_-])(adrs?|decisions?)([/_.-]|$)/.test(p)) return 'decision';
  if (/(^|[/_-])(todos?|backlog)([/_.-]|$)/.test(p)) return 'todo';
  if (/(^|[/_-])(glossary|definitions?|terminology)([/_.-]|$)/.test(p)) return 'definition';
  if (/(^|[/_-])(constraints?|requirements?|rules)([/_.-]|$)/.test(p)) return 'constraint';
  if (/(^|[/_-])(patterns?|conventions?|guidelines?|style-?guide)([/_.-]|$)/.test(p)) return 'pattern';
  return 'note';
}

const HEADING = /^(?:#{1,6}[ \t]+(.+?)[ \t#]*|(.+)\n(?:=+|-+))$/gm;

/** The last Markdown heading in `text` (ATX or setext). */
function lastHeading(text: string): string | undefined {
  let found: string | undefined;
  for (const m of text.matchAll(HEADING)) found = (m[1] ?? m[2])?.trim();
  return found;
}

function titles(display: string, chunks: readonly Chunk[], extracted: Extracted, auto: boolean): string[] {
  const name = basename(display);
  const part = (i: number) => (chunks.length > 1 ? ` (${i + 1}/${chunks.length})` : '');
  if (!auto) return chunks.map((_, i) => `${name}${part(i)}`);
  let section = extracted.title;
  return chunks.map((chunk, i) => {
    const first = /^\s*#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(chunk.content.slice(0, 300))?.[1]?.trim();
    const title = first ?? section ?? name;
    section = lastHeading(chunk.content) ?? section;
    return `${title}${first === undefined && title !== name ? ` — ${name}` : ''}${part(i)}`;
  });
}

/** What the corpus record of a written file says besides its chunks. */
interface FileRecord {
  key: string;
  fileHash: string;
  size: number;
  root: string | null;
  refused: number;
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

function lineRange(r: { line_start: number; line_end: number }): string {
  return `lines ${r.line_start}–${r.line_end}`;
}

/** Where each chunk starts in the text (chunks are consecutive slices; only whitespace can fall between). */
function chunkStarts(text: string, chunks: readonly Chunk[]): number[] {
  let cursor = 0;
  return chunks.map((chunk) => {
    const found = text.indexOf(chunk.content, cursor);
    const start = found < 0 ? cursor : found;
    cursor = start + chunk.content.length;
    return start;
  });
}

/**
 * The secret rules whose match in the whole text reaches the non-blank part of [start, end): a key
 * block longer than a chunk or a piece is refused wherever it reaches, not only where its header is.
 */
function secretsReaching(spans: readonly SecretSpan[], text: string, start: number, end: number): string[] {
  const slice = text.slice(start, end);
  const from = start + (slice.length - slice.trimStart().length);
  const to = end - (slice.length - slice.trimEnd().length);
  return [...new Set(spans.filter((s) => s.start < to && s.end > from).map((s) => s.rule))];
}

/** The rejecting rules the policy finds in `text`, whatever its length. */
function rejectingRules(text: string): string[] {
  return evaluatePolicy({ content: text }, { ignoreSize: true }).matches.filter((m) => m.action === 'reject').map((m) => m.rule);
}

function overlaps(a: { line_start: number; line_end: number }, b: Record<string, unknown> | null): boolean {
  const start = Number(b?.line_start);
  const end = Number(b?.line_end);
  return Number.isFinite(start) && Number.isFinite(end) && a.line_start <= end && start <= a.line_end;
}

async function readEntry(entry: SourceEntry, settings: IngestSettings): Promise<Uint8Array> {
  if (entry.kind === 'stdin') {
    if (settings.readStdin === undefined) throw new ExtractError('no standard input');
    return settings.readStdin();
  }
  if (entry.kind !== 'file') throw new ExtractError(entry.reason);
  if (entry.size > MAX_FILE_BYTES) throw new ExtractError('larger than 256 MB');
  try {
    return await readFile(entry.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ExtractError(code === 'EACCES' || code === 'EPERM' ? 'permission denied' : `cannot read (${code ?? 'error'})`);
  }
}

/** Ingests the sources; every file gets a status, and one bad file never stops the run. */
export async function ingestSources(settings: IngestSettings, context: IngestContext): Promise<IngestReport> {
  const { store } = context;
  const chunkChars = Math.min((settings.chunkTokens ?? DEFAULT_CHUNK_TOKENS) * 4, MAX_CONTENT_CHARS);
  const corpus = settings.corpus ?? '';
  const scope = settings.scope ?? 'project';
  const auto = settings.format === 'auto';
  const { cwd, include, exclude, followSymlinks } = settings;
  const { entries, roots } = resolveSources(settings.sources, { cwd, include, exclude, followSymlinks });
  const report: IngestReport = {
    dry_run: settings.dryRun === true,
    chunk_chars: chunkChars,
    files: [],
    totals: { files: 0, ingested: 0, unchanged: 0, partial: 0, removed: 0, skipped: 0, failed: 0, chunks: 0, bytes: 0 },
    symlinks_outside: entries.flatMap((e) => (e.kind === 'problem' && e.skip === 'symlink-outside' ? [redactSecrets(e.display)] : [])),
  };
  const progress = { files_done: 0, files_total: entries.length, bytes: 0, chunks: 0, current: '' };

  for (const entry of entries) {
    // A file name is shown in the report and progress: a secret in it is masked there.
    const shown = redactSecrets(entry.display);
    progress.current = shown;
    settings.onProgress?.({ ...progress });
    const file: FileReport = { path: shown, status: 'failed', chunks: 0, deduplicated: 0, archived: 0, bytes: 0 };
    try {
      await ingestOne(entry, file);
    } catch (error) {
      file.status = 'failed';
      file.reason = error instanceof ExtractError
        ? error.message
        : isEngramError(error)
          ? `${error.code}: ${error.message}`
          : `unexpected error (${(error as Error).message})`;
      if (isEngramError(error) && (error.code === 'DB_BUSY' || error.code === 'DB_ERROR')) throw error;
    }
    add(file);
    progress.files_done++;
    progress.bytes += file.bytes;
    progress.chunks += file.chunks;
  }
  if (settings.prune !== false) {
    const present = new Set(entries.flatMap((e) => (e.kind === 'file' ? [e.path] : [])));
    const { actor, now } = context;
    const dryRun = settings.dryRun === true;
    pruneRemoved({ store, actor, now, cwd, corpus, scope, roots, present, dryRun }).forEach(add);
  }
  settings.onProgress?.({ ...progress, current: '' });
  return report;

  function add(file: FileReport): void {
    report.files.push(file);
    report.totals.files++;
    report.totals[file.status]++;
    report.totals.chunks += file.chunks;
    report.totals.bytes += file.bytes;
  }

  async function ingestOne(entry: SourceEntry, file: FileReport): Promise<void> {
    if (entry.kind === 'problem' && entry.skip !== undefined) {
      Object.assign(file, { status: 'skipped', reason: entry.reason });
      return;
    }
    const detected = entry.kind === 'stdin' ? { family: 'text' as Family, ext: '' } : detectByName(entry.display);
    if (detected !== undefined && 'skip' in detected) {
      Object.assign(file, { status: 'skipped', reason: detected.skip });
      return;
    }
    const bytes = await readEntry(entry, settings);
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
    const previous = store.getCorpusFile(corpus, key);
    if (previous?.sha256 === fileHash && entry.kind === 'file' && entry.walked && !settings.dryRun) adopt(previous, entry.root);
    if (previous?.sha256 === fileHash && previous.refused === 0) {
      file.status = 'unchanged';
      file.chunks = previous.item_ids.length;
      if (settings.injectable && !settings.dryRun) makeInjectable(previous.item_ids, file);
      return;
    }
    const extracted = await extract(family, detected?.ext ?? '', bytes);
    if (extracted.note) file.note = extracted.note;
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
    const spans = secretSpans(extracted.text);
    /** The admitted item, or the rules refusing it (policy and secrets of the whole text reaching it). */
    const judge = (item: MemoryItem, start: number, end: number, near: readonly SecretSpan[] = spans): Verdict => {
      let admitted: Admission | undefined;
      let rejected: string[] = [];
      try {
        admitted = admitWrite(item, { operation: 'ingest', actor: context.actor, now: at }, context.admit);
      } catch (error) {
        const rules = isEngramError(error) ? rejectedRules(error) : undefined;
        if (rules === undefined) throw error;
        rejected = rules;
      }
      const rules = [...new Set([...rejected, ...secretsReaching(near, extracted.text, start, end)])];
      return admitted !== undefined && rules.length === 0 ? { admitted, rules } : { rules };
    };

    // Each chunk is judged; a refused one is cut into pieces, so that one secret costs its lines
    // only. The file's chunks are then the kept and refused pieces, numbered and titled in order.
    const chunkTitles = titles(display, chunks, extracted, auto);
    const starts = chunkStarts(extracted.text, chunks);
    const units: Unit[] = [];
    const ranges: JudgedRange[] = [];
    for (const [i, chunk] of chunks.entries()) {
      const start = starts[i] ?? 0;
      const title = chunkTitles[i];
      const whole = judge(build(chunk, title, i + 1, chunks.length), start, start + chunk.content.length);
      ranges.push({ start, end: start + chunk.content.length, rules: whole.admitted === undefined ? whole.rules : [] });
      if (whole.admitted !== undefined) {
        units.push({ chunk, index: i, start, admitted: { admission: whole.admitted, title } });
        continue;
      }
      // A piece is judged against the secrets that reach its chunk (a file can have thousands).
      const near = spans.filter((s) => s.start < start + chunk.content.length && s.end > start);
      const pieces = splitRefused(chunk, whole.rules, (piece, from, to) => {
        const verdict = judge(build(piece, title, i + 1, chunks.length), start + from, start + to, near);
        return verdict.admitted === undefined ? verdict.rules : undefined;
      });
      for (const p of pieces) {
        const unit = { line_start: p.line_start, line_end: p.line_end, content: p.content };
        units.push({ chunk: unit, index: i, start: start + p.start, ...(p.refused ? { refused: p.refused } : {}) });
      }
    }
    // The policy reads the whole text too: a match only two chunks together show refuses both, one
    // it cannot place refuses the file (across-chunks.ts).
    if (chunks.length > 1) {
      const across = refusedAcrossChunks(extracted.text, ranges, rejectingRules);
      if (across.unplaced.length > 0) {
        throw new ExtractError(`POLICY_REJECTED: ${across.unplaced.join(', ')} across chunks of the file; nothing from this file was stored`);
      }
      for (const unit of units) {
        const extra = across.refuse.get(unit.index);
        if (extra === undefined) continue;
        unit.refused = [...new Set([...(unit.refused ?? []), ...extra])];
        unit.admitted = undefined;
      }
    }
    // Pieces renumber the file, and titles come from stored text only (a heading in a refused piece
    // names nothing): a kept unit whose number or title changed is built and admitted again.
    const renumbered = units.length !== chunks.length;
    const unitTitles = titles(display, units.map((u) => (u.refused ? { ...u.chunk, content: '' } : u.chunk)), extracted, auto);
    const planned: Planned[] = [];
    const refused: RefusedChunk[] = [];
    for (const [i, unit] of units.entries()) {
      const { chunk, start } = unit;
      let verdict: Verdict = { admitted: unit.admitted?.admission, rules: unit.refused ?? [] };
      if (unit.refused === undefined && (renumbered || unit.admitted?.title !== unitTitles[i])) {
        verdict = judge(build(chunk, unitTitles[i], i + 1, units.length), start, start + chunk.content.length);
      }
      if (verdict.admitted !== undefined) {
        planned.push({ item: verdict.admitted.item, chunk, rules: policyDetails(verdict.admitted.policy) });
      } else {
        refused.push({ chunk: i + 1, line_start: chunk.line_start, line_end: chunk.line_end, rules: verdict.rules });
      }
    }
    if (refused.length > 0) {
      file.refused = refused;
      const which = refused.map((r) => `chunk ${r.chunk} (${lineRange(r)}): ${r.rules.join(', ')}`).join('; ');
      if (planned.length === 0) throw new ExtractError(`POLICY_REJECTED: ${which}; nothing from this file was stored`);
      file.reason = `POLICY_REJECTED: ${refused.length} of ${units.length} chunks refused: ${which}`;
    }
    const status: FileStatus = refused.length > 0 ? 'partial' : 'ingested';
    file.chunks = planned.length;
    if (settings.dryRun) {
      file.status = status;
      return;
    }
    if (previous?.sha256 === fileHash && sameChunks(previous.item_ids, planned)) {
      // A partial file met again: the same chunks are stored and the same ones refused.
      file.status = status;
      if (settings.injectable) makeInjectable(previous.item_ids, file);
      return;
    }
    for (const p of planned) await prepareIndexing(p.item);
    const oldIds = previous?.item_ids ?? [];
    const record = { key, fileHash, size: bytes.length, root: entry.kind === 'file' && entry.walked ? entry.root : null, refused: refused.length };
    const written = store.transaction(() => writeFile(record, planned, oldIds, at));
    Object.assign(file, { status, ...written.counts });
  }

  /**
   * An unchanged file found by walking `root` belongs to it from now on (so does a file recorded
   * before roots were kept, with the scope its chunks are in): a later re-ingest of `root` prunes it.
   */
  function adopt(record: CorpusFile, root: string): void {
    if (record.root === root && record.scope !== null) return;
    const first = record.item_ids[0] === undefined ? undefined : store.getItem(record.item_ids[0]);
    const recordScope = record.scope ?? first?.scope ?? scope;
    store.transaction(() => store.setCorpusRoot(corpus, record.path, root, recordScope));
  }

  /** True when `ids` are live items holding exactly the planned chunks, in order. */
  function sameChunks(ids: readonly string[], planned: readonly Planned[]): boolean {
    return ids.length === planned.length && ids.every((id, i) => {
      const item = store.getItem(id);
      return item !== undefined && !item.archived && item.content_hash === planned[i]?.item.content_hash;
    });
  }

  function writeFile(
    { key, fileHash, size, root, refused }: FileRecord,
    planned: readonly Planned[],
    oldIds: readonly string[],
    at: string,
  ): { ids: string[]; counts: Pick<FileReport, 'deduplicated' | 'archived'> } {
    // Old chunks go first, so that the new ones carry this version's provenance.
    const archived: MemoryItem[] = [];
    for (const id of new Set(oldIds)) {
      const old = store.getItem(id);
      if (old === undefined || old.archived || store.isChunkShared(id, corpus, key)) continue;
      const item = nextVersion(old, { ...old, archived: true }, at);
      store.updateItem(item);
      recordWrite(store, context.actor, item, 'archive', { reason: 'superseded by re-ingest', source: old.source });
      archived.push(old);
    }
    const ids: string[] = [];
    let deduplicated = 0;
    for (const { item, chunk, rules } of planned) {
      const existing = store.findByContentHash(item.content_hash, item.scope);
      if (existing !== undefined) {
        ids.push(existing.id);
        deduplicated++;
        continue;
      }
      store.insertItem(item, indexText(item));
      recordWrite(store, context.actor, item, 'ingest', { source: item.source, ...rules });
      ids.push(item.id);
      for (const old of archived) {
        if (overlaps(chunk, old.provenance)) store.addLink({ src_id: item.id, dst_id: old.id, type: 'supersedes', created_at: at });
      }
    }
    // An old chunk that no new range overlaps (the file shrank) is superseded by the last new chunk.
    const last = ids[ids.length - 1];
    for (const old of archived) {
      const linked = planned.some((p) => overlaps(p.chunk, old.provenance));
      if (!linked && last !== undefined && last !== old.id) {
        store.addLink({ src_id: last, dst_id: old.id, type: 'supersedes', created_at: at });
      }
    }
    store.putCorpusFile({
      corpus_id: corpus,
      path: key,
      sha256: fileHash,
      size_bytes: size,
      ingested_at: at,
      item_ids: ids,
      root,
      scope,
      refused,
    });
    return { ids, counts: { deduplicated, archived: archived.length } };
  }

  /** `push --source` wants its chunks in recall: an unchanged file's chunks become injectable. */
  function makeInjectable(ids: readonly string[], file: FileReport): void {
    const changed = store.transaction(() => {
      let count = 0;
      const at = context.now();
      for (const id of new Set(ids)) {
        const item = store.getItem(id);
        if (item === undefined || item.injectable || item.quarantined || item.archived) continue;
        const next = nextVersion(item, { ...item, injectable: true }, at);
        store.updateItem(next);
        recordWrite(store, context.actor, next, 'update', { reason: 'made injectable by push --source' });
        count++;
      }
      return count;
    });
    if (changed > 0) file.note = `${changed} chunk${changed === 1 ? '' : 's'} made injectable`;
  }
}

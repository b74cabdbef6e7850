/**
 * Which chunks of a file are stored and which the policy refuses. Each chunk is judged (the
 * policy, and the secrets of the whole text reaching it); a refused one is cut into pieces at
 * sections, paragraphs and lines (split-refused.ts) so that one secret costs its lines only. The
 * policy also reads the whole text: a match only two neighbouring chunks show together refuses
 * both, one no pair accounts for refuses the file (across-chunks.ts). The kept and refused pieces
 * are then the file's chunks, numbered and titled in order.
 */
import { isEngramError } from '../errors.js';
import { type Admission, rejectedRules } from '../items/admission.js';
import { policyDetails } from '../items/journal.js';
import { type SecretSpan, secretSpans } from '../policy/secret-spans.js';
import type { MemoryItem } from '../types.js';
import { type JudgedRange, refusedAcrossChunks, type TextJudge } from './across-chunks.js';
import type { Chunk } from './chunk.js';
import { ExtractError } from './extract/index.js';
import { rejectingRules } from './policy-tasks.js';
import type { RefusedChunk } from './report.js';
import { splitRefused } from './split-refused.js';

/** A chunk to store: its admitted item and the policy details its event records. */
export interface Planned {
  item: MemoryItem;
  chunk: Chunk;
  rules: ReturnType<typeof policyDetails>;
}

export interface ChunkPlanInput {
  /** The file's whole extracted text. */
  text: string;
  chunks: readonly Chunk[];
  /** The item of a chunk: its title, its 1-based number and the file's chunk count. */
  build: (chunk: Chunk, title: string | undefined, index: number, count: number) => MemoryItem;
  /** The title of each chunk (from stored text only). */
  titles: (chunks: readonly Chunk[]) => string[];
  /** Admits an item through the write policy; throws POLICY_REJECTED to refuse it. */
  admit: (item: MemoryItem) => Admission;
  /** The secret spans of `text` when already found (`secretSpans(text)`). */
  spans?: readonly SecretSpan[];
  /** The rejecting rules of a text (default: the policy's, `rejectingRules`); a cache of it may be given. */
  judgeText?: TextJudge;
}

export interface ChunkPlan {
  planned: Planned[];
  refused: RefusedChunk[];
  /** The file's chunks after cutting: kept and refused. */
  units: number;
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

/** Where each chunk starts in the text (chunks are consecutive slices; only whitespace can fall between). */
export function chunkStarts(text: string, chunks: readonly Chunk[]): number[] {
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

/** The chunks of a file to store and those refused, with the rules refusing them. */
export function planChunks({ text, chunks, build, titles, admit, ...given }: ChunkPlanInput): ChunkPlan {
  const spans = given.spans ?? secretSpans(text);
  /** The admitted item, or the rules refusing it (policy and secrets of the whole text reaching it). */
  const judge = (item: MemoryItem, start: number, end: number, near: readonly SecretSpan[] = spans): Verdict => {
    let admitted: Admission | undefined;
    let rejected: string[] = [];
    try {
      admitted = admit(item);
    } catch (error) {
      const rules = isEngramError(error) ? rejectedRules(error) : undefined;
      if (rules === undefined) throw error;
      rejected = rules;
    }
    const rules = [...new Set([...rejected, ...secretsReaching(near, text, start, end)])];
    return admitted !== undefined && rules.length === 0 ? { admitted, rules } : { rules };
  };

  // Each chunk is judged; a refused one is cut into pieces, so that one secret costs its lines
  // only. The file's chunks are then the kept and refused pieces, numbered and titled in order.
  const chunkTitles = titles(chunks);
  const starts = chunkStarts(text, chunks);
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
    const across = refusedAcrossChunks(text, ranges, given.judgeText ?? rejectingRules);
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
  const unitTitles = titles(units.map((u) => (u.refused ? { ...u.chunk, content: '' } : u.chunk)));
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
  return { planned, refused, units: units.length };
}

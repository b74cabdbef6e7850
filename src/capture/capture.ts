/**
 * `capture`: a client's session transcript into memory, deterministically. Each turn becomes an
 * STM episode (request, tools by name and output size, final answer; see `episode.ts`) at the
 * turn's logical address, written on its own through the policy (one refused turn never stops the
 * others); the memory proposals the assistant wrote go through `put` like `pull`'s. The capture
 * ledger holds each turn's hash: capturing a session again writes nothing, and a session that grew
 * adds its new turns only. Cheap to call after every turn of a live session (a hook): the turns
 * already captured cost a hash and a lookup.
 */
import { basename, resolve } from 'node:path';
import { z } from 'zod';
import type { OperationContext } from '../context.js';
import { parseInput } from '../items/parse-input.js';
import { textSchema } from '../items/schemas.js';
import { sha256 } from '../util/hash.js';
import { renderEpisode } from './episode.js';
import { readTranscript } from './read-transcript.js';
import { type CaptureReport, emptyReport } from './report.js';
import { type Transcript, TRANSCRIPT_FORMATS, type Turn } from './transcript.js';
import { writeProposals } from './write-proposals.js';
import { CAPTURE_CORPUS, type CapturedSession, ledgerPath, type PlannedTurn, writeTurn } from './write-turn.js';

/** Turns written per transaction (each turn a savepoint of its own inside it). */
const BATCH_TURNS = 100;
const SAFE_ID = /^[\w.:@-]{1,128}$/;

export const captureInputSchema = z.strictObject({
  /** The transcript file (relative to `cwd`). */
  file: z.string().min(1).max(4096),
  /** The client that wrote it; `auto` (the default) tells from its first entries. */
  format: z.enum([...TRANSCRIPT_FORMATS, 'auto']).optional(),
  /** Scope of the session's items (default `project`). */
  scope: textSchema.min(1).optional(),
  /** Where a relative `file` is found. */
  cwd: z.string().optional(),
});

export type CaptureInput = z.input<typeof captureInputSchema>;

/** The session's id as its items record it: the transcript's own, else the file's name; hashed when not a plain id. */
function sessionId(transcript: Transcript, path: string): string {
  const raw = transcript.session_id ?? basename(path).replace(/\.jsonl?$/i, '');
  return SAFE_ID.test(raw) ? raw : `sha256-${sha256(raw).slice(0, 16)}`;
}

async function captureBatch(
  ctx: OperationContext,
  session: CapturedSession,
  turns: readonly Turn[],
  report: CaptureReport,
): Promise<void> {
  const planned: PlannedTurn[] = [];
  for (const turn of turns) {
    const episode = renderEpisode(turn, session.client);
    const path = ledgerPath(session, turn.number);
    const previous = await ctx.store.corpus.get(CAPTURE_CORPUS, path);
    if (previous?.sha256 === episode.hash) report.duplicates++;
    else planned.push({ turn, episode, path, previous });
  }
  if (planned.length === 0) return;
  // Proposals first, each on its own (put may compute a vector: never inside a transaction).
  for (const { turn } of planned) await writeProposals(ctx, session, turn, report);
  await ctx.writer.prepare(...planned.flatMap(({ episode }) => [episode.title, ...episode.parts]));
  await ctx.store.transaction(async () => {
    for (const turn of planned) await writeTurn(ctx, session, turn, report);
  });
}

/**
 * Captures the session transcript `input.file`.
 *
 * @example
 * const report = await capture(ctx, { file: 'session.jsonl', format: 'claude-code', cwd: '/work' });
 * console.log(report.stored, report.duplicates, report.refused);
 */
export async function capture(ctx: OperationContext, input: CaptureInput): Promise<CaptureReport> {
  const { file, format = 'auto', scope = 'project', cwd = '.' } = parseInput(captureInputSchema, input);
  const path = resolve(cwd, file);
  const transcript = await readTranscript(path, format);
  const session: CapturedSession = {
    client: transcript.format,
    session_id: sessionId(transcript, path),
    file: path,
    unit: transcript.unit,
    cwd: transcript.cwd,
    scope,
  };
  const report = emptyReport(path, transcript, session.session_id, scope);
  for (let i = 0; i < transcript.turns.length; i += BATCH_TURNS) {
    await captureBatch(ctx, session, transcript.turns.slice(i, i + BATCH_TURNS), report);
    // A turn for the event loop's timers between batches: a caller's time bound (the hooks') can
    // end the run here, with every batch before it committed.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return report;
}

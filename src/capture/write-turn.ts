/**
 * Writes one turn's episode through the governed write path, on its own: the policy reads the
 * request and answer whole first, then each part goes through `put`'s writer at the turn's logical
 * address, all parts in one savepoint (a refused part stores none). The capture ledger (the
 * corpus record `CLIENT/SESSION/turn-N` of {@link CAPTURE_CORPUS}) records the turn's hash and
 * items, refused or not, so that the same turn is never read twice; a turn that changed replaces
 * its parts and archives those it no longer has.
 */
import type { OperationContext } from '../context.js';
import { isEngramError } from '../errors.js';
import { policyRejected, rejectedRules } from '../items/admission.js';
import { redactSecrets } from '../policy/secret-spans.js';
import { parseInput } from '../items/parse-input.js';
import { putInputSchema, type PutInput } from '../items/schemas.js';
import { EPISODE_KEY, EPISODE_LAYER, episodeStep } from '../lifecycle/episodes.js';
import { evaluatePolicy } from '../policy/evaluate.js';
import { writeParsed } from '../put/put.js';
import type { CorpusFile } from '../store/store.js';
import type { Episode } from './episode.js';
import type { CaptureRefusal, CaptureReport } from './report.js';
import type { Transcript, Turn } from './transcript.js';

/** The corpus id of the capture ledger. */
export const CAPTURE_CORPUS = 'engram:capture';

/** The session a turn belongs to, as its items record it. */
export interface CapturedSession {
  client: Transcript['format'];
  session_id: string;
  /** The transcript's absolute path. */
  file: string;
  unit: Transcript['unit'];
  cwd: string | null;
  scope: string;
}

export interface PlannedTurn {
  turn: Turn;
  episode: Episode;
  /** The turn's ledger record path. */
  path: string;
  /** The ledger record of an earlier capture of this turn (its content has changed since). */
  previous: CorpusFile | undefined;
}

/** The ledger path of a turn. */
export function ledgerPath(session: Pick<CapturedSession, 'client' | 'session_id'>, turn: number): string {
  return `${session.client}/${session.session_id}/${episodeStep(turn)}`;
}

/** Where a captured item comes from: the client, the session, its file and the turn. */
export function turnProvenance(session: CapturedSession, turn: Turn) {
  return {
    source: 'capture',
    client: session.client,
    session_id: session.session_id,
    source_path: session.file,
    turn: turn.number,
  };
}

/** The refusal entry of an error; failures of the store itself are thrown on. */
export function refusalOf(error: unknown, turn: Turn, proposal?: number): CaptureRefusal {
  if (!isEngramError(error) || error.code === 'DB_BUSY' || error.code === 'DB_ERROR') throw error;
  const rules = rejectedRules(error);
  return {
    turn: turn.number,
    ...(proposal === undefined ? {} : { proposal }),
    range: [turn.start, turn.end],
    error: error.code,
    ...(rules ? { rules } : {}),
    reason: redactSecrets(error.message),
  };
}

function episodeInput(session: CapturedSession, planned: PlannedTurn, index: number): PutInput {
  const { turn, episode } = planned;
  const count = episode.parts.length;
  const unit = session.unit === 'line' ? 'line' : 'message';
  return {
    title: count > 1 ? `${episode.title} (${index + 1}/${count})` : episode.title,
    content: episode.parts[index] ?? '',
    type: 'note',
    tier: 'stm',
    layer: EPISODE_LAYER,
    key: EPISODE_KEY,
    task_id: `${session.client}:${session.session_id}`,
    step_id: episodeStep(turn.number, index + 1),
    scope: session.scope,
    tags: ['transcript', session.client],
    source: `${session.client}:${session.session_id}`,
    injectable: false,
    provenance: {
      ...turnProvenance(session, turn),
      [`${unit}_start`]: turn.start,
      [`${unit}_end`]: turn.end,
      ...(turn.started_at === null ? {} : { started_at: turn.started_at }),
      ...(turn.ended_at === null ? {} : { ended_at: turn.ended_at }),
      ...(session.cwd === null ? {} : { cwd: session.cwd }),
      part: index + 1,
      parts: count,
    },
  };
}

async function record(ctx: OperationContext, session: CapturedSession, planned: PlannedTurn, ids: string[]) {
  await ctx.store.corpus.put({
    corpus_id: CAPTURE_CORPUS,
    path: planned.path,
    sha256: planned.episode.hash,
    size_bytes: planned.episode.parts.reduce((sum, part) => sum + Buffer.byteLength(part, 'utf8'), 0),
    ingested_at: ctx.now(),
    item_ids: ids,
    root: null,
    scope: session.scope,
    refused: ids.length === 0 ? 1 : 0,
  });
}

/** Writes `planned`'s episode (call inside a transaction) and counts it in `report`. */
export async function writeTurn(
  ctx: OperationContext,
  session: CapturedSession,
  planned: PlannedTurn,
  report: CaptureReport,
): Promise<void> {
  const { turn, episode, previous } = planned;
  const verdict = evaluatePolicy({ content: episode.policyText }, { ignoreSize: true });
  let written: { ids: string[]; quarantined: boolean };
  try {
    if (verdict.verdict === 'reject') throw policyRejected(verdict);
    written = await ctx.store.transaction(async () => {
      const ids: string[] = [];
      let quarantined = false;
      for (const index of episode.parts.keys()) {
        const result = await writeParsed(ctx, parseInput(putInputSchema, episodeInput(session, planned, index)), 'capture');
        ids.push(result.item.id);
        quarantined ||= result.item.quarantined;
      }
      for (const old of previous?.item_ids ?? []) {
        const item = ids.includes(old) ? undefined : await ctx.store.items.get(old);
        if (item === undefined || item.archived) continue;
        await ctx.writer.archive(item, ctx.now(), 'archive', { reason: 'turn captured again' });
      }
      return { ids, quarantined };
    });
  } catch (error) {
    report.refusals.push(refusalOf(error, turn));
    report.refused++;
    await record(ctx, session, planned, []);
    return;
  }
  await record(ctx, session, planned, written.ids);
  if (previous === undefined) report.stored++;
  else report.updated++;
  if (written.quarantined) report.quarantined++;
  report.items += written.ids.length;
}

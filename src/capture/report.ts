/**
 * What `capture` reports: the session it read, how many turns it saw, stored, wrote again (a turn
 * that grew since the last capture), skipped as already captured, and refused (with the rules and
 * the error, never the refused text), the explicit proposals found, and the lines it could not
 * read.
 */
import type { ErrorCode } from '../errors.js';
import type { MalformedEntry, Transcript, TranscriptFormat } from './transcript.js';

/** How many malformed entries the report lists (all are counted). */
export const MALFORMED_LISTED = 20;

/** A turn, or a proposal in one, that was not stored. */
export interface CaptureRefusal {
  turn: number;
  /** Set for a proposal: its 1-based position among the turn's proposals. */
  proposal?: number;
  /** First and last position of the turn in the file (lines, or messages: see `unit`). */
  range: [number, number];
  error: ErrorCode;
  /** The policy rules that refused it. */
  rules?: string[];
  /** Why, with any secret masked. */
  reason: string;
}

export interface CaptureReport {
  /** The transcript's absolute path. */
  file: string;
  format: TranscriptFormat;
  /** Positions in `range` and `malformed` are lines of a JSONL file, or messages of an export document. */
  unit: Transcript['unit'];
  session_id: string;
  /** The scope the session's items are in. */
  scope: string;
  turns: number;
  /** Turns stored for the first time. */
  stored: number;
  /** Turns whose content changed since they were captured, written again. */
  updated: number;
  /** Turns already captured as they are: nothing written. */
  duplicates: number;
  /** Turns the policy (or a field check) refused: nothing of them stored. */
  refused: number;
  /** Stored turns held for review (quarantined). */
  quarantined: number;
  /** Episode items written (a long turn is stored in parts). */
  items: number;
  proposals: { found: number; stored: number; quarantined: number; rejected: number };
  refusals: CaptureRefusal[];
  malformed: { count: number; entries: MalformedEntry[] };
}

/** A report before any turn is counted. */
export function emptyReport(file: string, transcript: Transcript, sessionId: string, scope: string): CaptureReport {
  return {
    file,
    format: transcript.format,
    unit: transcript.unit,
    session_id: sessionId,
    scope,
    turns: transcript.turns.length,
    stored: 0,
    updated: 0,
    duplicates: 0,
    refused: 0,
    quarantined: 0,
    items: 0,
    proposals: { found: 0, stored: 0, quarantined: 0, rejected: 0 },
    refusals: [],
    malformed: { count: transcript.malformed.length, entries: transcript.malformed.slice(0, MALFORMED_LISTED) },
  };
}

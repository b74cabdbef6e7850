/**
 * A session transcript as capture reads it, whatever client wrote it: the session's id and working
 * directory, and its turns. A turn opens with a request of the user and runs to the next one; it
 * keeps the request's text, what the assistant wrote (the last message with text is its final
 * answer), the tools called and the size of their outputs, never the outputs themselves. The
 * client parsers (`claude-code.ts`, `codex.ts`, `opencode.ts`) turn entries into
 * {@link TranscriptEvent}s; {@link turnsFrom} makes the turns. Pure.
 */

export const TRANSCRIPT_FORMATS = ['claude-code', 'codex', 'opencode'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** Something attached to a request (an image, a file, a document), kept by its size only. */
export interface Attachment {
  kind: string;
  bytes: number;
}

/** One thing that happened in a session, at a position of the file (a line, or a message of an export). */
export type TranscriptEvent
  = | { kind: 'request'; at: number; time: string | null; texts: string[]; attachments: Attachment[] }
    | { kind: 'text'; at: number; time: string | null; message: string; text: string }
    | { kind: 'tool'; at: number; time: string | null; name: string }
    | { kind: 'output'; at: number; time: string | null; bytes: number };

export interface Turn {
  /** 1-based position among the session's turns. */
  number: number;
  /** The turn's first and last position in the file (lines, or messages of an OpenCode export). */
  start: number;
  end: number;
  started_at: string | null;
  ended_at: string | null;
  /** The request's text blocks, as written. */
  request: string[];
  attachments: Attachment[];
  /** The text of each assistant message, in order; the last is the final answer. */
  answers: string[];
  /** Tool name → calls. */
  tools: Record<string, number>;
  tool_outputs: number;
  tool_output_bytes: number;
}

/** A line (or message) that could not be read; its text is never repeated. */
export interface MalformedEntry {
  at: number;
  reason: string;
}

export interface Transcript {
  format: TranscriptFormat;
  /** `line` for JSONL files, `message` for an OpenCode export document. */
  unit: 'line' | 'message';
  session_id: string | null;
  cwd: string | null;
  /** Lines (or messages) read. */
  entries: number;
  turns: Turn[];
  malformed: MalformedEntry[];
}

/** A client parser, fed one line at a time (line numbers from 1). */
export interface TranscriptParser {
  line(text: string, at: number): void;
  finish(): Transcript;
}

/** What a parser has gathered: the events, and the session's id and directory once seen. */
export interface ParsedEntries {
  events: TranscriptEvent[];
  session_id: string | null;
  cwd: string | null;
  entries: number;
  malformed: MalformedEntry[];
}

/** An empty {@link ParsedEntries}. */
export function parsedEntries(): ParsedEntries {
  return { events: [], session_id: null, cwd: null, entries: 0, malformed: [] };
}

/** Reads one JSONL line as an object, or records it as malformed; blank lines are skipped. */
export function jsonObject(parsed: ParsedEntries, text: string, at: number): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined;
  parsed.entries++;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    parsed.malformed.push({ at, reason: 'not JSON' });
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    parsed.malformed.push({ at, reason: 'not a JSON object' });
    return undefined;
  }
  return value as Record<string, unknown>;
}

/** A record field as an object, or undefined. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A string field, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The UTF-8 size of a payload: a string as is, anything else as its JSON. */
export function payloadBytes(value: unknown): number {
  if (value === undefined || value === null) return 0;
  return Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
}

/** An ISO-8601 time from an ISO string or epoch milliseconds; null when neither. */
export function isoTime(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value).toISOString();
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

function emptyTurn(number: number, at: number, time: string | null): Turn {
  return {
    number, start: at, end: at, started_at: time, ended_at: time,
    request: [], attachments: [], answers: [], tools: {}, tool_outputs: 0, tool_output_bytes: 0,
  };
}

/**
 * The turns of a session: each request opens one, and what follows belongs to it until the next.
 * Events before the first request are left out. Texts of one assistant message (`message`) that
 * arrive as several events are joined into one answer.
 */
export function turnsFrom(events: readonly TranscriptEvent[]): Turn[] {
  const turns: Turn[] = [];
  let current: Turn | undefined;
  let lastMessage: string | undefined;
  for (const event of events) {
    if (event.kind === 'request') {
      current = emptyTurn(turns.length + 1, event.at, event.time);
      current.request.push(...event.texts);
      current.attachments.push(...event.attachments);
      turns.push(current);
      lastMessage = undefined;
      continue;
    }
    if (current === undefined) continue;
    current.end = Math.max(current.end, event.at);
    if (event.time !== null) current.ended_at = event.time;
    if (event.kind === 'text') {
      if (event.text.trim() === '') continue;
      const last = current.answers.length - 1;
      if (lastMessage === event.message && last >= 0) current.answers[last] = `${current.answers[last]}\n\n${event.text}`;
      else current.answers.push(event.text);
      lastMessage = event.message;
    } else if (event.kind === 'tool') {
      current.tools[event.name] = (current.tools[event.name] ?? 0) + 1;
      lastMessage = undefined;
    } else {
      current.tool_outputs++;
      current.tool_output_bytes += event.bytes;
    }
  }
  return turns;
}

/** The transcript of what a parser gathered. */
export function transcriptOf(format: TranscriptFormat, unit: Transcript['unit'], parsed: ParsedEntries, events = parsed.events): Transcript {
  const { session_id, cwd, entries, malformed } = parsed;
  return { format, unit, session_id, cwd, entries, turns: turnsFrom(events), malformed };
}

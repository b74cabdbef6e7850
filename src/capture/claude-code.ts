/**
 * Claude Code session transcripts: `~/.claude/projects/<project>/<session-id>.jsonl`, one entry per
 * line, `{type, uuid, parentUuid, sessionId, timestamp, cwd, message: {role, content}}`. A user
 * entry whose content is a string or holds text blocks is a request; one holding `tool_result`
 * blocks returns tool outputs (kept by size). Assistant entries carry `text`, `tool_use` and
 * `thinking` blocks; one API message may be split over several entries sharing `message.id`.
 * Subagent entries (`isSidechain`), context Claude Code injects itself (`isMeta`, the summary that
 * continues a compacted session, local command output) and interruption notices open no turn;
 * `summary`, `system`, snapshot and progress entries carry no turn content.
 */
import {
  type Attachment, isoTime, jsonObject, type ParsedEntries, parsedEntries, payloadBytes, record, str, transcriptOf,
  type TranscriptEvent, type TranscriptParser,
} from './transcript.js';

/** Texts Claude Code writes as the user's that are not a request. */
const NOT_A_REQUEST = /^\s*(?:<local-command-(?:stdout|stderr|caveat)>|\[Request interrupted by user[^\]]*\]\s*$)/;

interface UserContent {
  texts: string[];
  attachments: Attachment[];
  outputs: number[];
}

function userContent(content: unknown): UserContent {
  if (typeof content === 'string') return { texts: [content], attachments: [], outputs: [] };
  const out: UserContent = { texts: [], attachments: [], outputs: [] };
  if (!Array.isArray(content)) return out;
  for (const block of content) {
    const b = record(block);
    const type = str(b?.type);
    if (type === 'text') out.texts.push(str(b?.text) ?? '');
    else if (type === 'tool_result') out.outputs.push(payloadBytes(b?.content));
    else if (type === 'image' || type === 'document') {
      out.attachments.push({ kind: type, bytes: payloadBytes(record(b?.source)?.data ?? b?.source) });
    }
  }
  return out;
}

function userEvents(
  entry: Record<string, unknown>,
  content: unknown,
  at: number,
  time: string | null,
): TranscriptEvent[] {
  const { texts, attachments, outputs } = userContent(content);
  // Tool results return to the running turn; text sent with them (hook feedback) is no request.
  if (outputs.length > 0) return outputs.map((bytes) => ({ kind: 'output', at, time, bytes }));
  const injected = entry.isMeta === true || entry.isCompactSummary === true || entry.isVisibleInTranscriptOnly === true;
  const written = texts.filter((t) => t.trim() !== '');
  if (injected || written.some((t) => NOT_A_REQUEST.test(t))) return [];
  if (written.length === 0 && attachments.length === 0) return [];
  return [{ kind: 'request', at, time, texts: written, attachments }];
}

function assistantEvents(message: Record<string, unknown>, at: number, time: string | null): TranscriptEvent[] {
  const id = str(message.id) ?? `line-${at}`;
  const content = message.content;
  if (typeof content === 'string') return [{ kind: 'text', at, time, message: id, text: content }];
  if (!Array.isArray(content)) return [];
  const events: TranscriptEvent[] = [];
  for (const block of content) {
    const b = record(block);
    const type = str(b?.type);
    if (type === 'text') events.push({ kind: 'text', at, time, message: id, text: str(b?.text) ?? '' });
    else if (type === 'tool_use' || type === 'server_tool_use') events.push({ kind: 'tool', at, time, name: str(b?.name) ?? 'tool' });
  }
  return events;
}

function readEntry(parsed: ParsedEntries, entry: Record<string, unknown>, at: number): void {
  parsed.session_id ??= str(entry.sessionId) ?? null;
  parsed.cwd ??= str(entry.cwd) ?? null;
  const type = entry.type;
  if (type !== 'user' && type !== 'assistant') return;
  if (entry.isSidechain === true) return;
  const message = record(entry.message);
  if (message === undefined) {
    parsed.malformed.push({ at, reason: `${type} entry without a message` });
    return;
  }
  const time = isoTime(entry.timestamp);
  const events = type === 'user' ? userEvents(entry, message.content, at, time) : assistantEvents(message, at, time);
  parsed.events.push(...events);
}

/** A parser for one Claude Code session file. */
export function claudeCodeParser(): TranscriptParser {
  const parsed = parsedEntries();
  return {
    line(text, at) {
      const entry = jsonObject(parsed, text, at);
      if (entry !== undefined) readEntry(parsed, entry, at);
    },
    finish: () => transcriptOf('claude-code', 'line', parsed),
  };
}

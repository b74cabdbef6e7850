/**
 * OpenCode sessions. OpenCode keeps them in its own storage (JSON files per session, message and
 * part under `~/.local/share/opencode/storage/`, a SQLite database in later versions); the
 * documented way out is `opencode export SESSION_ID`, a JSON document `{info, messages: [{info,
 * parts}]}` (the session, then each message with its parts). That document is what capture reads,
 * or the same messages one per line (`jq -c '.messages[]'`, JSONL). A message's `info.role` is
 * `user` or `assistant`; parts are `text` (the `synthetic` ones OpenCode adds are skipped), `file`
 * (kept by size), `tool` (`state.output` kept by size), `reasoning`, step and snapshot markers.
 */
import {
  type Attachment, isoTime, jsonObject, type ParsedEntries, parsedEntries, payloadBytes, record, str,
  type Transcript, transcriptOf, type TranscriptEvent, type TranscriptParser,
} from './transcript.js';

function messageEvents(message: Record<string, unknown>, at: number): TranscriptEvent[] {
  const info = record(message.info) ?? {};
  const time = isoTime(record(info.time)?.created);
  const id = str(info.id) ?? `message-${at}`;
  const parts = (Array.isArray(message.parts) ? message.parts : []).map(record).filter((p) => p !== undefined);
  const texts = parts
    .filter((p) => p.type === 'text' && p.synthetic !== true && p.ignored !== true)
    .map((p) => str(p.text) ?? '')
    .filter((t) => t.trim() !== '');
  if (info.role === 'user') {
    const attachments: Attachment[] = parts.filter((p) => p.type === 'file').map((p) => ({ kind: 'file', bytes: payloadBytes(p.url) }));
    return texts.length + attachments.length > 0 ? [{ kind: 'request', at, time, texts, attachments }] : [];
  }
  if (info.role !== 'assistant') return [];
  const events: TranscriptEvent[] = [];
  for (const part of parts) {
    if (part.type === 'text' && texts.includes(str(part.text) ?? '')) {
      events.push({ kind: 'text', at, time, message: id, text: str(part.text) ?? '' });
    } else if (part.type === 'tool') {
      const state = record(part.state);
      events.push({ kind: 'tool', at, time, name: str(part.tool) ?? 'tool' });
      if (state?.status === 'completed' || state?.status === 'error') {
        events.push({ kind: 'output', at, time, bytes: payloadBytes(state.output ?? state.error) });
      }
    }
  }
  return events;
}

function readMessage(parsed: ParsedEntries, message: Record<string, unknown>, at: number): void {
  const info = record(message.info);
  if (info === undefined || !Array.isArray(message.parts)) {
    parsed.malformed.push({ at, reason: 'message without info and parts' });
    return;
  }
  parsed.session_id ??= str(info.sessionID) ?? null;
  parsed.events.push(...messageEvents(message, at));
}

/** A parser for OpenCode messages one per line (`{info, parts}`); a line with the session's own info names it. */
export function openCodeParser(): TranscriptParser {
  const parsed = parsedEntries();
  return {
    line(text, at) {
      const entry = jsonObject(parsed, text, at);
      if (entry === undefined) return;
      const info = record(entry.info);
      if (entry.parts === undefined && info !== undefined && info.role === undefined) {
        parsed.session_id ??= str(info.id) ?? null;
        parsed.cwd ??= str(info.directory) ?? null;
        return;
      }
      readMessage(parsed, entry, at);
    },
    finish: () => transcriptOf('opencode', 'line', parsed),
  };
}

/** True when `value` is an `opencode export` document. */
export function isOpenCodeExport(value: unknown): value is { info: Record<string, unknown>; messages: unknown[] } {
  const doc = record(value);
  return doc !== undefined && record(doc.info) !== undefined && Array.isArray(doc.messages);
}

/** The transcript of an `opencode export` document; positions are message numbers (from 1). */
export function parseOpenCodeExport(doc: { info: Record<string, unknown>; messages: unknown[] }): Transcript {
  const parsed = parsedEntries();
  parsed.session_id = str(doc.info.id) ?? null;
  parsed.cwd = str(doc.info.directory) ?? null;
  doc.messages.forEach((value, i) => {
    parsed.entries++;
    const message = record(value);
    if (message === undefined) parsed.malformed.push({ at: i + 1, reason: 'not a JSON object' });
    else readMessage(parsed, message, i + 1);
  });
  return transcriptOf('opencode', 'message', parsed);
}

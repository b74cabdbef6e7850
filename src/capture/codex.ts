/**
 * Codex CLI rollouts: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, one `{timestamp, type,
 * payload}` per line. `session_meta` names the session (`payload.id`, `payload.cwd`);
 * `response_item` payloads are what the model saw: `message` (role user, assistant or developer,
 * `input_text` / `output_text` blocks), `function_call` / `custom_tool_call` / `local_shell_call`
 * and their `*_output`, `reasoning`; `event_msg` payloads are what the interface showed:
 * `user_message` (what the person typed), `agent_message`, token counts. Requests are the
 * `user_message` events when the rollout has them (the user messages the model saw also carry the
 * context Codex adds: environment, AGENTS.md), else the user messages that are not such context;
 * answers are the assistant messages, else the `agent_message` events. Rollouts older than
 * `session_meta` (a bare first line with the session id, then bare response items) are read too.
 */
import {
  type Attachment, isoTime, jsonObject, type ParsedEntries, parsedEntries, payloadBytes, record, str,
  transcriptOf, type TranscriptEvent, type TranscriptParser,
} from './transcript.js';

/** User messages that hold context Codex sends along, not something the person asked. */
const SESSION_CONTEXT = /^\s*(?:<(?:environment_context|user_instructions|permissions instructions|user_shell_command|turn_aborted)\b|# AGENTS\.md instructions)/i;
const TOOL_CALLS: Readonly<Record<string, string | undefined>> = { local_shell_call: 'shell', web_search_call: 'web_search' };

type Source = 'item' | 'event';

interface Tagged {
  event: TranscriptEvent;
  source: Source;
}

function blocks(content: unknown): { texts: string[]; attachments: Attachment[] } {
  if (typeof content === 'string') return { texts: [content], attachments: [] };
  const texts: string[] = [];
  const attachments: Attachment[] = [];
  for (const block of Array.isArray(content) ? content : []) {
    const b = record(block);
    const type = str(b?.type);
    if (type === 'input_text' || type === 'output_text' || type === 'text') texts.push(str(b?.text) ?? '');
    else if (type === 'input_image') attachments.push({ kind: 'image', bytes: payloadBytes(b?.image_url) });
  }
  return { texts, attachments };
}

function responseItem(payload: Record<string, unknown>, at: number, time: string | null): TranscriptEvent[] {
  const type = str(payload.type) ?? '';
  if (type === 'message') {
    const { texts, attachments } = blocks(payload.content);
    const written = texts.filter((t) => t.trim() !== '');
    if (payload.role === 'assistant') return written.map((text) => ({ kind: 'text', at, time, message: `line-${at}`, text }));
    if (payload.role !== 'user' || written.some((t) => SESSION_CONTEXT.test(t))) return [];
    return written.length + attachments.length > 0 ? [{ kind: 'request', at, time, texts: written, attachments }] : [];
  }
  if (type === 'function_call' || type === 'custom_tool_call') return [{ kind: 'tool', at, time, name: str(payload.name) ?? 'tool' }];
  const builtIn = TOOL_CALLS[type];
  if (builtIn !== undefined) return [{ kind: 'tool', at, time, name: builtIn }];
  if (type.endsWith('_call_output')) return [{ kind: 'output', at, time, bytes: payloadBytes(payload.output) }];
  return [];
}

function eventMessage(payload: Record<string, unknown>, at: number, time: string | null): TranscriptEvent[] {
  const message = str(payload.message) ?? '';
  if (payload.type === 'user_message') {
    const images = Array.isArray(payload.images) ? payload.images : [];
    const attachments = images.map((image) => ({ kind: 'image', bytes: payloadBytes(image) }));
    return message.trim() === '' && attachments.length === 0 ? [] : [{ kind: 'request', at, time, texts: message.trim() === '' ? [] : [message], attachments }];
  }
  if (payload.type === 'agent_message' && message.trim() !== '') return [{ kind: 'text', at, time, message: `line-${at}`, text: message }];
  return [];
}

function readEntry(parsed: ParsedEntries, tagged: Tagged[], entry: Record<string, unknown>, at: number): void {
  const time = isoTime(entry.timestamp);
  const payload = record(entry.payload);
  if (entry.type === 'session_meta' || (entry.type === undefined && typeof entry.id === 'string')) {
    const meta = payload ?? entry;
    parsed.session_id ??= str(meta.id) ?? null;
    parsed.cwd ??= str(meta.cwd) ?? null;
    return;
  }
  if (entry.type === 'response_item' || entry.type === 'event_msg') {
    if (payload === undefined) {
      parsed.malformed.push({ at, reason: `${entry.type} without a payload` });
      return;
    }
    const source: Source = entry.type === 'response_item' ? 'item' : 'event';
    const events = source === 'item' ? responseItem(payload, at, time) : eventMessage(payload, at, time);
    tagged.push(...events.map((event) => ({ event, source })));
    return;
  }
  // A rollout from before `session_meta`: response items stand on their own lines.
  if (entry.payload === undefined && typeof entry.type === 'string') {
    tagged.push(...responseItem(entry, at, time).map((event) => ({ event, source: 'item' as const })));
  }
}

/** The events kept: requests and answers from one source each (see the module header). */
function chosen(tagged: readonly Tagged[]): TranscriptEvent[] {
  const has = (kind: TranscriptEvent['kind'], source: Source) => tagged.some((t) => t.event.kind === kind && t.source === source);
  const requests: Source = has('request', 'event') ? 'event' : 'item';
  const answers: Source = has('text', 'item') ? 'item' : 'event';
  return tagged
    .filter(({ event, source }) =>
      event.kind === 'request' ? source === requests : event.kind === 'text' ? source === answers : true)
    .map((t) => t.event);
}

/** A parser for one Codex rollout file. */
export function codexParser(): TranscriptParser {
  const parsed = parsedEntries();
  const tagged: Tagged[] = [];
  return {
    line(text, at) {
      const entry = jsonObject(parsed, text, at);
      if (entry !== undefined) readEntry(parsed, tagged, entry, at);
    },
    finish: () => transcriptOf('codex', 'line', parsed, chosen(tagged)),
  };
}

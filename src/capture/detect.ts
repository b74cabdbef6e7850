/**
 * Which client wrote a transcript, from its first entries: a Codex rollout line is `{timestamp,
 * type, payload}` with a Codex entry type (or, before `session_meta`, a bare response item); a
 * Claude Code line is `{type, uuid, sessionId, message, …}` with a Claude Code entry type; an
 * OpenCode message is `{info, parts}`. Pure.
 */
import type { TranscriptFormat } from './transcript.js';

const CODEX_TYPES: ReadonlySet<string> = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const CODEX_BARE_ITEMS: ReadonlySet<string> = new Set(['message', 'function_call', 'function_call_output', 'reasoning', 'local_shell_call']);
const CLAUDE_TYPES: ReadonlySet<string> = new Set([
  'user', 'assistant', 'system', 'summary', 'file-history-snapshot', 'queue-operation', 'progress', 'attachment',
]);
const CLAUDE_FIELDS = ['sessionId', 'uuid', 'parentUuid', 'leafUuid', 'messageId'];

/** How many entries auto-detection reads before it gives up. */
export const DETECT_ENTRIES = 50;

/**
 * The format one entry shows, or undefined when it could belong to any (or none).
 *
 * @example
 * detectEntry({ timestamp: '2026-01-01T00:00:00Z', type: 'session_meta', payload: { id: 'x' } }); // 'codex'
 */
export function detectEntry(entry: Readonly<Record<string, unknown>>): TranscriptFormat | undefined {
  const type = typeof entry.type === 'string' ? entry.type : undefined;
  const payload = entry.payload;
  if (type !== undefined && CODEX_TYPES.has(type) && typeof payload === 'object' && payload !== null) return 'codex';
  const info = entry.info;
  if (typeof info === 'object' && info !== null && Array.isArray(entry.parts)) return 'opencode';
  if (type !== undefined && CLAUDE_TYPES.has(type) && CLAUDE_FIELDS.some((field) => field in entry)) return 'claude-code';
  if (type !== undefined && CODEX_BARE_ITEMS.has(type) && payload === undefined && !('message' in entry)) return 'codex';
  return undefined;
}

/**
 * How the loop reads a model's reply: a directive (does it need more memory, which query, is it
 * done) and the answer. Three protocols (`--protocol`):
 *
 * - `json` (the default, memctl's): the first non-blank line is one JSON object
 *   `{"need_more": bool, "query": "..." | null, "stop": bool}` (every field optional: false, null,
 *   false); the answer is everything after it. A line wrapped in backticks, or in a ```json
 *   fence of its own, is read too.
 * - `regex`, for models that cannot hold a JSON line: lines anywhere in the reply of the form
 *   `NEED_MORE: yes|no`, `QUERY: text`, `STOP: yes|no` (any case; yes/no, true/false, 1/0),
 *   matched by {@link DIRECTIVE_LINE}; the answer is the reply without those lines. QUERY alone
 *   means the model needs more.
 * - `passive`: no directive; the whole reply is the answer and the loop makes one call.
 *
 * A reply that gives no directive under `json` or `regex` (no JSON object on its first line,
 * wrong field types, no directive line) is *unparsed*: {@link ParsedReply.directive} is null and
 * the answer is the whole reply, trimmed. The controller decides what that means.
 */

export type LoopProtocol = 'json' | 'regex' | 'passive';

export const LOOP_PROTOCOLS: readonly LoopProtocol[] = ['json', 'regex', 'passive'];

export interface Directive {
  need_more: boolean;
  /** The follow-up query the model proposes; null when it gives none. */
  query: string | null;
  stop: boolean;
}

export interface ParsedReply {
  /** Null when the reply does not follow the protocol (never null under `passive`). */
  directive: Directive | null;
  /** The answer: the reply without its directive, blank lines at either end and trailing spaces removed. */
  answer: string;
}

/** A directive line of the `regex` protocol: `KEY: value`, the key any case. */
export const DIRECTIVE_LINE = /^[ \t]*(NEED_MORE|QUERY|STOP)[ \t]*:[ \t]*(.*?)[ \t]*$/i;

const YES = new Set(['yes', 'y', 'true', '1']);
const NO = new Set(['no', 'n', 'false', '0', '']);

function clean(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

function optionalBoolean(value: unknown): boolean | undefined | null {
  if (value === undefined) return undefined;
  return typeof value === 'boolean' ? value : null;
}

function fromObject(value: unknown): Directive | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const needMore = optionalBoolean(record.need_more);
  const stop = optionalBoolean(record.stop);
  const query = record.query;
  if (needMore === null || stop === null) return null;
  if (query !== undefined && query !== null && typeof query !== 'string') return null;
  const text = typeof query === 'string' && query.trim() !== '' ? query.trim() : null;
  return { need_more: needMore ?? false, query: text, stop: stop ?? false };
}

const FENCE = /^```(?:json)?$/i;

function parseJson(reply: string): ParsedReply {
  const text = clean(reply);
  const lines = text.split('\n');
  // A model that fences its JSON line (```json, the line, ```) is read as if it had not.
  const fenced = FENCE.test((lines[0] ?? '').trim());
  const at = fenced ? 1 : 0;
  const first = (lines[at] ?? '').trim().replace(/^`+|`+$/g, '');
  let directive: Directive | null = null;
  try {
    directive = fromObject(JSON.parse(first));
  } catch {
    directive = null;
  }
  if (directive === null) return { directive: null, answer: text };
  const after = fenced && (lines[at + 1] ?? '').trim() === '```' ? at + 2 : at + 1;
  return { directive, answer: clean(lines.slice(after).join('\n')) };
}

function yesNo(value: string): boolean | null {
  const v = value.toLowerCase();
  if (YES.has(v)) return true;
  return NO.has(v) ? false : null;
}

function parseRegex(reply: string): ParsedReply {
  const text = clean(reply);
  const found: Record<string, string> = {};
  const rest: string[] = [];
  for (const line of text.split('\n')) {
    const m = DIRECTIVE_LINE.exec(line);
    if (m === null) rest.push(line);
    else found[(m[1] ?? '').toUpperCase()] ??= m[2] ?? '';
  }
  if (Object.keys(found).length === 0) return { directive: null, answer: text };
  const query = found.QUERY === undefined || found.QUERY === '' ? null : found.QUERY;
  const needMore = found.NEED_MORE === undefined ? query !== null : yesNo(found.NEED_MORE);
  const stop = found.STOP === undefined ? false : yesNo(found.STOP);
  if (needMore === null || stop === null) return { directive: null, answer: text };
  return { directive: { need_more: needMore, query, stop }, answer: clean(rest.join('\n')) };
}

/**
 * Splits a model's reply into its directive and its answer under `protocol`.
 *
 * @example
 * parseReply('{"need_more": true, "query": "token expiry"}\nJWTs, probably.', 'json')
 * // { directive: { need_more: true, query: 'token expiry', stop: false }, answer: 'JWTs, probably.' }
 */
export function parseReply(reply: string, protocol: LoopProtocol): ParsedReply {
  if (protocol === 'json') return parseJson(reply);
  if (protocol === 'regex') return parseRegex(reply);
  return { directive: { need_more: false, query: null, stop: true }, answer: clean(reply) };
}

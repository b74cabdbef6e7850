/**
 * A turn as the episode capture stores: the request, one line on the tools (names and calls, how
 * many outputs and their size), and the final answer. Tool outputs, attachments and the texts
 * written before the final answer are left out; a text over {@link LARGE_TEXT_CHARS} keeps its head and says
 * how many bytes were left out. The `policyText` is what the policy reads before anything is
 * stored: the request and the answer whole, so that a cut never hides half a secret. Pure and
 * deterministic: the same turn always gives the same episode and hash.
 */
import { chunkText } from '../ingest/chunk.js';
import { MAX_CONTENT_CHARS } from '../policy/rules.js';
import { sha256 } from '../util/hash.js';
import type { Turn } from './transcript.js';

/** A text longer than this (a pasted log, a huge answer) is stored as its head and its size. */
export const LARGE_TEXT_CHARS = 8000;
/** The head kept of a large text. */
const HEAD_CHARS = 1000;
const TITLE_CHARS = 80;
/** Bumped when the rendering changes, so that episodes captured before are written again. */
const EPISODE_VERSION = 1;

export interface Episode {
  title: string;
  /** The stored text, in parts of at most MAX_CONTENT_CHARS characters. */
  parts: string[];
  /** Request and final answer whole: what the policy reads first. */
  policyText: string;
  /** Identifies the turn's content: a turn captured again with the same hash is skipped. */
  hash: string;
}

/** 12345 → `12,345`. */
export function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A text as stored: whole, or its head cut at a space and the size of the rest. */
function bounded(text: string): string {
  if (text.length <= LARGE_TEXT_CHARS) return text;
  const space = text.lastIndexOf(' ', HEAD_CHARS);
  const head = text.slice(0, space > HEAD_CHARS / 2 ? space : HEAD_CHARS);
  const rest = Buffer.byteLength(text.slice(head.length), 'utf8');
  return `${head}\n[… ${grouped(rest)} more bytes not stored]`;
}

function toolLine(turn: Turn): string | undefined {
  const names = Object.entries(turn.tools).map(([name, calls]) => (calls > 1 ? `${name} ×${calls}` : name));
  if (names.length === 0 && turn.tool_outputs === 0) return undefined;
  const outputs = turn.tool_outputs === 0
    ? ''
    : `; ${turn.tool_outputs} output${turn.tool_outputs === 1 ? '' : 's'}, ${grouped(turn.tool_output_bytes)} bytes (not stored)`;
  return `Tools: ${names.length > 0 ? names.join(', ') : 'none named'}${outputs}`;
}

/** The turn's final answer: the last assistant text. */
export function finalAnswer(turn: Turn): string {
  return turn.answers.at(-1) ?? '';
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

/**
 * The episode of `turn` of a session written by `client`.
 *
 * @example
 * renderEpisode(turn, 'codex').parts[0]; // 'Request:\nFix the flaky test\n\nTools: shell ×2; …\n\nAnswer:\nFixed: …'
 */
export function renderEpisode(turn: Turn, client: string): Episode {
  const request = turn.request.join('\n\n');
  const answer = finalAnswer(turn);
  const attached = turn.attachments.map((a) => `[${a.kind}: ${grouped(a.bytes)} bytes, not stored]`);
  const sections = [
    ['Request:', bounded(request), ...attached].filter((s) => s !== '').join('\n'),
    toolLine(turn),
    `Answer:\n${answer.trim() === '' ? '(no answer)' : bounded(answer)}`,
  ].filter((s) => s !== undefined);
  const text = sections.join('\n\n');
  const parts = text.length <= MAX_CONTENT_CHARS
    ? [text]
    : chunkText(text, { maxChars: MAX_CONTENT_CHARS }).map((c) => c.content);
  const title = `${client} turn ${turn.number}: ${firstLine(request) || '(attachments)'}`;
  const hash = sha256(JSON.stringify([EPISODE_VERSION, text, turn.answers]));
  return { title, parts, policyText: `${request}\n\n${answer}`, hash };
}

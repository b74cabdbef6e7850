/**
 * Reads a transcript file into a {@link Transcript}: line by line (a session file of hundreds of
 * megabytes is never held whole), with the client's parser named or detected from the first
 * entries; an `opencode export` document (one pretty-printed JSON object) is read whole. A line
 * that is not JSON is reported, never fatal.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { EngramError } from '../errors.js';
import { claudeCodeParser } from './claude-code.js';
import { codexParser } from './codex.js';
import { DETECT_ENTRIES, detectEntry } from './detect.js';
import { isOpenCodeExport, openCodeParser, parseOpenCodeExport } from './opencode.js';
import type { Transcript, TranscriptFormat, TranscriptParser } from './transcript.js';

/** The largest `opencode export` document read whole. */
const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

const PARSERS: Readonly<Record<TranscriptFormat, () => TranscriptParser>> = {
  'claude-code': claudeCodeParser,
  'codex': codexParser,
  'opencode': openCodeParser,
};

const FORMAT_HINT = 'Name the transcript format: claude-code, codex or opencode.';

function detectLine(text: string): TranscriptFormat | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? detectEntry(value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

async function readDocument(path: string, size: number): Promise<Transcript> {
  if (size > MAX_DOCUMENT_BYTES) {
    throw new EngramError('PARAM_ERROR', `${path} is a JSON document of ${size} bytes, over the ${MAX_DOCUMENT_BYTES} read whole`, {
      hint: 'Give the session as JSONL, one message per line.',
    });
  }
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    throw new EngramError('PARAM_ERROR', `${path} is neither JSONL nor one JSON document`, { hint: FORMAT_HINT });
  }
  if (!isOpenCodeExport(doc)) {
    throw new EngramError('PARAM_ERROR', `${path} is a JSON document but not an OpenCode export ({info, messages})`, { hint: FORMAT_HINT });
  }
  return parseOpenCodeExport(doc);
}

async function checkedSize(path: string): Promise<number> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new EngramError(error.code === 'ENOENT' ? 'NOT_FOUND' : 'PARAM_ERROR', `Cannot read transcript ${path}: ${error.code ?? error.message}`, {
      hint: 'Give the path of a session file.',
      details: { path },
    });
  });
  if (!info.isFile()) throw new EngramError('PARAM_ERROR', `${path} is not a file`, { hint: 'Give the path of a session file.', details: { path } });
  return info.size;
}

/**
 * The transcript in `path`, read with `format`'s parser, or the one its first entries show
 * (`auto`). NOT_FOUND for a missing file; PARAM_ERROR for a directory, or when `auto` cannot tell.
 *
 * @example
 * const { session_id, turns } = await readTranscript('~/.claude/projects/app/abc.jsonl', 'auto');
 */
export async function readTranscript(path: string, format: TranscriptFormat | 'auto'): Promise<Transcript> {
  const size = await checkedSize(path);
  let parser = format === 'auto' ? undefined : PARSERS[format]();
  const waiting: [string, number][] = [];
  let at = 0;
  let first = true;
  // Created right before iteration, and nothing else awaited inside it (see cli/commands/import.ts).
  for await (const raw of createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Number.POSITIVE_INFINITY })) {
    at++;
    const text = first ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '' && first) continue;
    if (first && text.trimStart().startsWith('{') && !isJson(text)) return readDocument(path, size);
    first = false;
    if (parser !== undefined) {
      parser.line(text, at);
      continue;
    }
    waiting.push([text, at]);
    const detected = detectLine(text);
    if (detected === undefined && waiting.length < DETECT_ENTRIES) continue;
    if (detected === undefined) break;
    parser = PARSERS[detected]();
    for (const [line, n] of waiting) parser.line(line, n);
  }
  if (parser === undefined) {
    const why = waiting.length === 0 ? 'it is empty' : `its first ${waiting.length} entries are no Claude Code, Codex or OpenCode entries`;
    throw new EngramError(waiting.length === 0 ? 'EMPTY_INPUT' : 'PARAM_ERROR', `Cannot tell which client wrote ${path}: ${why}`, { hint: FORMAT_HINT });
  }
  return parser.finish();
}

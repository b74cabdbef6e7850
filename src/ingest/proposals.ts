/**
 * Memory proposals out of an LLM's answer (`pull`): a JSON array or object of proposals (bare or
 * in a ```json fence), delimited blocks (`<memory …>…</memory>` or a ```memory fence), or Markdown
 * sections carrying `Title:` / `Type:` / `Tags:` fields; otherwise the whole text is one note.
 * Pure; validation of the fields happens at the write, except that JSON nested deeper than
 * {@link MAX_JSON_DEPTH} is a PARAM_ERROR.
 */
import { EngramError } from '../errors.js';
import { MAX_CONTENT_CHARS } from '../policy/rules.js';
import { chunkText } from './chunk.js';

export interface Proposal {
  content: string;
  title?: string;
  type?: string;
  tags?: string[];
  tier?: string;
  scope?: string;
  entities?: string[];
  confidence?: number;
  provenance?: Record<string, unknown>;
  /** Ids of stored items this proposal replaces (a host model's merge). */
  supersedes?: string[];
}

export type ProposalFormat = 'json' | 'blocks' | 'sections' | 'text';

export interface ParsedProposals {
  format: ProposalFormat;
  proposals: Proposal[];
}

const FIELD = /^[ \t]*(?:[-*][ \t]+)?(?:\*\*)?(title|type|tags?|tier|scope|confidence)(?:\*\*)?[ \t]*:[ \t]*(?:\*\*[ \t]*)?(.*?)[ \t]*$/i;

function list(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') return value.split(',').map((t) => t.trim()).filter((t) => t !== '');
  return undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * A proposal's provenance: an object as given, or a non-empty string as its `source_id`
 * (`"provenance_hint": "docs/auth.md"`); anything else is none.
 */
export function provenanceHint(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') return value.trim() === '' ? {} : { source_id: value.trim() };
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A JSON value as a proposal, or undefined when it has no content. */
function fromJson(value: unknown): Proposal | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  const content = text(o.content) ?? text(o.text) ?? text(o.body);
  if (content === undefined) return undefined;
  const why = text(o.why_store) ?? text(o.justification) ?? text(o.rationale);
  const provenance = {
    ...provenanceHint(o.provenance ?? o.provenance_hint),
    ...(why === undefined ? {} : { why_store: why }),
  };
  return {
    content,
    ...(text(o.title) ? { title: text(o.title) } : {}),
    ...(text(o.type) ? { type: text(o.type) } : {}),
    ...(list(o.tags) ? { tags: list(o.tags) } : {}),
    ...(text(o.tier) ? { tier: text(o.tier) } : {}),
    ...(text(o.scope) ? { scope: text(o.scope) } : {}),
    ...(list(o.entities) ? { entities: list(o.entities) } : {}),
    ...(typeof o.confidence === 'number' ? { confidence: o.confidence } : {}),
    ...(Object.keys(provenance).length > 0 ? { provenance } : {}),
    ...(list(o.supersedes) ? { supersedes: list(o.supersedes) } : {}),
  };
}

/** The deepest nesting a JSON answer may have; proposals need 4 (array, item, provenance, value). */
export const MAX_JSON_DEPTH = 32;

/** The nesting depth of a parsed JSON value, without recursion (a deep value cannot overflow the stack). */
function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function parseJsonProposals(source: string): Proposal[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return undefined;
  }
  if (jsonDepth(value) > MAX_JSON_DEPTH) {
    throw new EngramError('PARAM_ERROR', `The JSON input nests deeper than ${MAX_JSON_DEPTH} levels`, {
      hint: 'Give a flat array of {"title", "content", "type", "tags"} objects; nothing was stored.',
      details: { max_depth: MAX_JSON_DEPTH },
    });
  }
  const container = value as Record<string, unknown> | null;
  const array = Array.isArray(value)
    ? value
    : (container?.proposals ?? container?.items ?? container?.memories) as unknown;
  const candidates = Array.isArray(array) ? array : [value];
  const proposals = candidates.map(fromJson);
  return proposals.length > 0 && proposals.every((p) => p !== undefined) ? (proposals as Proposal[]) : undefined;
}

/** Field lines at the top of a block or section, then the rest as content. */
function fromFields(body: string, defaults: Partial<Proposal> = {}): Proposal | undefined {
  const proposal: Partial<Proposal> = { ...defaults };
  const lines = body.split('\n');
  const rest: string[] = [];
  let inFields = true;
  for (const line of lines) {
    const m = inFields ? FIELD.exec(line) : null;
    if (m) {
      const [, rawName = '', value = ''] = m;
      const name = rawName.toLowerCase();
      if (name === 'title') proposal.title = value;
      else if (name === 'type') proposal.type = value.toLowerCase();
      else if (name === 'tag' || name === 'tags') proposal.tags = list(value.replace(/[[\]`]/g, ''));
      else if (name === 'tier') proposal.tier = value.toLowerCase();
      else if (name === 'scope') proposal.scope = value;
      else if (name === 'confidence' && Number.isFinite(Number(value))) proposal.confidence = Number(value);
      continue;
    }
    if (inFields && line.trim() === '' && rest.length === 0) continue;
    inFields = false;
    rest.push(line);
  }
  const content = rest.join('\n').trim();
  return content === '' ? undefined : { ...proposal, content };
}

function attributes(source: string): Partial<Proposal> {
  const out: Partial<Proposal> = {};
  for (const m of source.matchAll(/(\w+)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
    const value = m[3] ?? m[4] ?? '';
    const name = (m[1] ?? '').toLowerCase();
    if (name === 'title') out.title = value;
    else if (name === 'type') out.type = value.toLowerCase();
    else if (name === 'tags') out.tags = list(value);
    else if (name === 'tier') out.tier = value.toLowerCase();
    else if (name === 'scope') out.scope = value;
  }
  return out;
}

function parseBlocks(source: string): Proposal[] {
  const found: { at: number; proposal: Proposal | undefined }[] = [];
  for (const m of source.matchAll(/<memory\b([^>]*)>([\s\S]*?)<\/memory>/gi)) {
    found.push({ at: m.index, proposal: fromFields(m[2] ?? '', attributes(m[1] ?? '')) });
  }
  for (const m of source.matchAll(/^```[ \t]*memory\b([^\n]*)\n([\s\S]*?)^```[ \t]*$/gim)) {
    found.push({ at: m.index, proposal: fromFields(m[2] ?? '', attributes(m[1] ?? '')) });
  }
  return found
    .sort((a, b) => a.at - b.at)
    .flatMap((f) => (f.proposal === undefined ? [] : [f.proposal]));
}

function parseSections(source: string): Proposal[] {
  const headings = [...source.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)];
  const proposals: Proposal[] = [];
  headings.forEach((heading, i) => {
    const start = heading.index + heading[0].length;
    const end = headings[i + 1]?.index ?? source.length;
    const body = source.slice(start, end);
    if (!body.split('\n').some((line) => FIELD.test(line))) return;
    const proposal = fromFields(body.replace(/^\n+/, ''), { title: heading[1]?.trim() });
    if (proposal !== undefined) proposals.push(proposal);
  });
  return proposals;
}

/**
 * The fallback note, cut into parts the policy accepts when the answer is long (paragraph-aware,
 * as ingest does): a long answer is stored whole, never refused for its size.
 */
export function splitLongNote(content: string, title: string | undefined): Proposal[] {
  const parts = chunkText(content, { maxChars: MAX_CONTENT_CHARS });
  if (parts.length <= 1) return [{ content, ...(title ? { title } : {}) }];
  return parts.map((part, i) => ({
    content: part.content.trim(),
    ...(title ? { title: `${title} (${i + 1}/${parts.length})` } : {}),
  }));
}

/**
 * The proposals in an LLM's answer, and the format they were found in.
 *
 * @example
 * parseProposals('[{"title":"Auth","content":"We use JWT","type":"decision"}]').format; // 'json'
 */
export function parseProposals(source: string): ParsedProposals {
  const trimmed = source.trim();
  const json = parseJsonProposals(trimmed);
  if (json) return { format: 'json', proposals: json };
  for (const m of trimmed.matchAll(/^```[ \t]*json[^\n]*\n([\s\S]*?)^```[ \t]*$/gim)) {
    const fenced = parseJsonProposals((m[1] ?? '').trim());
    if (fenced) return { format: 'json', proposals: fenced };
  }
  const blocks = parseBlocks(trimmed);
  if (blocks.length > 0) return { format: 'blocks', proposals: blocks };
  const sections = parseSections(trimmed);
  if (sections.length > 0) return { format: 'sections', proposals: sections };
  return { format: 'text', proposals: trimmed === '' ? [] : [{ content: trimmed }] };
}

/** `memory_propose`: an agent's proposals, each admitted by the write policy (provenance required). */
import { z } from 'zod';
import { EngramError } from '../../errors.js';
import { provenanceHint } from '../../ingest/proposals.js';
import { pullResult } from './results.js';
import { scopeParam, text, whereTo, workspaceParam } from './params.js';
import { defineTool, WRITE } from './tool.js';

const input = z.strictObject({
  items: z
    .union([z.string().max(200_000), z.array(z.looseObject({})).max(100)])
    .describe('array (or its JSON) of {title, content, type, tags, provenance_hint, why_store, supersedes}'),
  scope: scopeParam.optional(),
  workspace: workspaceParam.optional(),
  source_doc: text.optional().describe('their source document, when they give none'),
});

/** Any object (an array too, as a proposal given as one is spread like an object). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function proposalsFrom(value: string | unknown[]): unknown[] {
  if (Array.isArray(value)) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed)) return parsed;
    if (typeof parsed === 'object' && parsed !== null) return [parsed];
  } catch {
    // reported below
  }
  throw new EngramError('PARAM_ERROR', 'items is not a JSON array of proposals', {
    hint: 'Give [{"title", "content", "type", "tags", "provenance_hint": {"source_id", "source_kind"}}].',
  });
}

/** A proposal with `source_doc` as its provenance, unless it names its own source. */
function fromDocument(proposal: unknown, sourceDoc: string | undefined): unknown {
  if (sourceDoc === undefined || !isRecord(proposal)) return proposal;
  const hint = provenanceHint(proposal.provenance_hint ?? proposal.provenance);
  return { ...proposal, provenance_hint: { source_id: sourceDoc, source_kind: 'doc', ...hint } };
}

export const memoryPropose = defineTool({
  name: 'memory_propose',
  title: 'Propose memories',
  description:
    'Stores knowledge that outlives the session (decisions and reasons, constraints, definitions, facts, patterns), '
    + 'one idea per proposal, with its source: "provenance_hint": {"source_id": "docs/auth.md", "source_kind": "doc"} '
    + 'or "provenance_hint": "docs/auth.md". No source, or instruction-like text: quarantined (out of recall; the '
    + 'entry says why). Secrets, injection: rejected. "supersedes": [ids] replaces those in recall. 10 per turn at most.',
  input,
  output: pullResult,
  annotations: WRITE,
  async run(args, context) {
    const proposals = proposalsFrom(args.items).map((p) => fromDocument(p, args.source_doc));
    for (const p of proposals) {
      if (isRecord(p) && typeof p.content === 'string') context.limiter.checkContent(p.content);
    }
    context.limiter.propose(context.sessionKey, proposals.length);
    const { scope: where } = await whereTo(context, args);
    const result = await context.engram.propose(proposals, { scope: where });
    return { structured: { ...result } };
  },
});

/**
 * Every `memory_*` MCP tool (KOAS §3, mem-context's forget and review): a name, a title, a
 * description written for a model, zod input and output schemas, annotations, and a thin `run`
 * over the same facade the CLI uses. No memory logic lives here; this module does not import the
 * MCP SDK, so it can be listed and tested without it.
 */
import { z } from 'zod';
import type { Engram } from '../engram.js';
import { EngramError } from '../errors.js';
import { parseProposals, provenanceHint } from '../ingest/proposals.js';
import { visibleText } from '../recall/escape-block.js';
import { ITEM_TYPES, LINK_TYPES, type Secrecy, TIER_ALIASES, TIERS } from '../types.js';
import type { RateLimiter } from './limiter.js';
import type { MetricsCollector } from './metrics.js';

export interface ToolContext {
  engram: Engram;
  limiter: RateLimiter;
  metrics: MetricsCollector;
  /** The limiter bucket of this connection's core tools (KOAS's shared "mcp" bucket). */
  sessionKey: string;
  /** Default recall budget (`--inject-budget`). */
  budget: number;
  secrecy?: Secrecy;
  /**
   * `engram serve --trust-writes`: memory_write skips the quarantine rules and the provenance
   * requirement. Off by default: a model calls memory_write, so it is judged like memory_propose.
   */
  trustWrites?: boolean;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

export interface ToolOutput {
  structured: Record<string, unknown>;
  /** The text content; the structured result as JSON unless given (recall gives its block). */
  text?: string;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  /** False only for memory_metrics (KOAS: observability is never limited). */
  rateLimited: boolean;
  /** Session bridge tools are limited per `session_id`, not on the connection's shared bucket. */
  bucket?: (args: Record<string, unknown>, context: ToolContext) => string;
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolOutput>;
}

function tool<I extends z.ZodObject, O extends z.ZodObject>(definition: {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: Omit<ToolAnnotations, 'openWorldHint'>;
  rateLimited?: boolean;
  bucket?: (args: z.output<I>, context: ToolContext) => string;
  run(args: z.output<I>, context: ToolContext): Promise<ToolOutput>;
}): Tool {
  return {
    ...definition,
    annotations: { ...definition.annotations, openWorldHint: false },
    rateLimited: definition.rateLimited ?? true,
    bucket: definition.bucket as Tool['bucket'],
    run: definition.run as Tool['run'],
  };
}

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false };
const IDEMPOTENT_WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: true };
const DESTRUCTIVE = { readOnlyHint: false, destructiveHint: true, idempotentHint: true };

// ---- shared schemas --------------------------------------------------------------------------

const text = z.string().max(1000);
const tierName = z.enum([...TIERS, ...Object.keys(TIER_ALIASES)] as [string, ...string[]]);
const tier = tierName.describe('stm, mtm or ltm (episodic, semantic, permanent accepted)');
const itemType = z.enum(ITEM_TYPES);
const workspace = text.min(1).describe('named workspace (see memory_workspace_list); overrides scope');
const scope = text.min(1).describe('memory scope, e.g. project');
const itemId = z.string().min(1).max(200);
const tagList = z
  .union([z.array(z.string().max(200)).max(100), z.string().max(5000)])
  .describe('tags, as an array or comma-separated');

const item = z
  .looseObject({
    id: z.string(),
    title: z.string(),
    content: z.string(),
    type: z.string(),
    tier: z.string(),
    tags: z.array(z.string()),
    scope: z.string(),
    version: z.number(),
    injectable: z.boolean(),
    quarantined: z.boolean(),
    archived: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .describe('a memory item');
const policy = z.looseObject({ verdict: z.enum(['accept', 'quarantine', 'reject']), matches: z.array(z.looseObject({})) });
const putResult = z.looseObject({
  action: z.enum(['created', 'updated', 'unchanged']),
  mode: z.string(),
  item,
  policy,
});
const pullResult = z.looseObject({
  format: z.string(),
  proposals: z.number(),
  stored: z.number(),
  quarantined: z.number(),
  rejected: z.number(),
  items: z.array(z.looseObject({ index: z.number(), status: z.enum(['stored', 'quarantined', 'rejected']) })),
});
const entry = z.looseObject({ id: z.string(), title: z.string(), type: z.string(), tier: z.string() });
const recallResult = z.looseObject({
  inject_text: z.string(),
  query: z.string(),
  mode: z.string(),
  format_version: z.literal(1),
  budget: z.number(),
  matched: z.number(),
  tokens_used: z.number(),
  injected: z.array(entry),
  catalog: z.array(entry),
});
const workspaceRow = z.looseObject({
  name: z.string(),
  scope: z.string(),
  corpus_id: z.string(),
  description: z.string(),
});
const toolMetrics = z.looseObject({
  tool_name: z.string(),
  call_count: z.number(),
  error_count: z.number(),
  total_latency_ms: z.number(),
  avg_latency_ms: z.number(),
  p95_latency_ms: z.number(),
  last_call_at: z.string().nullable(),
});

function tagsOf(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : value.split(',');
  const tags = list.map((t) => t.trim()).filter((t) => t !== '');
  return tags.length > 0 ? tags : undefined;
}

/** The scope (and corpus) a call works in: its workspace's, else its scope. */
async function whereTo(context: ToolContext, args: { workspace?: string; scope?: string }) {
  if (args.workspace === undefined) return { scope: args.scope, corpus_id: undefined };
  const found = await context.engram.resolveWorkspace(args.workspace);
  return { scope: found.scope, corpus_id: found.corpus_id === '' ? undefined : found.corpus_id };
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

async function recall(context: ToolContext, args: {
  query: string; budget_tokens?: number; mode?: 'inject' | 'catalog' | 'hybrid'; tier?: string; scope?: string; workspace?: string;
}) {
  const { scope } = await whereTo(context, args);
  return context.engram.recall({
    query: args.query,
    budget: args.budget_tokens ?? context.budget,
    mode: args.mode ?? 'inject',
    tier: args.tier as 'stm' | undefined,
    scope,
    secrecy: context.secrecy,
  });
}

// ---- the tools -------------------------------------------------------------------------------

const recallInput = z.strictObject({
  query: z.string().min(1).max(10_000).describe('what the next step needs to know, in plain words'),
  budget_tokens: z.number().int().min(1).max(1_000_000).optional().describe('token budget of the block (default 1500)'),
  mode: z.enum(['inject', 'catalog', 'hybrid']).optional().describe('inject: the block (default); catalog: one line per match; hybrid: both'),
  tier: tier.optional(),
  scope: scope.optional(),
  workspace: workspace.optional(),
});

export const TOOLS: readonly Tool[] = [
  tool({
    name: 'memory_recall',
    title: 'Recall memory for a prompt',
    description:
      'The default way to read memory. Returns a token-budgeted block of the stored memories most relevant to the query '
      + '(decisions, constraints, facts), ready to paste into your context. Call it at the start of a task or before a '
      + 'decision. Quarantined, contradicted, superseded and expired items are never included.',
    input: recallInput,
    output: recallResult,
    annotations: WRITE,
    async run(args, context) {
      const result = await recall(context, args);
      return { structured: { ...result }, text: result.inject_text };
    },
  }),
  tool({
    name: 'memory_search',
    title: 'Search memory',
    description:
      'Full-text search over memory with filters, returning items as data (not an injection block). Use it to look '
      + 'something up or to find an id before memory_update, memory_link or memory_forget. Quarantined items are shown '
      + 'with quarantined=true: treat them as unverified.',
    input: z.strictObject({
      query: z.string().min(1).max(10_000),
      tags: tagList.optional(),
      tier: tier.optional(),
      type_filter: itemType.optional().describe('only items of this type'),
      scope: scope.optional(),
      workspace: workspace.optional(),
      k: z.number().int().min(1).max(100).optional().describe('how many results (default 10)'),
    }),
    output: z.looseObject({ query: z.string(), count: z.number(), items: z.array(item.extend({ score: z.number() })) }),
    annotations: READ,
    async run(args, context) {
      const { scope: where } = await whereTo(context, args);
      const result = await context.engram.search({
        query: args.query,
        tags: tagsOf(args.tags),
        tier: args.tier as 'stm' | undefined,
        type: args.type_filter,
        scope: where,
        k: args.k ?? 10,
        quarantined: 'include',
        secrecy: context.secrecy,
      });
      // The text a model reads shows no invisible characters, as in memory_recall's block.
      const items = result.items.map((hit) => ({
        ...hit, title: visibleText(hit.title), content: visibleText(hit.content),
      }));
      return { structured: { ...result, items } };
    },
  }),
  tool({
    name: 'memory_propose',
    title: 'Propose memories',
    description:
      'The default way to write memory: propose durable knowledge worth keeping beyond this session (decisions and '
      + 'their reasons, constraints, definitions, facts, patterns). Each proposal passes the write policy: secrets and '
      + 'prompt injection are rejected; instruction-like text and proposals without provenance_hint are quarantined '
      + '(stored, never recalled until verified; the entry says why and what would have avoided it). Say where each '
      + 'one comes from: "provenance_hint": {"source_id": "docs/auth.md", "source_kind": "doc"}, or just '
      + '"provenance_hint": "docs/auth.md". A summary that replaces stored memories lists them in "supersedes": [ids] '
      + '(recall then uses it instead). At most 10 proposals per turn.',
    input: z.strictObject({
      items: z
        .union([z.string().max(200_000), z.array(z.looseObject({})).max(100)])
        .describe(
          'JSON array of {title, content, type, tags, provenance_hint, why_store, supersedes}; provenance_hint is '
          + '{"source_id": "docs/auth.md", "source_kind": "doc"} or a string taken as the source_id',
        ),
      scope: scope.optional(),
      workspace: workspace.optional(),
      source_doc: text.optional().describe('the document these come from, recorded as provenance'),
    }),
    output: pullResult,
    annotations: WRITE,
    async run(args, context) {
      const proposals = proposalsFrom(args.items).map((p) => {
        if (args.source_doc === undefined || typeof p !== 'object' || p === null) return p;
        const o = p as Record<string, unknown>;
        const hint = provenanceHint(o.provenance_hint ?? o.provenance);
        return { ...o, provenance_hint: { source_id: args.source_doc, source_kind: 'doc', ...hint } };
      });
      for (const p of proposals) {
        const content = (p as { content?: unknown }).content;
        if (typeof content === 'string') context.limiter.checkContent(content);
      }
      context.limiter.propose(context.sessionKey, proposals.length);
      const { scope: where } = await whereTo(context, args);
      const result = await context.engram.propose(proposals, { scope: where });
      return { structured: { ...result } };
    },
  }),
  tool({
    name: 'memory_write',
    title: 'Write a memory',
    description:
      'Direct write of one memory at any tier, for setup and administration; prefer memory_propose in normal work. '
      + 'It passes the same write policy as memory_propose: secrets and prompt injection are rejected; instruction-like '
      + 'text, personal data and writes without provenance ({"source_id": …}) are quarantined — unless the server was '
      + 'started with --trust-writes, which skips the quarantine rules (never the reject rules). An exact duplicate in '
      + 'the scope reinforces the existing item instead (deduplicated=true).',
    input: z.strictObject({
      content: z.string().min(1),
      title: text.optional(),
      type: itemType.optional(),
      tags: tagList.optional(),
      tier: tier.optional(),
      scope: scope.optional(),
      workspace: workspace.optional(),
      entities: z.array(z.string().max(200)).max(100).optional(),
      confidence: z.number().min(0).max(1).optional(),
      provenance: z.record(z.string(), z.unknown()).optional(),
      injectable: z.boolean().optional(),
    }),
    output: putResult,
    annotations: WRITE,
    async run(args, context) {
      context.limiter.checkContent(args.content);
      const { workspace: _w, tags, tier: t, ...fields } = args;
      const where = await whereTo(context, args);
      const result = await context.engram.put(
        { ...fields, tags: tagsOf(tags), tier: t as 'stm' | undefined, scope: where.scope, corpus_id: where.corpus_id },
        context.trustWrites === true ? { privileged: true } : { asProposal: true },
      );
      return { structured: { ...result } };
    },
  }),
  tool({
    name: 'memory_read',
    title: 'Read memories by id',
    description: 'Reads memory items by id, with every field. Ids that do not exist are listed in missing.',
    input: z.strictObject({ ids: z.array(itemId).min(1).max(100) }),
    output: z.looseObject({ items: z.array(item), missing: z.array(z.string()) }),
    annotations: READ,
    async run(args, context) {
      const items: Record<string, unknown>[] = [];
      const missing: string[] = [];
      for (const id of args.ids) {
        try {
          items.push({ ...(await context.engram.show(id, { secrecy: context.secrecy })).item });
        } catch (error) {
          if (error instanceof EngramError && error.code === 'NOT_FOUND') missing.push(id);
          else throw error;
        }
      }
      return { structured: { items, missing } };
    },
  }),
  tool({
    name: 'memory_update',
    title: 'Update a memory',
    description:
      'Changes fields of one item (title, content, type, tags, tier, confidence, validation, injectable, weight, '
      + 'expires_at, …) as a new version; the write policy applies again. Set validation=contradicted to keep an item '
      + 'out of recall. if_version makes the write fail with CONFLICT when someone changed the item meanwhile.',
    input: z.strictObject({
      id: itemId,
      fields: z.record(z.string(), z.unknown()).describe('the fields to change, e.g. {"tags": ["auth"], "confidence": 0.9}'),
      if_version: z.number().int().min(0).optional(),
    }),
    output: putResult,
    annotations: IDEMPOTENT_WRITE,
    async run(args, context) {
      const content = args.fields.content;
      if (typeof content === 'string') context.limiter.checkContent(content);
      const result = await context.engram.update(args.id, { ...args.fields, if_version: args.if_version } as never);
      return { structured: { ...result } };
    },
  }),
  tool({
    name: 'memory_link',
    title: 'Link two memories',
    description:
      'Records a typed link from src_id to dst_id: supersedes (dst is outdated and leaves recall), contradicts, '
      + 'supports, derived_from or related.',
    input: z.strictObject({ src_id: itemId, dst_id: itemId, type: z.enum(LINK_TYPES) }),
    output: z.looseObject({
      created: z.boolean(),
      link: z.looseObject({ src_id: z.string(), dst_id: z.string(), type: z.string() }),
    }),
    annotations: IDEMPOTENT_WRITE,
    async run(args, context) {
      return { structured: { ...(await context.engram.link(args)) } };
    },
  }),
  tool({
    name: 'memory_forget',
    title: 'Forget a memory',
    description: 'Forgets one item: archived, weight 0, never recalled again. Its history stays for audit.',
    input: z.strictObject({ id: itemId }),
    output: z.looseObject({ id: z.string(), action: z.string(), item }),
    annotations: DESTRUCTIVE,
    async run(args, context) {
      return { structured: { ...(await context.engram.forget(args.id)) } };
    },
  }),
  tool({
    name: 'memory_review',
    title: 'Review flagged memories',
    description:
      'Lists what needs a human or agent decision: quarantined items (with the rules that held them), contradicted '
      + 'items, items expiring soon, and possible contradictions (two memories saying the same thing with other '
      + 'values, e.g. "differs in: 5432 → 5433"; fix one with memory_update or link them).',
    input: z.strictObject({
      within_hours: z.number().int().min(0).max(24 * 365).optional().describe('expiry window (default 24)'),
      limit: z.number().int().min(1).max(500).optional(),
    }),
    output: z.looseObject({
      quarantined: z.array(z.looseObject({})),
      contradicted: z.array(item),
      expiring: z.array(item),
      possible_contradictions: z.array(z.looseObject({ items: z.array(item), differs_in: z.array(z.string()) })),
      within_hours: z.number(),
    }),
    annotations: READ,
    async run(args, context) {
      const report = await context.engram.review({ withinHours: args.within_hours, limit: args.limit });
      return { structured: { ...report } };
    },
  }),
  tool({
    name: 'memory_consolidate',
    title: 'Consolidate memory',
    description:
      'run (default): folds short-term items that another item already says in full (duplicates) into one '
      + 'medium-term item each, losing no text, and promotes qualifying items to long-term, deterministically. dry_run: '
      + 'the plan only. candidates: related memories for you to merge yourself, each group with a ready prompt; store '
      + 'your answer with memory_propose, giving "supersedes": [ids it replaces].',
    input: z.strictObject({
      mode: z.enum(['run', 'dry_run', 'candidates']).optional(),
      scope: scope.optional(),
      workspace: workspace.optional(),
    }),
    output: z.looseObject({}),
    annotations: DESTRUCTIVE,
    async run(args, context) {
      const { scope: where } = await whereTo(context, args);
      const mode = args.mode ?? 'run';
      if (mode === 'candidates') {
        return { structured: { mode, ...(await context.engram.consolidationCandidates({ scope: where })) } };
      }
      return { structured: { mode, ...(await context.engram.consolidate({ dryRun: mode === 'dry_run', scope: where })) } };
    },
  }),
  tool({
    name: 'memory_stats',
    title: 'Memory statistics',
    description: 'Item counts by tier, type, layer and scope, archived and quarantined counts, schema version and size.',
    input: z.strictObject({ workspace: workspace.optional() }),
    output: z.looseObject({
      total: z.number(),
      active: z.number(),
      quarantined: z.number(),
      by_tier: z.record(z.string(), z.number()),
    }),
    annotations: READ,
    async run(args, context) {
      const stats = await context.engram.stats();
      if (args.workspace === undefined) return { structured: { ...stats } };
      const found = await context.engram.resolveWorkspace(args.workspace);
      const live = await context.engram.palace({ scope: found.scope });
      return { structured: { ...stats, workspace: { ...found, by_tier: live.counts ?? {} } } };
    },
  }),
  tool({
    name: 'memory_session_inject',
    title: 'Start a turn with memory',
    description:
      'Session bridge, called at the START of each turn (e.g. from a hook): starts a new turn for session_id (the '
      + 'proposal cap resets) and returns system_context augmented with the memory block for the query.',
    input: z.strictObject({
      query: z.string().min(1).max(10_000),
      session_id: text.min(1),
      system_context: z.string().max(200_000).optional(),
      budget_tokens: z.number().int().min(1).max(1_000_000).optional(),
    }),
    output: z.looseObject({
      session_id: z.string(),
      turn: z.number(),
      augmented_context: z.string(),
      inject_text: z.string(),
      matched: z.number(),
      injected: z.array(entry),
    }),
    annotations: WRITE,
    bucket: (args, context) => `${context.sessionKey}/${args.session_id}`,
    async run(args, context) {
      const turn = context.limiter.newTurn(`${context.sessionKey}/${args.session_id}`);
      context.limiter.newTurn(context.sessionKey);
      const result = await recall(context, { query: args.query, budget_tokens: args.budget_tokens });
      const parts = [args.system_context ?? '', result.inject_text].filter((p) => p !== '');
      return {
        structured: {
          session_id: args.session_id,
          turn,
          augmented_context: parts.join('\n\n'),
          inject_text: result.inject_text,
          matched: result.matched,
          injected: result.injected,
        },
      };
    },
  }),
  tool({
    name: 'memory_session_store',
    title: 'End a turn: store what it taught',
    description:
      'Session bridge, called at the END of each turn: extracts the memory proposals written in response_text (a JSON '
      + 'array, <memory> blocks, ```memory fences or Title:/Type:/Tags: sections) and stores them through the write '
      + 'policy. Plain prose without proposals stores nothing.',
    input: z.strictObject({
      response_text: z.string().max(500_000),
      session_id: text.min(1),
      scope: scope.optional(),
      workspace: workspace.optional(),
    }),
    output: pullResult,
    annotations: WRITE,
    bucket: (args, context) => `${context.sessionKey}/${args.session_id}`,
    async run(args, context) {
      const { format, proposals } = parseProposals(args.response_text);
      if (format === 'text') {
        return { structured: { format, proposals: 0, stored: 0, quarantined: 0, rejected: 0, items: [] } };
      }
      for (const p of proposals) context.limiter.checkContent(p.content);
      context.limiter.propose(`${context.sessionKey}/${args.session_id}`, proposals.length);
      const { scope: where } = await whereTo(context, args);
      const result = await context.engram.pull(args.response_text, { scope: where });
      return { structured: { ...result } };
    },
  }),
  tool({
    name: 'memory_workspace_list',
    title: 'List workspaces',
    description: 'Named workspaces: name → scope and corpus id. Pass workspace=NAME to recall, search, propose, write, consolidate or stats.',
    input: z.strictObject({}),
    output: z.looseObject({ workspaces: z.array(workspaceRow) }),
    annotations: READ,
    async run(_args, context) {
      return { structured: { workspaces: await context.engram.workspaces() } };
    },
  }),
  tool({
    name: 'memory_workspace_register',
    title: 'Register a workspace',
    description: 'Creates or updates a named workspace (scope defaults to the name). The default workspace is protected.',
    input: z.strictObject({
      name: text.min(1),
      scope: scope.optional(),
      corpus_id: text.optional(),
      description: text.optional(),
    }),
    output: z.looseObject({ created: z.boolean(), workspace: workspaceRow }),
    annotations: IDEMPOTENT_WRITE,
    async run(args, context) {
      return { structured: { ...(await context.engram.registerWorkspace(args)) } };
    },
  }),
  tool({
    name: 'memory_workspace_remove',
    title: 'Remove a workspace',
    description: 'Removes a named workspace; its memories stay. The default workspace cannot be removed.',
    input: z.strictObject({ name: text.min(1) }),
    output: z.looseObject({ removed: workspaceRow }),
    annotations: DESTRUCTIVE,
    async run(args, context) {
      return { structured: { ...(await context.engram.removeWorkspace(args.name)) } };
    },
  }),
  tool({
    name: 'memory_metrics',
    title: 'Server metrics',
    description:
      'Per-tool call counts, errors and latency (average, p95), the rate limiter state and uptime. Never rate-limited. '
      + 'With tool_name, that tool only.',
    input: z.strictObject({ tool_name: text.optional() }),
    output: z.looseObject({}),
    annotations: READ,
    rateLimited: false,
    async run(args, context) {
      if (args.tool_name !== undefined) {
        return { structured: { metrics: toolMetrics.parse(context.metrics.tool(args.tool_name)) } };
      }
      return { structured: { ...context.metrics.summary(), rate_limiter: context.limiter.state(context.sessionKey) } };
    },
  }),
  tool({
    name: 'memory_palace_list',
    title: 'Browse the memory palace',
    description:
      'Browses live memory as a hierarchy: workspace → tier → type → tag. With no tier, counts per tier; with a tier, '
      + 'counts per type; with a type too, counts per tag; with a tag, the items there.',
    input: z.strictObject({
      workspace: workspace.optional(),
      scope: scope.optional(),
      tier: tier.optional(),
      type: itemType.optional(),
      tag: z.string().max(200).optional(),
      limit: z.number().int().min(1).max(500).optional(),
    }),
    output: z.looseObject({ level: z.enum(['tier', 'type', 'tag', 'items']), path: z.looseObject({}) }),
    annotations: READ,
    async run(args, context) {
      const { scope: where } = await whereTo(context, args);
      if (args.type !== undefined && args.tier === undefined) {
        throw new EngramError('PARAM_ERROR', 'type needs tier: the palace goes tier → type → tag');
      }
      const result = await context.engram.palace({
        scope: where,
        tier: args.tier as 'stm' | undefined,
        type: args.type,
        tag: args.tag,
        limit: args.limit,
      });
      return { structured: { workspace: args.workspace ?? null, ...result } };
    },
  }),
  tool({
    name: 'memory_palace_get',
    title: 'Get a memory with its palace location',
    description: 'One item with where it sits in the palace: workspace, tier, type and tags, and its links.',
    input: z.strictObject({ id: itemId }),
    output: z.looseObject({
      item,
      location: z.looseObject({ workspace: z.string().nullable(), tier: z.string(), type: z.string() }),
    }),
    annotations: READ,
    async run(args, context) {
      const shown = await context.engram.show(args.id, { secrecy: context.secrecy });
      const home = (await context.engram.workspaces()).find((w) => w.scope === shown.item.scope);
      const location = {
        workspace: home?.name ?? null,
        scope: shown.item.scope,
        tier: shown.item.tier,
        type: shown.item.type,
        tags: shown.item.tags,
      };
      return { structured: { item: shown.item, location, links: shown.links } };
    },
  }),
];

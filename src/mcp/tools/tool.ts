/**
 * What a `memory_*` tool is: a name, a title, a description written for a model, zod input and
 * output schemas, annotations, and a thin `run` over the same facade the CLI uses. This module
 * does not import the MCP SDK, so the tools can be listed and tested without it.
 */
import type { z } from 'zod';
import type { Engram } from '../../engram.js';
import type { Secrecy } from '../../types.js';
import type { RateLimiter } from '../limiter.js';
import type { MetricsCollector } from '../metrics.js';

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

/**
 * One tool. `run` and `bucket` receive the input as `input` parsed it; they are methods, so a
 * `Tool<typeof someSchema>` is a `Tool` (the server parses with the tool's own `input` first).
 */
export interface Tool<I extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  /** False only for memory_metrics (KOAS: observability is never limited). */
  rateLimited: boolean;
  /** Session bridge tools are limited per `session_id`, not on the connection's shared bucket. */
  bucket?(args: z.output<I>, context: ToolContext): string;
  run(args: z.output<I>, context: ToolContext): Promise<ToolOutput>;
}

/** A tool as written in its file: annotations without the constant `openWorldHint`, limits on by default. */
export interface ToolDefinition<I extends z.ZodObject> extends Omit<Tool<I>, 'annotations' | 'rateLimited'> {
  annotations: Omit<ToolAnnotations, 'openWorldHint'>;
  rateLimited?: boolean;
}

/**
 * A tool from its definition: every engram tool is closed-world and rate-limited unless it says not.
 *
 * @example
 * export const memoryForget = defineTool({ name: 'memory_forget', input, output, annotations: DESTRUCTIVE, … });
 */
export function defineTool<I extends z.ZodObject>(definition: ToolDefinition<I>): Tool<I> {
  return {
    ...definition,
    annotations: { ...definition.annotations, openWorldHint: false },
    rateLimited: definition.rateLimited ?? true,
  };
}

export const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };
export const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false };
export const IDEMPOTENT_WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: true };
export const DESTRUCTIVE = { readOnlyHint: false, destructiveHint: true, idempotentHint: true };

/**
 * The tools as `tools/list` gives them, and the tools a server serves. Every agent session reads
 * this list before its first question, so the JSON Schemas drawn from the zod schemas lose what
 * says nothing: `$schema` (the dialect is plain draft-07 either way), `additionalProperties: {}`
 * and `properties: {}` (an object already allows any key), `propertyNames: {type: string}` (keys
 * are strings) and the ±2^53 bounds zod gives every integer. `additionalProperties: false`, every
 * enum, length and range stays: input schemas are as strict as the zod schemas that parse the call.
 * Annotations leave out what the protocol already implies: a read-only tool's destructive and
 * idempotent hints (meaningful only when a tool writes), and `readOnlyHint: false` and
 * `idempotentHint: false` (the defaults). `destructiveHint` is always given for a tool that writes.
 */
import { z } from 'zod';
import type { Tool } from './tools/index.js';

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema: { type: 'object'; [key: string]: unknown };
  annotations: ListedAnnotations;
}

/** The hints as listed: `openWorldHint` always; read-only, or whether a write destroys and repeats safely. */
export type ListedAnnotations
  = | { readOnlyHint: true; openWorldHint: false }
    | { destructiveHint: boolean; idempotentHint?: true; openWorldHint: false };

/** The tools one server serves: as listed, and by name for calls. */
export interface ServedTools {
  list: readonly ListedTool[];
  byName: ReadonlyMap<string, Tool>;
}

/** Keywords whose value maps names to schemas. */
const NAMED_SCHEMAS: ReadonlySet<string> = new Set(['properties', 'definitions', '$defs']);

const isEmptyObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

const isStringType = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && Object.keys(value).length === 1 && (value as { type?: unknown }).type === 'string';

/**
 * A JSON Schema without the keys that change nothing it accepts (see the module header).
 *
 * @example
 * compactSchema({ type: 'object', properties: {}, additionalProperties: {} }); // { type: 'object' }
 */
export function compactSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compactSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    if ((key === 'additionalProperties' || key === 'properties') && isEmptyObject(value)) continue;
    if (key === 'propertyNames' && isStringType(value)) continue;
    if ((key === 'maximum' || key === 'minimum') && Math.abs(Number(value)) === Number.MAX_SAFE_INTEGER) continue;
    // Under these the keys are names, not keywords: only their values are compacted.
    out[key] = NAMED_SCHEMAS.has(key) ? mapValues(value, compactSchema) : compactSchema(value);
  }
  return out;
}

function mapValues(value: unknown, fn: (v: unknown) => unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fn(v)]));
}

/**
 * A zod object schema as the compact JSON Schema a client reads. An output schema gives a part it
 * uses twice (an item in two lists) once, under `definitions`; an input schema stays inline, as
 * some model providers read no `$ref`.
 */
function objectSchema(schema: z.ZodObject, io: 'input' | 'output'): { type: 'object'; [key: string]: unknown } {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any', reused: io === 'output' ? 'ref' : 'inline' });
  return { ...(compactSchema(json) as Record<string, unknown>), type: 'object' };
}

/** A tool's hints without those the protocol implies (see the module header). */
function listedAnnotations({ readOnlyHint, destructiveHint, idempotentHint, openWorldHint }: Tool['annotations']): ListedAnnotations {
  if (readOnlyHint) return { readOnlyHint, openWorldHint };
  return idempotentHint ? { destructiveHint, idempotentHint, openWorldHint } : { destructiveHint, openWorldHint };
}

/** One tool as `tools/list` gives it. */
export function listedTool(tool: Tool): ListedTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: objectSchema(tool.input, 'input'),
    outputSchema: objectSchema(tool.output, 'output'),
    annotations: listedAnnotations(tool.annotations),
  };
}

/**
 * The tools a server serves, listed once (the schemas are drawn when the server starts, not per
 * connection).
 *
 * @example
 * servedTools(selectTools('all')).list.length; // every tool
 */
export function servedTools(tools: readonly Tool[]): ServedTools {
  return { list: tools.map(listedTool), byName: new Map(tools.map((t) => [t.name, t])) };
}

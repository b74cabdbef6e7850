/**
 * The MCP protocol side of the server: one low-level SDK `Server` per connection (stdio has one,
 * Streamable HTTP one per session), its tools, prompt and resource, and the tool call path. Tool
 * inputs are validated here with the same zod schemas and PARAM_ERROR as everywhere else, so a
 * failure is an `isError` result carrying the CLI's error object, never a protocol error.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Engram } from '../engram.js';
import { EngramError, toEngramError } from '../errors.js';
import { parseInput } from '../items/parse-input.js';
import type { Secrecy } from '../types.js';
import { VERSION } from '../version.js';
import { MEMORY_GUIDE } from './guide.js';
import { withMcpHint } from './hints.js';
import type { BackgroundEmbedOptions } from './background-embed.js';
import { compatSetOf } from './compat/index.js';
import type { RateLimiter, RateLimits } from './limiter.js';
import type { MetricsCollector } from './metrics.js';
import type { ServedTools } from './tool-list.js';
import { type Tool, type ToolContext, TOOLS } from './tools/index.js';

export interface ServeOptions {
  engram: Engram;
  limits: RateLimits;
  /** Default recall budget for memory_recall and memory_session_inject. */
  budget: number;
  secrecy?: Secrecy;
  /** `--trust-writes`: memory_write skips the quarantine rules and the provenance requirement. */
  trustWrites?: boolean;
  /** One structured JSON line per tool call on stderr (`-v`). */
  log?: (line: Record<string, unknown>) => void;
  /** The background pass over pending vectors: its timing, or false to turn it off. */
  backgroundEmbed?: BackgroundEmbedOptions | false;
  /**
   * The tools served (`--tools`, see `selectTools`, and `--compat`, see `compatTools`); the
   * default profile when not given.
   */
  tools?: readonly Tool[];
}

/** What every connection of one server shares. */
export interface ServerState extends ServeOptions {
  limiter: RateLimiter;
  metrics: MetricsCollector;
  /** Tool calls still running: a closing input waits for their answers. */
  inflight: Set<Promise<unknown>>;
  /** The tools this server lists and answers. */
  served: ServedTools;
  /** The usage guide of the initialize result, for the tools served. */
  instructions: string;
}

const STATS_URI = 'engram://stats';
const ALL_TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((t) => t.name));

/** The error of a call to a tool this server does not serve: one of another profile says how to serve it. */
function unknownTool(name: string): EngramError {
  const compat = compatSetOf(name);
  if (compat !== undefined) {
    return new EngramError('NOT_FOUND', `Tool ${name} is not served by this server`, {
      hint: `tools/list names the tools served; \`engram serve --compat ${compat}\` serves ${name} too.`,
    });
  }
  const known = ALL_TOOL_NAMES.has(name);
  return new EngramError('NOT_FOUND', known ? `Tool ${name} is not served by this server` : `Unknown tool ${name}`, {
    hint: known
      ? `tools/list names the tools served; \`engram serve --tools all\` (or --tools with its name) serves ${name}.`
      : 'tools/list names the tools served.',
  });
}

/** Runs one tool: charged to the client before validation, then to its session bucket if it has one. */
async function runTool(state: ServerState, context: ToolContext, name: string, rawArgs: unknown) {
  const tool = state.served.byName.get(name);
  if (tool === undefined) throw unknownTool(name);
  // A call is a call, valid or not: the client's bucket is charged before validation. Session
  // bridge tools are also charged to their session_id, known only once the input is read (a new
  // session_id per call buys no calls: the client's bucket is charged first).
  if (tool.rateLimited) state.limiter.take(context.sessionKey, name);
  const args = parseInput(tool.input, rawArgs ?? {});
  if (tool.rateLimited && tool.bucket !== undefined) state.limiter.take(tool.bucket(args, context), name);
  return tool.run(args, context);
}

/**
 * One tool call. `sessionKey` is the limiter key of the connection's client (every session of a
 * client shares it); `label` names the connection in the `-v` log.
 */
async function callTool(
  state: ServerState,
  sessionKey: string,
  label: string,
  name: string,
  rawArgs: unknown,
): Promise<CallToolResult> {
  const started = performance.now();
  let failure: EngramError | undefined;
  try {
    const output = await runTool(state, { ...state, sessionKey }, name, rawArgs);
    return {
      content: [{ type: 'text', text: output.text ?? JSON.stringify(output.structured) }],
      structuredContent: output.structured,
    };
  } catch (error) {
    failure = withMcpHint(toEngramError(error), name, state.served.byName);
    // The error object goes in the text: clients check any structuredContent against the success schema.
    return { content: [{ type: 'text', text: JSON.stringify(failure.toJSON()) }], isError: true };
  } finally {
    const latency = performance.now() - started;
    state.metrics.record(name, latency, failure !== undefined);
    state.log?.({
      timestamp: new Date().toISOString(),
      session: label,
      tool: name,
      latency_ms: Math.round(latency * 1000) / 1000,
      status: failure === undefined ? 'ok' : 'error',
      ...(failure === undefined ? {} : { error: failure.code }),
    });
  }
}

/**
 * One SDK server for one connection; its calls are charged to `sessionKey` (the client).
 *
 * @example
 * await createConnectionServer(state, 'stdio').connect(new StdioServerTransport());
 */
export function createConnectionServer(state: ServerState, sessionKey: string, label = sessionKey): Server {
  const server = new Server(
    { name: 'engram', title: 'engram memory', version: VERSION },
    { capabilities: { tools: {}, prompts: {}, resources: {} }, instructions: state.instructions },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...state.served.list] }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const call = callTool(state, sessionKey, label, request.params.name, request.params.arguments);
    state.inflight.add(call);
    void call.finally(() => state.inflight.delete(call));
    return call;
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [{ name: 'memory_guide', title: 'How to use engram memory', description: 'When to recall, propose and write.' }],
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    if (request.params.name !== 'memory_guide') {
      throw new EngramError('NOT_FOUND', `Unknown prompt ${request.params.name}`, { hint: 'The prompt is memory_guide.' });
    }
    return {
      description: 'When to recall, propose and write memory',
      messages: [{ role: 'user', content: { type: 'text', text: MEMORY_GUIDE } }],
    };
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [{ uri: STATS_URI, name: 'stats', title: 'Store statistics', mimeType: 'application/json' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== STATS_URI) {
      throw new EngramError('NOT_FOUND', `Unknown resource ${request.params.uri}`, { hint: `The resource is ${STATS_URI}.` });
    }
    const stats = await state.engram.stats();
    return { contents: [{ uri: STATS_URI, mimeType: 'application/json', text: JSON.stringify(stats, null, 2) }] };
  });
  return server;
}

/** Waits until the tool calls under way have answered. */
export async function drain(state: ServerState): Promise<void> {
  while (state.inflight.size > 0) await Promise.allSettled([...state.inflight]);
}

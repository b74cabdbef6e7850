/**
 * The MCP server: the only module that imports the official MCP SDK (`engram serve` loads it
 * lazily). One low-level SDK `Server` per connection — stdio has one, Streamable HTTP one per
 * session — all sharing the engram store, the metrics and the rate limiter. Tool inputs are
 * validated here with the same zod schemas and PARAM_ERROR as everywhere else, so a failure is an
 * `isError` result carrying the CLI's error object, never a protocol error.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Engram } from '../engram.js';
import { EngramError, toEngramError } from '../errors.js';
import { parseInput } from '../items/parse-input.js';
import type { Secrecy } from '../types.js';
import { VERSION } from '../version.js';
import { RateLimiter, type RateLimits } from './limiter.js';
import { MetricsCollector } from './metrics.js';
import { MEMORY_GUIDE } from './guide.js';
import { type Tool, type ToolContext, TOOLS } from './tools.js';

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
}

/** What every connection of one server shares. */
interface Shared extends ServeOptions {
  limiter: RateLimiter;
  metrics: MetricsCollector;
  /** Tool calls still running: a closing input waits for their answers. */
  inflight: Set<Promise<unknown>>;
}

const TOOL_LIST = TOOLS.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: z.toJSONSchema(t.input, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as { type: 'object' },
  outputSchema: z.toJSONSchema(t.output, { target: 'draft-7', io: 'output', unrepresentable: 'any' }) as { type: 'object' },
  annotations: { title: t.title, ...t.annotations },
}));
const BY_NAME = new Map<string, Tool>(TOOLS.map((t) => [t.name, t]));
const STATS_URI = 'engram://stats';

function shared(options: ServeOptions): Shared {
  return { ...options, limiter: new RateLimiter(options.limits), metrics: new MetricsCollector(), inflight: new Set() };
}

async function callTool(state: Shared, sessionKey: string, name: string, rawArgs: unknown): Promise<CallToolResult> {
  const started = performance.now();
  const context: ToolContext = { ...state, sessionKey };
  let failure: EngramError | undefined;
  try {
    const tool = BY_NAME.get(name);
    if (tool === undefined) {
      throw new EngramError('NOT_FOUND', `Unknown tool ${name}`, { hint: 'tools/list names every memory_* tool.' });
    }
    // A call is a call, valid or not: the shared bucket is charged before validation. Session
    // bridge tools are charged to their session_id, known only once the input is read.
    if (tool.rateLimited && tool.bucket === undefined) state.limiter.take(sessionKey, name);
    const args = parseInput(tool.input, rawArgs ?? {}) as Record<string, unknown>;
    if (tool.rateLimited && tool.bucket !== undefined) state.limiter.take(tool.bucket(args, context), name);
    const output = await tool.run(args, context);
    return {
      content: [{ type: 'text', text: output.text ?? JSON.stringify(output.structured) }],
      structuredContent: output.structured,
    };
  } catch (error) {
    failure = toEngramError(error);
    // The error object goes in the text: clients check any structuredContent against the success schema.
    return { content: [{ type: 'text', text: JSON.stringify(failure.toJSON()) }], isError: true };
  } finally {
    const latency = performance.now() - started;
    state.metrics.record(name, latency, failure !== undefined);
    state.log?.({
      timestamp: new Date().toISOString(),
      session: sessionKey,
      tool: name,
      latency_ms: Math.round(latency * 1000) / 1000,
      status: failure === undefined ? 'ok' : 'error',
      ...(failure === undefined ? {} : { error: failure.code }),
    });
  }
}

/** One SDK server for one connection. */
function connectionServer(state: Shared, sessionKey: string): Server {
  const server = new Server(
    { name: 'engram', title: 'engram memory', version: VERSION },
    {
      capabilities: { tools: {}, prompts: {}, resources: {} },
      instructions:
        'engram is persistent memory. memory_recall before a task; memory_propose for what is worth keeping; '
        + 'the memory_guide prompt says when to use which tool.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const call = callTool(state, sessionKey, request.params.name, request.params.arguments);
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

/** Serves over stdin/stdout until stdin closes. Nothing but protocol is written to stdout. */
export async function serveStdio(options: ServeOptions): Promise<void> {
  const state = shared(options);
  const server = connectionServer(state, 'stdio');
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  // Input ended: let the calls already read finish and their answers go out, then stop.
  while (state.inflight.size > 0) await Promise.allSettled([...state.inflight]);
  await new Promise((resolve) => setImmediate(resolve));
  await server.close();
}

export interface HttpOptions {
  host: string;
  port: number;
  /** Every request must carry `Authorization: Bearer TOKEN` when set. */
  token?: string;
}

export interface RunningHttpServer {
  url: string;
  close(): Promise<void>;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

function authorised(request: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return true;
  const header = request.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function reply(response: ServerResponse, status: number, error: EngramError, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(error.toJSON()));
}

/**
 * Serves Streamable HTTP on `/mcp`, one session per client. Bound to loopback unless told
 * otherwise; any other address needs a token.
 */
export async function serveHttp(options: ServeOptions, http: HttpOptions): Promise<RunningHttpServer> {
  if (!isLoopback(http.host) && (http.token === undefined || http.token === '')) {
    throw new EngramError('PARAM_ERROR', `Refusing to serve on ${http.host} without a token`, {
      hint: 'Pass --token (or ENGRAM_HTTP_TOKEN), or bind to 127.0.0.1.',
    });
  }
  const state = shared(options);
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  // On loopback, only loopback Host headers: a web page cannot reach the server by DNS rebinding.
  let allowedHosts: string[] | undefined;
  const server: HttpServer = createHttpServer((request, response) => {
    void (async () => {
      if (!authorised(request, http.token)) {
        reply(response, 401, new EngramError('UNAUTHORIZED', 'Missing or wrong bearer token', {
          hint: 'Send Authorization: Bearer TOKEN.',
        }), { 'www-authenticate': 'Bearer' });
        return;
      }
      if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/mcp') {
        reply(response, 404, new EngramError('NOT_FOUND', 'Not found', { hint: 'The MCP endpoint is /mcp.' }));
        return;
      }
      const id = request.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (transport === undefined && id === undefined && request.method === 'POST') {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableDnsRebindingProtection: allowedHosts !== undefined,
          allowedHosts,
          onsessioninitialized: (sessionId) => {
            sessions.set(sessionId, created);
          },
        });
        created.onclose = () => {
          if (created.sessionId !== undefined) sessions.delete(created.sessionId);
        };
        await connectionServer(state, `http:${randomUUID()}`).connect(created);
        transport = created;
      }
      if (transport === undefined) {
        reply(response, 404, new EngramError('NOT_FOUND', 'Unknown or missing MCP session', {
          hint: 'Start with an initialize request without mcp-session-id.',
        }));
        return;
      }
      await transport.handleRequest(request, response);
    })().catch((error: unknown) => {
      if (!response.headersSent) reply(response, 500, toEngramError(error));
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES' && error.code !== 'EADDRNOTAVAIL') reject(error);
      else {
        reject(new EngramError('PARAM_ERROR', `Cannot listen on ${http.host}:${http.port} (${error.code})`, {
          hint: 'Pick another --port (0 picks a free one) or --host.',
        }));
      }
    });
    server.listen(http.port, http.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = http.host.includes(':') ? `[${http.host}]` : http.host;
  if (isLoopback(http.host)) {
    allowedHosts = [...new Set([host, '127.0.0.1', 'localhost', '[::1]'])].map((h) => `${h}:${port}`);
  }
  return {
    url: `http://${host}:${port}/mcp`,
    async close() {
      // Stop accepting, answer the calls under way, then end every session and connection.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      while (state.inflight.size > 0) await Promise.allSettled([...state.inflight]);
      for (const transport of sessions.values()) await transport.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

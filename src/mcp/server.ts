/**
 * The MCP server: the only module that imports the official MCP SDK (`engram serve` loads it
 * lazily). One low-level SDK `Server` per connection — stdio has one, Streamable HTTP one per
 * session — all sharing the engram store, the metrics and the rate limiter. Tool inputs are
 * validated here with the same zod schemas and PARAM_ERROR as everywhere else, so a failure is an
 * `isError` result carrying the CLI's error object, never a protocol error.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
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

/**
 * One tool call. `sessionKey` is the limiter key of the connection's client (every session of a
 * client shares it); `label` names the connection in the `-v` log.
 */
async function callTool(
  state: Shared,
  sessionKey: string,
  label: string,
  name: string,
  rawArgs: unknown,
): Promise<CallToolResult> {
  const started = performance.now();
  const context: ToolContext = { ...state, sessionKey };
  let failure: EngramError | undefined;
  try {
    const tool = BY_NAME.get(name);
    if (tool === undefined) {
      throw new EngramError('NOT_FOUND', `Unknown tool ${name}`, { hint: 'tools/list names every memory_* tool.' });
    }
    // A call is a call, valid or not: the client's bucket is charged before validation. Session
    // bridge tools are also charged to their session_id, known only once the input is read (a new
    // session_id per call buys no calls: the client's bucket is charged first).
    if (tool.rateLimited) state.limiter.take(sessionKey, name);
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
      session: label,
      tool: name,
      latency_ms: Math.round(latency * 1000) / 1000,
      status: failure === undefined ? 'ok' : 'error',
      ...(failure === undefined ? {} : { error: failure.code }),
    });
  }
}

/** One SDK server for one connection; its calls are charged to `sessionKey` (the client). */
function connectionServer(state: Shared, sessionKey: string, label = sessionKey): Server {
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
  /** Every request must carry `Authorization: Bearer TOKEN` when set (the scheme in any case). */
  token?: string;
  /** Sessions open at once from one client (token or remote address); default 32. */
  maxClientSessions?: number;
  /** Sessions open at once on the server; default 256. */
  maxSessions?: number;
  /** A session with no request for this long is closed and forgotten; default 15 minutes. */
  sessionIdleMs?: number;
}

/** The session limits `engram serve --http` applies when not told otherwise. */
export const DEFAULT_SESSION_LIMITS = Object.freeze({
  maxClientSessions: 32,
  maxSessions: 256,
  sessionIdleMs: 15 * 60_000,
});

export interface RunningHttpServer {
  url: string;
  close(): Promise<void>;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** The token of an `Authorization: Bearer TOKEN` header; the scheme is case-insensitive (RFC 9110). */
function bearerToken(header: string | undefined): string | undefined {
  return /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '')?.[1];
}

/**
 * Who is calling, for the limits: the digest of the bearer token when the server has one (the
 * token itself is never kept), else the remote address. Undefined when the token is wrong.
 */
function clientOf(request: IncomingMessage, expected: Buffer | undefined): string | undefined {
  if (expected === undefined) return `addr:${request.socket.remoteAddress ?? 'unknown'}`;
  const given = bearerToken(request.headers.authorization);
  if (given === undefined) return undefined;
  const hashed = digest(given);
  return timingSafeEqual(hashed, expected) ? `token:${hashed.subarray(0, 8).toString('hex')}` : undefined;
}

function reply(response: ServerResponse, status: number, error: EngramError, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(error.toJSON()));
}

/** One Streamable HTTP session: its transport and SDK server, its client, and when it was last used. */
interface HttpSession {
  transport: StreamableHTTPServerTransport;
  server: Server;
  client: string;
  lastSeen: number;
  /** Requests of this session still being answered (an open SSE stream counts). */
  open: number;
}

/** The 429 a new session gets when its client, or the server, has as many as it may. */
function sessionCapError(reason: 'client_session_cap' | 'server_session_cap', limit: number, retryAfterMs: number): EngramError {
  const whose = reason === 'client_session_cap' ? 'this client has' : 'the server has';
  return new EngramError('RATE_LIMITED', `Too many MCP sessions: ${whose} ${limit} open`, {
    hint: 'Reuse an open session (send its mcp-session-id), or end one with DELETE /mcp; idle sessions expire.',
    details: { reason, limit, retry_after_ms: retryAfterMs },
  });
}

/**
 * Serves Streamable HTTP on `/mcp`. Bound to loopback unless told otherwise; any other address
 * needs a token. Every session of one client (token digest, or remote address without a token)
 * shares one rate-limit bucket; a client may hold `maxClientSessions` sessions and the server
 * `maxSessions`; a session idle for `sessionIdleMs` is closed and its state freed.
 */
export async function serveHttp(options: ServeOptions, http: HttpOptions): Promise<RunningHttpServer> {
  if (!isLoopback(http.host) && (http.token === undefined || http.token === '')) {
    throw new EngramError('PARAM_ERROR', `Refusing to serve on ${http.host} without a token`, {
      hint: 'Pass --token (or ENGRAM_HTTP_TOKEN), or bind to 127.0.0.1.',
    });
  }
  const limits = { ...DEFAULT_SESSION_LIMITS, ...definedOnly(http) };
  const expected = http.token === undefined || http.token === '' ? undefined : digest(http.token);
  const state = shared(options);
  const live = new Set<HttpSession>();
  const sessions = new Map<string, HttpSession>();
  const forget = (session: HttpSession) => {
    live.delete(session);
    if (session.transport.sessionId !== undefined) sessions.delete(session.transport.sessionId);
  };
  /** How long until one of these sessions may expire, for Retry-After. */
  const nextExpiry = (among: HttpSession[]): number => {
    const oldest = Math.min(...among.map((s) => s.lastSeen));
    return Math.max(1000, oldest + limits.sessionIdleMs - Date.now());
  };
  /** Closes the sessions idle past the limit, and forgets limiter buckets nobody uses any more. */
  const sweep = () => {
    const at = Date.now();
    for (const session of [...live]) {
      if (session.open === 0 && at - session.lastSeen >= limits.sessionIdleMs) {
        forget(session);
        void session.server.close().catch(() => undefined);
      }
    }
    state.limiter.prune(limits.sessionIdleMs);
  };
  const sweeper = setInterval(sweep, Math.max(100, Math.min(60_000, limits.sessionIdleMs / 4)));
  sweeper.unref();
  // On loopback, only loopback Host headers: a web page cannot reach the server by DNS rebinding.
  let allowedHosts: string[] | undefined;
  const startSession = async (client: string, response: ServerResponse): Promise<HttpSession | undefined> => {
    const mine = [...live].filter((s) => s.client === client);
    const full: [HttpSession[], 'client_session_cap' | 'server_session_cap', number] | undefined
      = mine.length >= limits.maxClientSessions
        ? [mine, 'client_session_cap', limits.maxClientSessions]
        : live.size >= limits.maxSessions ? [[...live], 'server_session_cap', limits.maxSessions] : undefined;
    if (full !== undefined) {
      const wait = nextExpiry(full[0]);
      reply(response, 429, sessionCapError(full[1], full[2], wait), { 'retry-after': String(Math.ceil(wait / 1000)) });
      return undefined;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: allowedHosts !== undefined,
      allowedHosts,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, session);
      },
    });
    const server = connectionServer(state, `http:${client}`, `http:${randomUUID()}`);
    const session: HttpSession = { transport, server, client, lastSeen: Date.now(), open: 0 };
    // Counted from now: concurrent initialize requests cannot overshoot the caps.
    live.add(session);
    transport.onclose = () => forget(session);
    await server.connect(transport);
    return session;
  };
  const server: HttpServer = createHttpServer((request, response) => {
    void (async () => {
      const client = clientOf(request, expected);
      if (client === undefined) {
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
      let session = typeof id === 'string' ? sessions.get(id) : undefined;
      const created = session === undefined && id === undefined && request.method === 'POST';
      if (created) {
        session = await startSession(client, response);
        if (session === undefined) return;
      }
      if (session === undefined) {
        reply(response, 404, new EngramError('NOT_FOUND', 'Unknown or missing MCP session', {
          hint: 'Start with an initialize request without mcp-session-id (an idle session expires).',
        }));
        return;
      }
      const current = session;
      current.open++;
      current.lastSeen = Date.now();
      response.once('close', () => {
        current.open--;
        current.lastSeen = Date.now();
      });
      try {
        await current.transport.handleRequest(request, response);
      } finally {
        // A request that did not initialize a session (not an initialize, or refused) frees its slot.
        if (created && current.transport.sessionId === undefined) {
          forget(current);
          await current.server.close();
        }
      }
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
  }).catch((error: unknown) => {
    clearInterval(sweeper);
    throw error;
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
      clearInterval(sweeper);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      while (state.inflight.size > 0) await Promise.allSettled([...state.inflight]);
      for (const session of [...live]) await session.server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

/** The session limits given, without the undefined ones (which keep their defaults). */
function definedOnly(http: HttpOptions): Partial<typeof DEFAULT_SESSION_LIMITS> {
  const { maxClientSessions, maxSessions, sessionIdleMs } = http;
  return Object.fromEntries(
    Object.entries({ maxClientSessions, maxSessions, sessionIdleMs }).filter(([, v]) => v !== undefined),
  );
}

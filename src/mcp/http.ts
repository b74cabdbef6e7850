/**
 * The MCP server over Streamable HTTP on `/mcp`: bearer-token auth, Host checks on loopback,
 * sessions (one SDK server each) with per-client and server caps and an idle expiry, and every
 * session of one client sharing one rate-limit bucket.
 */
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { EngramError, toEngramError } from '../errors.js';
import { clientOf, digest, isLoopback, loopbackHosts, reply } from './http-auth.js';
import { createConnectionServer, drain, type ServerState } from './protocol.js';

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
export async function runHttp(state: ServerState, http: HttpOptions): Promise<RunningHttpServer> {
  if (!isLoopback(http.host) && (http.token === undefined || http.token === '')) {
    throw new EngramError('PARAM_ERROR', `Refusing to serve on ${http.host} without a token`, {
      hint: 'Pass --token (or ENGRAM_HTTP_TOKEN), or bind to 127.0.0.1.',
    });
  }
  const limits = { ...DEFAULT_SESSION_LIMITS, ...definedOnly(http) };
  const expected = http.token === undefined || http.token === '' ? undefined : digest(http.token);
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
    const server = createConnectionServer(state, `http:${client}`, `http:${randomUUID()}`);
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
    allowedHosts = loopbackHosts(host, port);
  }
  return {
    url: `http://${host}:${port}/mcp`,
    async close() {
      // Stop accepting, answer the calls under way, then end every session and connection.
      clearInterval(sweeper);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await drain(state);
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

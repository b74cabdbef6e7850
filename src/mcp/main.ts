/**
 * The MCP shell's composition root, what `engram serve` loads lazily: the only entry to the
 * modules that import the official MCP SDK. It builds the state every connection of one server
 * shares (the engram store, the metrics and the rate limiter) and hands it to a transport.
 */
import { type BackgroundEmbedding, startBackgroundEmbedding } from './background-embed.js';
import { type HttpOptions, runHttp, type RunningHttpServer } from './http.js';
import { RateLimiter } from './limiter.js';
import { MetricsCollector } from './metrics.js';
import type { ServeOptions, ServerState } from './protocol.js';
import { runStdio } from './stdio.js';
import { servedTools } from './tool-list.js';
import { serverInstructions } from './guide.js';
import { TOOLS } from './tools/index.js';
import { selectTools } from './tools/profiles.js';

export { DEFAULT_SESSION_LIMITS, type HttpOptions, type RunningHttpServer } from './http.js';
export type { ServeOptions } from './protocol.js';
export { selectTools } from './tools/profiles.js';
export { compatTools } from './compat/index.js';

function createState(options: ServeOptions): ServerState {
  const tools = options.tools ?? selectTools();
  const names = tools.map((t) => t.name);
  return {
    ...options,
    limiter: new RateLimiter(options.limits),
    metrics: new MetricsCollector(),
    inflight: new Set(),
    served: servedTools(tools),
    instructions: serverInstructions(names, TOOLS.every((t) => names.includes(t.name))),
  };
}

/**
 * Serves over stdin/stdout until stdin closes. Nothing but protocol is written to stdout.
 *
 * @example
 * await serveStdio({ engram, limits: DEFAULT_LIMITS, budget: DEFAULT_BUDGET });
 */
export async function serveStdio(options: ServeOptions): Promise<void> {
  const background = backgroundEmbedding(options);
  try {
    await runStdio(createState(options));
  } finally {
    await background?.stop();
  }
}

/** The background pass over pending vectors (see `background-embed.ts`), unless turned off. */
function backgroundEmbedding(options: ServeOptions): BackgroundEmbedding | undefined {
  if (options.backgroundEmbed === false) return undefined;
  const { log } = options;
  const onError = log === undefined
    ? undefined
    : (error: Error) => log({ event: 'background_embed', ok: false, message: error.message });
  return startBackgroundEmbedding(options.engram, { ...options.backgroundEmbed, ...(onError && { onError }) });
}

/**
 * Serves Streamable HTTP on `/mcp` until closed. Bound to loopback unless told otherwise; any
 * other address needs a token.
 *
 * @example
 * const server = await serveHttp(options, { host: '127.0.0.1', port: 0 });
 * // server.url is http://127.0.0.1:PORT/mcp
 * await server.close();
 */
export async function serveHttp(options: ServeOptions, http: HttpOptions): Promise<RunningHttpServer> {
  const server = await runHttp(createState(options), http);
  const background = backgroundEmbedding(options);
  return {
    ...server,
    async close() {
      await background?.stop();
      await server.close();
    },
  };
}

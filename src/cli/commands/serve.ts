/**
 * `engram serve`: the MCP server (KOAS flags). stdio by default — nothing but protocol on stdout —
 * or Streamable HTTP with `--http`, on loopback unless `--host` says otherwise (then a token is
 * required). Runs until stdin closes (stdio) or SIGINT/SIGTERM (HTTP). Over HTTP the rate limit is
 * per client (bearer token, or remote address without one), sessions are capped per client and in
 * all, and an idle session expires. `--tools` picks the tools listed: the default profile (the
 * daily loop), `all`, or a comma list of names; `--compat mem-context` also serves mem-context's tool
 * names and parameters over the same operations.
 */
import type { Command } from 'commander';
import { FTS_TOKENIZER_NAMES } from '../../config/fts-tokenizer.js';
import { SECRECY_TIERS, type Secrecy } from '../../types.js';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, exampleText, intOption } from '../options.js';
import type { Runner } from '../runner.js';

interface ServeFlags {
  http?: boolean;
  port?: number;
  host: string;
  token?: string;
  ftsTokenizer?: string;
  secrecy?: Secrecy;
  injectBudget?: number;
  rateLimit?: boolean;
  trustWrites?: boolean;
  maxSessions?: number;
  maxClientSessions?: number;
  sessionIdle?: number;
  tools?: string;
  compat?: string;
}

/** The other servers whose tool names `--compat` adds (`mcp/compat/`, loaded only by serve). */
const COMPAT_NAMES = ['mem-context'];

/** What the command prints on stdout once the server has stopped: nothing (stdio was protocol). */
const nothing = (): CommandOutput => ({ kind: 'lines', lines: (async function* () {})() });

/** The default HTTP port. */
export const DEFAULT_PORT = 8765;

export function configure(command: Command, run: Runner): void {
  command
    .option('--http', 'serve Streamable HTTP on /mcp instead of stdio')
    .option(
      '--tools <list>',
      'tools listed: default (recall, search, propose, read, update, forget), all, or a comma list of names (ENGRAM_MCP_TOOLS)',
    )
    .addOption(enumOption(command,
      '--compat <server>',
      'also serve that server\'s tool names and parameters over engram: mem-context (remember, recall, get, update, forget, status, review, consolidation_candidates)',
      COMPAT_NAMES,
    ))
    .addOption(intOption(command, '--port <n>', `HTTP port (default ${DEFAULT_PORT}; 0 picks a free one)`, 0))
    .option('--host <address>', 'HTTP bind address; anything but loopback needs --token', '127.0.0.1')
    .option('--token <secret>', 'bearer token every HTTP request must carry (or ENGRAM_HTTP_TOKEN)')
    .addOption(enumOption(command, '--fts-tokenizer <preset>', 'search tokenizer of a store created now', FTS_TOKENIZER_NAMES))
    .addOption(enumOption(command, '--secrecy <tier>', 'redact tool output: S0, S2 or S3 (default, ENGRAM_SECRECY)', SECRECY_TIERS))
    .addOption(intOption(command, '--inject-budget <tokens>', 'default memory_recall budget (default 1500, ENGRAM_BUDGET)', 1))
    .option('--rate-limit', 'limit calls per client (all its sessions): 60/min, burst 1.5x, 10 proposals per turn (default)')
    .option('--no-rate-limit', 'no rate limiting (the HTTP session limits below still apply)')
    .addOption(intOption(command, '--max-client-sessions <n>', 'HTTP sessions one client (token or address) may hold open (default 32)', 1))
    .addOption(intOption(command, '--max-sessions <n>', 'HTTP sessions open at once on the server (default 256)', 1))
    .addOption(intOption(command, '--session-idle <seconds>', 'close an HTTP session after this long without a request (default 900)', 1))
    .option(
      '--trust-writes',
      'memory_write skips the quarantine rules and the provenance requirement (default: judged like memory_propose; secrets and injection are always rejected)',
    )
    .addHelpText(
      'after',
      exampleText(
        'engram serve',
        'engram serve --tools all',
        'engram serve --tools default,memory_link,memory_review',
        'engram serve --compat mem-context',
        'engram serve --http --port 8765',
        'ENGRAM_HTTP_TOKEN=… engram serve --http --host 0.0.0.0',
        'engram -v serve --db ~/notes/.engram/memory.db',
      ),
    )
    .action(run(serveCommand));
}

async function serveCommand(ctx: CliContext, flags: ServeFlags): Promise<CommandOutput> {
  const [mcp, { DEFAULT_LIMITS }, { DEFAULT_BUDGET }] = await Promise.all([
    import('../../mcp/main.js'),
    import('../../mcp/limiter.js'),
    import('../../retrieval/recall.js'),
  ]);
  // An unknown tool name fails before the store is opened.
  const { compatTools, selectTools, serveHttp, serveStdio } = mcp;
  const tools = [...selectTools(ctx.settings.mcpTools(flags.tools)), ...compatTools(flags.compat)];
  const engram = await ctx.open({ defer: true, ftsTokenizer: flags.ftsTokenizer, secrecy: flags.secrecy });
  const options = {
    engram,
    tools,
    limits: { ...DEFAULT_LIMITS, enabled: flags.rateLimit !== false },
    budget: ctx.settings.budget(flags.injectBudget) ?? DEFAULT_BUDGET,
    secrecy: flags.secrecy,
    trustWrites: flags.trustWrites === true,
    log: ctx.verbose ? (line: Record<string, unknown>) => process.stderr.write(`${JSON.stringify(line)}\n`) : undefined,
  };
  if (flags.http !== true) {
    await serveStdio(options);
    return nothing();
  }
  const token = ctx.settings.httpToken(flags.token);
  const server = await serveHttp(options, {
    host: flags.host,
    port: flags.port ?? DEFAULT_PORT,
    token,
    maxClientSessions: flags.maxClientSessions,
    maxSessions: flags.maxSessions,
    sessionIdleMs: flags.sessionIdle === undefined ? undefined : flags.sessionIdle * 1000,
  });
  ctx.info(`serving MCP on ${server.url}; ${token ? 'bearer token required; ' : ''}Ctrl-C stops`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return nothing();
}

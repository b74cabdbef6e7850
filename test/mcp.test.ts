/**
 * The MCP server driven through the official SDK client, as Claude Code or Cursor would: the real
 * `engram serve` process over stdio and over Streamable HTTP, every tool with valid and invalid
 * input (`--tools all`), rate limits and the proposal cap, tokens, concurrency, and recall byte for
 * byte. The tool profiles and their `tools/list` sizes are in mcp-profiles.test.ts.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openEngram } from '../src/index.js';
import { TOOLS } from '../src/mcp/tools/index.js';
import { SCHEMA_VERSION } from '../src/store/sqlite/migrations/index.js';
import { CLI, cli, nodeAsync, policyCorpus, tempDir } from './helpers.js';

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

type Call = (name: string, args?: Record<string, unknown>) => Promise<ToolResult>;

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ENGRAM_')));
  return { ...clean, ENGRAM_AUTO_CONSOLIDATE: 'off', ...extra } as NodeJS.ProcessEnv;
}

async function stdioClient(t: { after: (fn: () => Promise<void>) => void }, db: string, args: string[] = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--db', db, ...args],
    env: env() as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

interface HttpServer {
  url: string;
  child: ChildProcess;
  stderr: () => string;
}

/** Starts `engram serve --http --port 0` and waits for the URL it prints on stderr. */
async function httpServer(t: { after: (fn: () => void) => void }, db: string, args: string[] = []) {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0', '--db', db, ...args], { env: env() });
  t.after(() => child.kill('SIGTERM'));
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const found = /serving MCP on (\S+);/.exec(stderr);
      if (found?.[1]) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return { url, child, stderr: () => stderr } satisfies HttpServer;
}

async function httpClient(t: { after: (fn: () => Promise<void>) => void }, url: string, token?: string) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

function caller(client: Client): Call {
  return async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult;
}

function errorOf(result: ToolResult): Record<string, unknown> {
  assert.equal(result.isError, true, `expected an error result, got ${JSON.stringify(result.structuredContent)}`);
  return JSON.parse(result.content[0]?.text ?? '{}') as Record<string, unknown>;
}

function ok(result: ToolResult): Record<string, unknown> {
  assert.notEqual(result.isError, true, result.content[0]?.text);
  assert.ok(result.structuredContent, 'structured content');
  return result.structuredContent;
}

/** Every tool once with valid input, each result checked against the store; returns the calls made. */
async function everyTool(client: Client, db: string): Promise<void> {
  // listTools first: the SDK client then checks every structured result against its output schema.
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS.map((t) => t.name).sort());
  for (const tool of tools) {
    assert.ok(tool.title && tool.description && tool.description.length > 40, `${tool.name} is described`);
    assert.equal(tool.inputSchema.type, 'object');
    assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an output schema`);
    // A read-only tool says so; one that writes says whether it destroys (the protocol's defaults are left out).
    const hints = tool.annotations ?? {};
    assert.equal(hints.openWorldHint, false, tool.name);
    if (hints.readOnlyHint !== true) assert.equal(typeof hints.destructiveHint, 'boolean', `${tool.name} destructiveHint`);
  }
  const call = caller(client);
  const store = await openEngram({ path: db });
  try {
    const registered = ok(await call('memory_workspace_register', { name: 'audit', scope: 'audit-2026', description: 'The audit' }));
    assert.equal(registered.created, true);
    const written = ok(await call('memory_write', {
      content: 'We chose JWT for stateless auth in the gateway',
      type: 'decision',
      tags: 'auth,security',
      workspace: 'audit',
      // Judged like a proposal (no --trust-writes): without provenance it would be quarantined.
      provenance: { source_id: 'docs/adr/0007-auth.md' },
    }));
    const id = (written.item as { id: string }).id;
    assert.equal((await store.get({ id })).scope, 'audit-2026', 'written in the workspace scope');

    const proposed = ok(await call('memory_propose', {
      items: JSON.stringify([
        { title: 'Session store', content: 'Sessions live in Redis with a 30 minute TTL', type: 'fact', tags: ['auth'], provenance_hint: { source_id: 'docs/auth.md', source_kind: 'doc' } },
      ]),
      workspace: 'audit',
    }));
    assert.equal(proposed.stored, 1);
    const other = (proposed.items as { id: string }[])[0]?.id ?? '';
    assert.equal((await store.get({ id: other })).provenance?.source_id, 'docs/auth.md');

    const read = ok(await call('memory_read', { ids: [id, 'MEM-000000000000'] }));
    assert.deepEqual([(read.items as { id: string }[]).map((i) => i.id), read.missing], [[id], ['MEM-000000000000']]);

    const found = ok(await call('memory_search', { query: 'JWT auth', workspace: 'audit', k: 5 }));
    assert.equal((found.items as { id: string }[])[0]?.id, id);

    const recalled = await call('memory_recall', { query: 'stateless auth', workspace: 'audit' });
    assert.match(recalled.content[0]?.text ?? '', new RegExp(`\\[${id} \\| decision`));
    assert.equal(ok(recalled).inject_text, recalled.content[0]?.text);

    const updated = ok(await call('memory_update', { id, fields: { tags: ['auth', 'jwt'], confidence: 0.9 } }));
    assert.equal((updated.item as { version: number }).version, 2);
    assert.deepEqual((await store.get({ id })).tags, ['auth', 'jwt']);

    const linked = ok(await call('memory_link', { src_id: id, dst_id: other, type: 'related' }));
    assert.equal(linked.created, true);
    assert.equal((await store.links(id)).length, 1);

    const review = ok(await call('memory_review', { within_hours: 48 }));
    assert.ok(Array.isArray(review.quarantined) && Array.isArray(review.expiring));

    assert.equal(ok(await call('memory_consolidate', { mode: 'dry_run', workspace: 'audit' })).dry_run, true);
    const candidates = ok(await call('memory_consolidate', { mode: 'candidates' }));
    assert.ok(Array.isArray(candidates.extract) && Array.isArray(candidates.merge));
    const counted = ok(await call('memory_consolidate', { mode: 'candidates', limit: 0, offset: 0 }));
    assert.deepEqual([counted.extract, counted.merge, counted.more_exact, counted.limit], [[], [], true, 0]);
    const offered = (candidates.extract as unknown[]).length + (candidates.merge as unknown[]).length;
    assert.equal(counted.more, offered + Number(candidates.more), 'limit 0: every group counted');
    assert.equal(ok(await call('memory_consolidate', {})).dry_run, false);

    const stats = ok(await call('memory_stats', { workspace: 'audit' }));
    assert.equal((stats.workspace as { scope: string }).scope, 'audit-2026');
    assert.equal(stats.total, (await store.stats()).total);

    const injected = ok(await call('memory_session_inject', { query: 'auth', session_id: 's1', system_context: 'You review code.' }));
    assert.match(String(injected.augmented_context), /^You review code\.\n\n\[ENGRAM_MEMORY/);
    const stored = ok(await call('memory_session_store', {
      session_id: 's1',
      response_text: 'Done.\n<memory title="Retry policy" type="decision" tags="http">HTTP calls retry 3 times with backoff</memory>',
    }));
    assert.equal(stored.proposals, 1);
    assert.equal((await store.search({ query: 'retry backoff' })).count, 1);

    assert.equal((ok(await call('memory_workspace_list')).workspaces as unknown[]).length, 2);
    assert.equal(ok(await call('memory_palace_list', { workspace: 'audit' })).level, 'tier');
    assert.equal(ok(await call('memory_palace_list', { workspace: 'audit', tier: 'stm' })).level, 'type');
    const tags = ok(await call('memory_palace_list', { workspace: 'audit', tier: 'stm', type: 'decision' }));
    assert.deepEqual(tags.counts, { auth: 1, jwt: 1 });
    const items = ok(await call('memory_palace_list', { workspace: 'audit', tier: 'stm', type: 'decision', tag: 'jwt' }));
    assert.deepEqual((items.items as { id: string }[]).map((i) => i.id), [id]);
    const placed = ok(await call('memory_palace_get', { id }));
    assert.equal((placed.location as { workspace: string }).workspace, 'audit');

    const forgotten = ok(await call('memory_forget', { id: other }));
    assert.equal(forgotten.action, 'forgotten');
    assert.equal((await store.get({ id: other })).archived, true);
    assert.equal((ok(await call('memory_workspace_remove', { name: 'audit' })).removed as { name: string }).name, 'audit');

    const metrics = ok(await call('memory_metrics'));
    assert.equal(metrics.total_calls, 24, 'every call counted');
    const palace = ok(await call('memory_metrics', { tool_name: 'memory_palace_list' })).metrics as { call_count: number };
    assert.equal(palace.call_count, 4);
  } finally {
    store.close();
  }
}

/** Every tool with input it must refuse: an isError result with the CLI's error object. */
async function everyToolRefuses(client: Client): Promise<void> {
  const call = caller(client);
  for (const tool of TOOLS) {
    const error = errorOf(await call(tool.name, { no_such_field: 1 }));
    assert.equal(error.ok, false);
    assert.equal(error.error, 'PARAM_ERROR', `${tool.name}: ${JSON.stringify(error)}`);
    assert.equal(typeof error.message, 'string');
  }
  const unknown = errorOf(await call('memory_fly'));
  assert.equal(unknown.error, 'NOT_FOUND');
  assert.equal(errorOf(await call('memory_search', { query: 'x', workspace: 'nowhere' })).error, 'NOT_FOUND');
  assert.equal(errorOf(await call('memory_workspace_remove', { name: 'default' })).error, 'PARAM_ERROR');
  assert.equal(errorOf(await call('memory_read', { ids: [] })).error, 'PARAM_ERROR');
  assert.equal((await client.listTools()).tools.length, TOOLS.length, 'the server keeps serving');
}

test('stdio: every tool works on the store, refuses bad input, and nothing but protocol is on stdout', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  const client = await stdioClient(t, db, ['--tools', 'all']);
  await everyTool(client, db);
  await everyToolRefuses(client);
  const prompt = await client.getPrompt({ name: 'memory_guide' });
  assert.match(JSON.stringify(prompt.messages), /memory_recall/);
  const resource = await client.readResource({ uri: 'engram://stats' });
  const contents = resource.contents[0] as { text?: string } | undefined;
  assert.equal(JSON.parse(String(contents?.text)).schema_version, SCHEMA_VERSION);
});

test('stdio: every line on stdout is a JSON-RPC message, warnings and logs go to stderr', async (t) => {
  const dir = tempDir(t);
  const messages = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'memory_write', arguments: { content: 'Raw stdio works' } } },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'memory_search', arguments: { query: 'raw', k: -1 } } },
    // Input that ends right after many calls: every one is still answered.
    ...Array.from({ length: 20 }, (_, i) => ({
      jsonrpc: '2.0',
      id: 4 + i,
      method: 'tools/call',
      params: { name: 'memory_write', arguments: { content: `Queued write ${i} of twenty` } },
    })),
  ];
  const run = await nodeAsync([CLI, '-v', 'serve', '--db', join(dir, 'memory.db'), '--tools', 'memory_write,memory_search'], {
    input: messages.map((m) => JSON.stringify(m)).join('\n') + '\n',
    env: { HOME: dir },
  });
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trim().split('\n');
  type Reply = { jsonrpc: string; id: number; result?: { isError?: boolean } };
  const replies = lines.map((line) => JSON.parse(line) as Reply).sort((a, b) => a.id - b.id);
  assert.deepEqual(replies.map((r) => [r.jsonrpc, r.id]), Array.from({ length: 23 }, (_, i) => ['2.0', i + 1]));
  assert.equal(replies[2]?.result?.isError, true);
  assert.match(run.stderr, /"tool":"memory_write","latency_ms":[\d.]+,"status":"ok"/, '-v logs on stderr');
});

test('HTTP: every tool works, refuses bad input; a rate limit answers RATE_LIMITED with retry_after_ms', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  const server = await httpServer(t, db, ['--tools', 'all']);
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const client = await httpClient(t, server.url);
  await everyTool(client, db);
  await everyToolRefuses(client);

  // 60 calls a minute with a 1.5x burst: after 90 calls the bucket is empty.
  const call = caller(client);
  let limited: Record<string, unknown> | undefined;
  for (let i = 0; i < 150 && limited === undefined; i++) {
    const result = await call('memory_stats');
    if (result.isError) limited = errorOf(result);
  }
  assert.equal(limited?.error, 'RATE_LIMITED');
  assert.equal(limited?.retryable, true);
  assert.ok(Number(limited?.retry_after_ms) > 0 && Number(limited?.retry_after_ms) <= 1000);
  // The bucket refills one call a second: on a slow machine a tool may get that one call, never two.
  for (const tool of TOOLS.filter((x) => x.rateLimited && x.bucket === undefined)) {
    const first = await call(tool.name, {});
    const answer = first.isError && errorOf(first).error === 'RATE_LIMITED' ? first : await call(tool.name, {});
    assert.equal(errorOf(answer).error, 'RATE_LIMITED', tool.name);
  }
  const metrics = ok(await call('memory_metrics'));
  assert.equal((metrics.rate_limiter as { enabled: boolean }).enabled, true, 'metrics are never limited');

  // Another session of the same client shares its bucket: a new session buys no calls.
  const second = await httpClient(t, server.url);
  const again = await caller(second)('memory_stats');
  const secondAnswer = again.isError ? again : await caller(second)('memory_stats');
  assert.equal(errorOf(secondAnswer).error, 'RATE_LIMITED', 'one budget per client, not per session');

  // DNS rebinding: a request naming another host is refused on a loopback server.
  const port = new URL(server.url).port;
  assert.equal(await initializeStatus(server.url, { host: `attacker.example:${port}` }), 403);
  assert.equal(await initializeStatus(server.url, { host: `localhost:${port}` }), 200);
});

/** The HTTP status of a bare initialize request with these headers (node:http lets Host be set). */
function initializeStatus(url: string, headers: Record<string, string>): Promise<number> {
  const target = new URL(url);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', ...headers },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test('the proposal cap resets at each memory_session_inject and per session', async (t) => {
  const dir = tempDir(t);
  const client = await stdioClient(t, join(dir, 'memory.db'), ['--tools', 'all']);
  const call = caller(client);
  const proposals = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => ({
      title: `Rule ${from + i}`,
      content: `Service ${from + i} answers within ${from + i + 10} ms at p95`,
      provenance_hint: { source_id: 'slo.md', source_kind: 'doc' },
    }));
  assert.equal(ok(await call('memory_propose', { items: proposals(10) })).stored, 10);
  const capped = errorOf(await call('memory_propose', { items: proposals(1, 10) }));
  assert.deepEqual([capped.error, capped.reason, capped.proposals_this_turn, capped.proposals_limit], ['RATE_LIMITED', 'proposals_per_turn', 10, 10]);

  const turn = ok(await call('memory_session_inject', { query: 'latency', session_id: 'agent-1' }));
  assert.equal(turn.turn, 2);
  assert.equal(ok(await call('memory_propose', { items: proposals(10, 20) })).stored, 10, 'a new turn, a new cap');

  const block = (n: number, from: number) =>
    Array.from({ length: n }, (_, i) => `<memory title="Fact ${from + i}">Queue ${from + i} drains in ${i + 1} s</memory>`).join('\n');
  assert.equal(ok(await call('memory_session_store', { session_id: 'agent-1', response_text: block(10, 0) })).stored, 10);
  assert.equal(errorOf(await call('memory_session_store', { session_id: 'agent-1', response_text: block(1, 10) })).error, 'RATE_LIMITED');
  assert.equal(ok(await call('memory_session_store', { session_id: 'agent-2', response_text: block(1, 20) })).stored, 1, 'per session');
  await call('memory_session_inject', { query: 'queue', session_id: 'agent-1' });
  assert.equal(ok(await call('memory_session_store', { session_id: 'agent-1', response_text: block(1, 30) })).stored, 1);

  const long = errorOf(await call('memory_write', { content: 'x'.repeat(5001) }));
  assert.equal(long.error, 'PARAM_ERROR');
  assert.equal(long.max_content_length, 5000);
});

test('a secret through memory_propose or memory_write is rejected and never stored', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  const client = await stdioClient(t, db, ['--tools', 'all']);
  const call = caller(client);
  const secrets = policyCorpus('adversarial.jsonl').filter((c) => c.group === 'secret' && c.secret).slice(0, 12);
  assert.ok(secrets.length >= 10);
  for (const { text, secret } of secrets) {
    const written = errorOf(await call('memory_write', { content: text }));
    assert.equal(written.error, 'POLICY_REJECTED');
    assert.ok(!JSON.stringify(written).includes(String(secret)), 'the error never echoes the secret');
    const proposed = ok(await call('memory_propose', {
      items: [{ title: 'ops', content: text, provenance_hint: { source_id: 'ops.md' } }],
    }));
    assert.deepEqual([proposed.stored, proposed.quarantined, proposed.rejected], [0, 0, 1]);
    await call('memory_session_inject', { query: 'ops', session_id: 'x' });
  }
  await client.close();
  const bytes = [db, `${db}-wal`].map((f) => (existsSync(f) ? readFileSync(f).toString('latin1') : '')).join('');
  for (const { secret } of secrets) assert.ok(!bytes.includes(String(secret)), 'not in the database file');
  const store = await openEngram({ path: db });
  t.after(() => store.close());
  assert.equal((await store.stats()).total, 0);
});

test('memory_recall returns the block of `engram recall`, byte for byte', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'a.db');
  const seed = await openEngram({ path: db });
  for (const [content, tags] of [
    ['Deploys run from the release branch on Thursdays', ['deploy']],
    ['The release branch is cut every second Monday', ['release', 'deploy']],
    ['Rollbacks use the previous container image tag', ['deploy', 'ops']],
    ['Le déploiement de production exige deux relectures', ['deploy', 'fr']],
  ] as const) await seed.put({ content, tags: [...tags], type: 'decision' });
  seed.close();
  const copy = join(dir, 'b.db');
  copyFileSync(db, copy);
  const expected = cli(['recall', 'release deploy', '--db', copy, '--budget', '120']).stdout;
  assert.match(expected, /^\[ENGRAM_MEMORY format_version=1/);
  const client = await stdioClient(t, db);
  const result = await caller(client)('memory_recall', { query: 'release deploy', budget_tokens: 120 });
  assert.equal(result.content[0]?.text, expected);
});

test('a token-protected server answers 401 without the token and touches nothing', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  const server = await httpServer(t, db, ['--token', 'correct-horse-battery']);
  const files = () => [db, `${db}-wal`].map((f) => (existsSync(f) ? readFileSync(f) : Buffer.alloc(0)));
  const before = files();
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  };
  const attempts: Record<string, string>[] = [{}, { Authorization: 'Bearer wrong-token-value' }, { Authorization: 'Basic Y29ycmVjdA==' }];
  for (const headers of attempts) {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(initialize),
    });
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as { ok: boolean }).ok, false);
  }
  await assert.rejects(httpClient(t, server.url));
  assert.deepEqual(files(), before, 'the store is untouched');
  // The scheme is case-insensitive (RFC 9110): `bearer` and `BEARER` are the same scheme.
  for (const scheme of ['bearer', 'BEARER']) {
    assert.equal(await initializeStatus(server.url, { authorization: `${scheme} correct-horse-battery` }), 200, scheme);
  }
  const client = await httpClient(t, server.url, 'correct-horse-battery');
  assert.notEqual((await caller(client)('memory_search', { query: 'x' })).isError, true);

  const open = cli(['serve', '--http', '--host', '0.0.0.0', '--port', '0', '--db', db]);
  assert.equal(open.code, 2);
  assert.match(String(open.error?.message), /without a token/);
  const taken = cli(['serve', '--http', '--port', new URL(server.url).port, '--db', db]);
  assert.deepEqual([taken.code, taken.error?.error], [2, 'PARAM_ERROR']);
  assert.match(String(taken.error?.message), /EADDRINUSE/);
});

/** A raw initialize request: its status, Retry-After header and JSON body. */
async function initializeRaw(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    }),
  });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), session: response.headers.get('mcp-session-id'), body: text };
}

test('HTTP sessions: capped per client with a clear 429, freed when ended; an idle one expires', async (t) => {
  const dir = tempDir(t);
  const server = await httpServer(t, join(dir, 'memory.db'), ['--max-client-sessions', '2']);
  const first = await httpClient(t, server.url);
  const second = await httpClient(t, server.url);
  assert.notEqual((await caller(second)('memory_search', { query: 'x' })).isError, true);
  const refused = await initializeRaw(server.url);
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.retryAfter) >= 1, 'Retry-After in seconds');
  const body = JSON.parse(refused.body) as Record<string, unknown>;
  assert.deepEqual([body.error, body.reason, body.limit, body.retryable], ['RATE_LIMITED', 'client_session_cap', 2, true]);
  assert.match(String(body.message), /Too many MCP sessions: this client has 2 open/);
  // Ending a session (DELETE /mcp) frees its slot at once.
  await (first.transport as StreamableHTTPClientTransport).terminateSession();
  assert.equal((await initializeRaw(server.url)).status, 200);

  // --session-idle 1: a session without a request for a second, and no stream open, is closed and
  // its slot freed (an abandoned one); a connected client's open event stream keeps its session.
  const idle = await httpServer(t, join(dir, 'idle.db'), ['--max-client-sessions', '2', '--session-idle', '1']);
  const connected = await httpClient(t, idle.url);
  const abandoned = await initializeRaw(idle.url);
  assert.equal(abandoned.status, 200);
  assert.equal((await initializeRaw(idle.url)).status, 429, 'both slots are taken');
  let status = 429;
  for (let i = 0; i < 50 && status === 429; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = (await initializeRaw(idle.url)).status;
  }
  assert.equal(status, 200, 'the abandoned session expired and freed its slot');
  const reused = await fetch(idle.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'accept': 'application/json, text/event-stream',
      'mcp-session-id': String(abandoned.session),
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  assert.equal(reused.status, 404, 'the expired session is gone');
  assert.notEqual((await caller(connected)('memory_search', { query: 'x' })).isError, true, 'the connected client kept its session');
});

test('20 concurrent HTTP clients × 200 mixed calls: no lost write, metrics count every call', { timeout: 180_000 }, async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  const server = await httpServer(t, db, ['--no-rate-limit', '--tools', 'all']);
  const clients = await Promise.all(Array.from({ length: 20 }, () => httpClient(t, server.url)));
  const written = await Promise.all(
    clients.map(async (client, c) => {
      const call = caller(client);
      const ids: string[] = [];
      for (let i = 0; i < 200; i++) {
        const kind = i % 4;
        if (kind === 0) {
          const result = ok(await call('memory_write', { content: `Client ${c} note ${i}: shard ${c * 1000 + i} holds tenant ${i * 7 + c}` }));
          ids.push((result.item as { id: string }).id);
        } else if (kind === 1) {
          ok(await call('memory_search', { query: `shard tenant ${i}` }));
        } else if (kind === 2) {
          ok(await call('memory_recall', { query: `client ${c} note` }));
        } else {
          ok(await call('memory_read', { ids: ids.slice(-3) }));
        }
      }
      return ids;
    }),
  );
  const ids = written.flat();
  assert.equal(new Set(ids).size, 20 * 50);
  const metrics = ok(await caller(clients[0] as Client)('memory_metrics'));
  assert.equal(metrics.total_calls, 20 * 200);
  assert.equal(metrics.total_errors, 0);
  const tools = metrics.by_tool as { tool_name: string; call_count: number }[];
  const byTool = Object.fromEntries(tools.map((m) => [m.tool_name, m.call_count]));
  assert.deepEqual(byTool, { memory_read: 1000, memory_recall: 1000, memory_search: 1000, memory_write: 1000 });
  assert.equal(server.child.exitCode, null, 'still running');
  const store = await openEngram({ path: db });
  t.after(() => store.close());
  assert.equal((await store.list({ limit: 1 })).total, 1000);
  for (const id of ids.slice(0, 50)) assert.match((await store.get({ id })).content, /^Client \d+ note \d+/);
});

test('CLI: workspace list|add|remove and mcp config for every client', (t) => {
  const dir = tempDir(t);
  assert.equal(cli(['init'], { cwd: dir }).code, 0);
  const added = cli(['workspace', 'add', 'audit', '--scope', 'audit-2026', '--corpus', 'sias-v7'], { cwd: dir });
  assert.equal(added.code, 0);
  assert.deepEqual(added.json?.created, true);
  const listed = cli(['workspace', 'list'], { cwd: dir }).json?.workspaces as { name: string; scope: string; corpus_id: string }[];
  assert.deepEqual(listed.map((w) => [w.name, w.scope, w.corpus_id]), [['audit', 'audit-2026', 'sias-v7'], ['default', 'project', '']]);
  assert.equal(cli(['workspace', 'add', 'bad name'], { cwd: dir }).code, 2);
  const protectedOne = cli(['workspace', 'remove', 'default'], { cwd: dir });
  assert.deepEqual([protectedOne.code, protectedOne.error?.error], [2, 'PARAM_ERROR']);
  assert.equal(cli(['workspace', 'remove', 'nope'], { cwd: dir }).code, 3);
  assert.equal(cli(['workspace', 'remove', 'audit'], { cwd: dir }).code, 0);

  for (const client of ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex']) {
    const run = cli(['mcp', 'config', '--client', client], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!run.stdout.includes(dir) && !run.stdout.includes(process.execPath), `${client}: no path of this machine`);
    assert.doesNotMatch(run.stdout, /--db|ENGRAM_DB/, `${client}: no pinned store`);
    const json = cli(['mcp', 'config', '--client', client, '--json'], { cwd: dir }).json;
    assert.deepEqual([json?.command, json?.args, json?.env], ['engram', ['serve'], undefined]);
    if (client === 'codex') {
      assert.equal(run.stdout, '[mcp_servers.engram]\ncommand = "engram"\nargs = ["serve"]\n');
      continue;
    }
    const server = { command: 'engram', args: ['serve'] };
    assert.deepEqual(JSON.parse(run.stdout), client === 'vscode'
      ? { servers: { engram: { type: 'stdio', ...server } } }
      : { mcpServers: { engram: server } });
  }
  // --db alone pins a store, as ENGRAM_DB in the server's environment, exactly as given.
  const pinned = cli(['--db', 'notes/memory.db', 'mcp', 'config', '--client', 'cursor'], { cwd: dir });
  assert.deepEqual(JSON.parse(pinned.stdout).mcpServers.engram.env, { ENGRAM_DB: 'notes/memory.db' });
  assert.equal(
    cli(['--db', 'notes/memory.db', 'mcp', 'config', '--client', 'codex'], { cwd: dir }).stdout,
    '[mcp_servers.engram]\ncommand = "engram"\nargs = ["serve"]\nenv = { ENGRAM_DB = "notes/memory.db" }\n',
  );
  assert.deepEqual(readdirSync(dir).sort(), ['.engram'], 'nothing written besides the store');
  const nowhere = cli(['mcp', 'config', '--client', 'cursor'], { cwd: dir, env: { PATH: dir } });
  assert.match(nowhere.stderr, /'engram' is not on this PATH/);
  assert.equal(cli(['mcp', 'config', '--client', 'emacs'], { cwd: dir }).code, 2);
});

test('the printed config starts a server where no store exists: reads are empty, the first write creates it', async (t) => {
  const home = tempDir(t);
  const project = tempDir(t);
  const bin = join(tempDir(t), 'bin');
  mkdirSync(bin);
  // What `npm install -g engram` puts on the PATH.
  writeFileSync(join(bin, 'engram'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, 'engram'), 0o755);
  const config = JSON.parse(cli(['mcp', 'config', '--client', 'claude-code'], { cwd: project, env: { HOME: home } }).stdout) as {
    mcpServers: { engram: { command: string; args: string[] } };
  };
  const transport = new StdioClientTransport({
    ...config.mcpServers.engram,
    cwd: project,
    env: env({ HOME: home, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` }) as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const call = caller(client);
  const store = join(home, '.engram', 'memory.db');

  assert.equal(ok(await call('memory_search', { query: 'auth' })).count, 0);
  const recalled = ok(await call('memory_recall', { query: 'auth' }));
  assert.deepEqual([recalled.inject_text, recalled.non_injectable], ['', 0]);
  assert.deepEqual(ok(await call('memory_read', { ids: ['MEM-000000000000'] })).missing, ['MEM-000000000000']);
  assert.equal(errorOf(await call('memory_forget', { id: 'MEM-000000000000' })).error, 'NOT_FOUND');
  assert.equal(existsSync(join(home, '.engram')), false, 'no store before the first write');
  assert.deepEqual(readdirSync(project), [], 'nothing in the project');

  const proposed = ok(await call('memory_propose', {
    items: [{ title: 'Auth', content: 'We chose JWT for stateless auth', type: 'decision', provenance_hint: 'docs/adr/0001.md' }],
  }));
  assert.equal(proposed.stored, 1);
  assert.ok(existsSync(store), 'created by the first write');
  // stderr is another pipe than the answer: give the line a moment to arrive.
  for (let i = 0; i < 100 && !stderr.includes('created store'); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(stderr.includes(`engram: created store ${store}\n`), stderr);
  const id = (proposed.items as { id: string }[])[0]?.id ?? '';
  const saved = await openEngram({ path: store });
  try {
    assert.deepEqual((await saved.get({ id })).provenance, { source_id: 'docs/adr/0001.md' });
  } finally {
    saved.close();
  }
  assert.equal(ok(await call('memory_search', { query: 'JWT' })).count, 1, 'reads now see the store');
});

test('memory_propose: a proposal without provenance is quarantined and says which field would have avoided it', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  const client = await stdioClient(t, db);
  const call = caller(client);
  const result = ok(await call('memory_propose', {
    items: [
      { content: 'Builds run on Node 20 in CI', type: 'fact' },
      { content: 'Releases are tagged from main', provenance_hint: { source_id: 'docs/release.md' } },
      { content: 'The cache TTL is 300 s', provenance_hint: 'config/cache.yaml' },
      { content: 'Staging resets every Monday', provenance_hint: '   ' },
    ],
  }));
  assert.deepEqual([result.stored, result.quarantined], [2, 2]);
  const items = result.items as { status: string; reason?: string; hint?: string; rules?: string[] }[];
  assert.deepEqual(items.map((i) => i.status), ['quarantined', 'stored', 'stored', 'quarantined']);
  for (const held of [items[0], items[3]]) {
    assert.equal(held?.reason, 'no provenance_hint');
    assert.match(held?.hint ?? '', /^add provenance_hint: \{"source_id": /);
    assert.deepEqual(held?.rules, ['provenance.missing']);
  }
  assert.equal(items[1]?.reason, undefined);
  const { tools } = await client.listTools();
  const propose = tools.find((tool) => tool.name === 'memory_propose');
  assert.match(propose?.description ?? '', /"provenance_hint": \{"source_id": "docs\/auth\.md", "source_kind": "doc"\}/);
  assert.match(propose?.description ?? '', /"provenance_hint": "docs\/auth\.md"/);
});

test('stdio: a client that stops reading its answers (EPIPE) ends the server quietly, as `engram export | head` ends', async (t) => {
  const dir = tempDir(t);
  const child = spawn(process.execPath, [CLI, 'serve', '--db', join(dir, 'memory.db')], { env: { ...process.env, HOME: dir } });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const params = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params });
  // The first answer read, the client closes its end of the server's stdout and asks again.
  await new Promise((resolve) => child.stdout.once('data', resolve));
  child.stdout.destroy();
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  for (let id = 2; id < 6; id++) send({ jsonrpc: '2.0', id, method: 'tools/list' });
  setTimeout(() => child.stdin.end(), 3000);
  assert.equal(await exited, 0, stderr);
  assert.doesNotMatch(stderr, /EPIPE|Unhandled|at /);
});

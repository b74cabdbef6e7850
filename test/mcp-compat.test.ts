/**
 * `engram serve --compat mem-context`: an MCP client that knows mem-context's tool names and
 * parameters (remember, recall with token_budget / min_score / limit / type_filter, forget, get,
 * update, status, review, consolidation_candidates) works against engram, besides the memory_*
 * tools, through the SDK client and the real server.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { COMPAT_TOOLS } from '../src/mcp/compat/index.js';
import { TOOLS } from '../src/mcp/tools/index.js';
import { DEFAULT_TOOL_NAMES } from '../src/mcp/tools/profiles.js';
import { CLI, cli, hostile, tempDir } from './helpers.js';

const MEM_CONTEXT_NAMES = ['remember', 'recall', 'forget', 'get', 'update', 'status', 'review', 'consolidation_candidates'];

type Context = Parameters<typeof tempDir>[0] & { after: (fn: () => Promise<void>) => void };
type Json = Record<string, unknown>;
interface Memory {
  id: string;
  content: string;
  type: string;
  weight: number;
  tier: string;
  quarantined: boolean;
  score?: number;
}
type ToolResult = { isError?: boolean; structuredContent?: Json; content: { text: string }[] };

async function serve(t: Context, args: string[]) {
  const dir = tempDir(t);
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ENGRAM_')));
  const client = new Client({ name: 'mem-context-client', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--db', join(dir, 'memory.db'), '--no-rate-limit', ...args],
    env: { ...clean, ENGRAM_AUTO_CONSOLIDATE: 'off' } as Record<string, string>,
    stderr: 'pipe',
  }));
  t.after(() => client.close());
  const { tools } = await client.listTools();
  /** Calls a tool: its structured result, or the error object of an isError result. */
  const call = async (name: string, args: Json = {}): Promise<unknown> => {
    const result = await client.callTool({ name, arguments: args }) as ToolResult;
    if (result.isError === true) return { error: JSON.parse(result.content[0]?.text ?? '{}') as Json };
    return { ...(result.structuredContent ?? {}), text: result.content[0]?.text };
  };
  return { client, tools, names: tools.map((tool) => tool.name), call };
}

test('--compat mem-context lists mem-context\'s tools besides the memory_* tools; no name clashes', async (t) => {
  const compat = COMPAT_TOOLS.get('mem-context') ?? [];
  assert.deepEqual(compat.map((tool) => tool.name), MEM_CONTEXT_NAMES);
  const engramNames = new Set(TOOLS.map((tool) => tool.name));
  for (const tool of compat) assert.equal(engramNames.has(tool.name), false, `${tool.name} is also an engram tool`);

  const { client, names, tools } = await serve(t, ['--compat', 'mem-context']);
  assert.deepEqual(names, [...DEFAULT_TOOL_NAMES, ...MEM_CONTEXT_NAMES]);
  const size = JSON.stringify(tools).length;
  assert.ok(size <= 18_000, `tools/list is ${size} characters`);
  for (const tool of tools) {
    assert.ok(tool.description && tool.description.length <= 500, `${tool.name}: a concise description`);
    assert.equal(tool.inputSchema.additionalProperties, false, `${tool.name}: the input schema stays strict`);
  }
  const recall = tools.find((tool) => tool.name === 'recall');
  assert.deepEqual(Object.keys(recall?.inputSchema.properties ?? {}), ['query', 'scope', 'token_budget', 'min_score', 'limit', 'type_filter']);
  assert.match(client.getInstructions() ?? '', /remember, recall, get, update, forget, status, review, consolidation_candidates: mem-context/);

  // --tools and --compat add up; an unknown compat set fails before the server starts.
  const both = await serve(t, ['--tools', 'memory_search', '--compat', 'mem-context']);
  assert.deepEqual(both.names, ['memory_search', ...MEM_CONTEXT_NAMES]);
  const bad = cli(['serve', '--db', join(tempDir(t), 'm.db'), '--compat', 'mem-kontext']);
  assert.equal(bad.code, 2);
  assert.equal(bad.error?.error, 'PARAM_ERROR');
  assert.match(String(bad.error?.hint), /mem-context/);
});

test('a mem-context client: remember, recall (token_budget, min_score, limit, type_filter), get, update, status, review, consolidation_candidates, forget', async (t) => {
  const { call } = await serve(t, ['--compat', 'mem-context']);

  const kept = await call('remember', {
    content: 'Sessions use JWT access tokens that expire after 15 minutes.',
    type: 'semantic', weight: 0.7, tags: 'auth,jwt', source: 'docs/auth.md',
  }) as { id: string; action: string; memory: Memory };
  assert.equal(kept.action, 'created');
  assert.deepEqual([kept.memory.type, kept.memory.weight, kept.memory.tier, kept.memory.quarantined], ['semantic', 0.7, 'mtm', false]);
  // mem-context's default weight of the type is engram's 1.
  const read = await call('memory_read', { ids: [kept.id] }) as { items: { weight: number; tags: string[] }[] };
  assert.equal(read.items[0]?.weight, 1);
  assert.deepEqual(read.items[0]?.tags, ['auth', 'jwt']);
  const episode = await call('remember', {
    content: 'Debugging session: the JWT refresh failed because the clock of the test host drifted.',
    source: 'chat 2026-01-05',
  }) as { id: string; memory: Memory };
  assert.deepEqual([episode.memory.type, episode.memory.weight], ['episodic', 0.5], 'episodic at its default weight');
  // Without a source, remember is judged like memory_propose: quarantined, out of recall, in review.
  const unsourced = await call('remember', { content: 'The JWT signing key rotates every month.' }) as { id: string; memory: Memory; note?: string };
  assert.equal(unsourced.memory.quarantined, true);
  assert.match(unsourced.note ?? '', /^Quarantined: not recalled until verified/, 'the answer says it is held');
  assert.equal((kept as { note?: string }).note, undefined, 'a stored memory carries no such note');
  const refused = await call('remember', { content: `Deploy with ${hostile('secret', /^aws access key \/ context 1$/)}` }) as { error?: Json };
  assert.equal(refused.error?.error, 'POLICY_REJECTED', 'secrets are rejected, as for every write');

  const found = await call('recall', { query: 'JWT', token_budget: 800, limit: 5 }) as { memories: Memory[]; count: number; tokens_used: number; text: string };
  assert.deepEqual(found.memories.map((m) => m.id).sort(), [kept.id, episode.id].sort());
  assert.equal(found.count, 2);
  assert.ok(found.tokens_used > 0 && found.tokens_used <= 800);
  assert.ok(found.memories.every((m) => typeof m.score === 'number' && m.content.includes('JWT')));
  assert.match(found.text, /ENGRAM_MEMORY format_version=1/, 'the text content is the injection block');
  const semantic = await call('recall', { query: 'JWT', type_filter: 'semantic' }) as { memories: Memory[] };
  assert.deepEqual(semantic.memories.map((m) => m.id), [kept.id]);
  assert.equal((await call('recall', { query: 'JWT', limit: 1 }) as { memories: Memory[] }).memories.length, 1);
  const best = Math.max(...found.memories.map((m) => m.score ?? 0));
  const above = await call('recall', { query: 'JWT', min_score: best }) as { memories: Memory[] };
  assert.ok(above.memories.length >= 1 && above.memories.every((m) => (m.score ?? 0) >= best));
  assert.equal((await call('recall', { query: 'JWT', min_score: 1000 }) as { count: number }).count, 0);
  const tiny = await call('recall', { query: 'JWT', token_budget: 1 }) as { count: number };
  assert.equal(tiny.count, 0, 'nothing fits one token');

  const got = await call('get', { id: kept.id }) as { memory: Memory; lifecycle: { half_life_days: number } };
  assert.equal(got.memory.content, 'Sessions use JWT access tokens that expire after 15 minutes.');
  assert.equal(got.lifecycle.half_life_days, 23.1049);
  assert.equal((await call('get', { id: 'MEM-000000000000' }) as { error: Json }).error.error, 'NOT_FOUND');

  const updated = await call('update', { id: kept.id, fields: { type: 'permanent', weight: 1.0, tags: ['auth', 'sessions'] } }) as { action: string; memory: Memory & { version: number } };
  assert.deepEqual([updated.action, updated.memory.type, updated.memory.tier, updated.memory.weight, updated.memory.version], ['updated', 'permanent', 'ltm', 1, 2]);
  const retyped = await call('update', { id: episode.id, fields: { type: 'fact' } }) as { memory: Memory & { kind: string } };
  assert.deepEqual([retyped.memory.kind, retyped.memory.type], ['fact', 'episodic'], 'another type is engram\'s item type');

  const status = await call('status') as { total: number; by_type: Record<string, number> };
  assert.equal(status.total, 3);
  assert.deepEqual(status.by_type, { episodic: 2, semantic: 0, permanent: 1 });
  const scoped = await call('status', { scope: 'elsewhere' }) as { by_type: Record<string, number>; scope: string };
  assert.deepEqual([scoped.scope, scoped.by_type], ['elsewhere', { episodic: 0, semantic: 0, permanent: 0 }]);

  const review = await call('review') as { flagged: (Memory & { reason: string })[] };
  assert.deepEqual(review.flagged.map((m) => [m.id, m.reason]), [[unsourced.id, 'quarantined']]);
  const candidates = await call('consolidation_candidates', {}) as { extract: unknown[]; merge: unknown[] };
  assert.ok(Array.isArray(candidates.extract) && Array.isArray(candidates.merge));
  const batch = await call('consolidation_candidates', { limit: 1 }) as { extract: unknown[]; merge: unknown[]; limit: number };
  assert.ok(batch.extract.length + batch.merge.length <= 1 && batch.limit === 1);

  const forgotten = await call('forget', { id: kept.id }) as { action: string; memory: Memory & { archived: boolean } };
  assert.deepEqual([forgotten.action, forgotten.memory.archived], ['forgotten', true]);
  const after = await call('recall', { query: 'JWT' }) as { memories: Memory[] };
  assert.deepEqual(after.memories.map((m) => m.id), [episode.id], 'a forgotten memory is never recalled');
});

test('remember under --trust-writes stores without a source; mem-context names not served are NOT_FOUND with a hint', async (t) => {
  const trusted = await serve(t, ['--compat', 'mem-context', '--trust-writes']);
  const stored = await trusted.call('remember', { content: 'The staging database is refreshed every Sunday.' }) as { memory: Memory };
  assert.equal(stored.memory.quarantined, false);
  const found = await trusted.call('recall', { query: 'staging database refreshed' }) as { memories: Memory[] };
  assert.deepEqual(found.memories.map((m) => m.content), ['The staging database is refreshed every Sunday.']);

  const plain = await serve(t, []);
  assert.equal(plain.names.some((name) => MEM_CONTEXT_NAMES.includes(name)), false);
  const refused = await plain.call('remember', { content: 'x' }) as { error: Json };
  assert.equal(refused.error.error, 'NOT_FOUND');
  assert.match(String(refused.error.hint), /engram serve --compat mem-context/);
});

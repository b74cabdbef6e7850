/**
 * `engram serve --tools`: the default profile lists the daily tools only, `all` every tool, a comma
 * list exactly the names given; an unknown name is a PARAM_ERROR before anything starts. The size
 * of `tools/list` is bounded (the budget: every agent session pays it), and the server's
 * instructions carry the usage guide for the tools served. Driven through the SDK client against
 * the real `engram serve`; mcp.test.ts calls every tool.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TOOLS } from '../src/mcp/tools/index.js';
import { DEFAULT_TOOL_NAMES } from '../src/mcp/tools/profiles.js';
import { CLI, cli, tempDir } from './helpers.js';

/** The budgets of `tools/list` (total JSON characters of the tools array). */
const DEFAULT_LIST_MAX = 10_000;
const ALL_LIST_MAX = 20_000;

type Context = Parameters<typeof tempDir>[0] & { after: (fn: () => Promise<void>) => void };

async function serve(t: Context, args: string[], env: Record<string, string> = {}) {
  const dir = tempDir(t);
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ENGRAM_')));
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--db', join(dir, 'memory.db'), ...args],
    env: { ...clean, ENGRAM_AUTO_CONSOLIDATE: 'off', ...env } as Record<string, string>,
    stderr: 'pipe',
  }));
  t.after(() => client.close());
  const { tools } = await client.listTools();
  return { client, tools, names: tools.map((tool) => tool.name), size: JSON.stringify(tools).length };
}

test('the default profile lists the daily tools within 10,000 characters, with the usage guide as instructions', async (t) => {
  const { client, names, size, tools } = await serve(t, []);
  assert.deepEqual(names, [...DEFAULT_TOOL_NAMES]);
  assert.deepEqual(names, ['memory_recall', 'memory_search', 'memory_propose', 'memory_read', 'memory_update', 'memory_forget']);
  assert.ok(size <= DEFAULT_LIST_MAX, `tools/list is ${size} characters`);
  for (const tool of tools) {
    assert.ok(tool.description && tool.description.length <= 500, `${tool.name}: a concise description`);
    assert.equal(tool.inputSchema.additionalProperties, false, `${tool.name}: the input schema stays strict`);
    assert.equal('$schema' in tool.inputSchema, false);
  }

  const instructions = client.getInstructions() ?? '';
  assert.ok(instructions.length > 0 && instructions.length <= 2000, `instructions are short (${instructions.length})`);
  for (const said of [/memory_recall/, /memory_propose/, /provenance_hint/, /Not for memory: secrets, credentials/, /--tools all/]) {
    assert.match(instructions, said);
  }
  assert.doesNotMatch(instructions, /memory_write|memory_review/, 'no line about a tool not served');

  // A tool of another profile is not served, and the error says how to serve it.
  const refused = await client.callTool({ name: 'memory_write', arguments: { content: 'x' } }) as { isError?: boolean; content: { text: string }[] };
  assert.equal(refused.isError, true);
  const error = JSON.parse(refused.content[0]?.text ?? '{}') as { error: string; message: string; hint: string };
  assert.equal(error.error, 'NOT_FOUND');
  assert.match(error.message, /memory_write is not served/);
  assert.match(error.hint, /engram serve --tools all/);
  // A hint names only tools that are served: no workspace tools here.
  const nowhere = await client.callTool({ name: 'memory_search', arguments: { query: 'x', workspace: 'nowhere' } }) as { content: { text: string }[] };
  const unknown = JSON.parse(nowhere.content[0]?.text ?? '{}') as { error: string; hint: string };
  assert.equal(unknown.error, 'NOT_FOUND');
  assert.match(unknown.hint, /^Known workspaces: default\.$/);
});

test('--tools all lists every tool within 20,000 characters; the instructions cover the extra tools', async (t) => {
  const { client, names, size } = await serve(t, ['--tools', 'all']);
  assert.deepEqual(names, TOOLS.map((tool) => tool.name));
  assert.ok(size <= ALL_LIST_MAX, `tools/list is ${size} characters`);
  const instructions = client.getInstructions() ?? '';
  assert.match(instructions, /memory_write/);
  assert.doesNotMatch(instructions, /--tools all/, 'nothing more to serve');
});

test('--tools takes a comma list of names and profiles; ENGRAM_MCP_TOOLS when no flag', async (t) => {
  const pair = await serve(t, ['--tools', 'memory_link, memory_recall']);
  assert.deepEqual(pair.names, ['memory_recall', 'memory_link'], 'in the registry order, spaces ignored');
  const instructions = pair.client.getInstructions() ?? '';
  assert.match(instructions, /memory_recall/);
  assert.doesNotMatch(instructions, /memory_propose/);

  const more = await serve(t, ['--tools', 'default,memory_review,memory_recall']);
  assert.deepEqual(more.names, [...DEFAULT_TOOL_NAMES, 'memory_review'].sort((a, b) => order(a) - order(b)));

  const fromEnv = await serve(t, [], { ENGRAM_MCP_TOOLS: 'all' });
  assert.equal(fromEnv.names.length, TOOLS.length);
  const flagWins = await serve(t, ['--tools', 'default'], { ENGRAM_MCP_TOOLS: 'all' });
  assert.deepEqual(flagWins.names, [...DEFAULT_TOOL_NAMES]);
});

function order(name: string): number {
  return TOOLS.findIndex((tool) => tool.name === name);
}

test('an unknown tool name in --tools exits 2 with PARAM_ERROR listing the valid names; no store is created', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  for (const spec of ['memory_fly', 'default,memory_fly', 'toString', ',']) {
    const run = cli(['serve', '--db', db, '--tools', spec]);
    if (spec === ',') {
      // Nothing named: the default profile, as with no flag; stdin is empty, so the server stops at once.
      assert.equal(run.code, 0, run.stderr);
      continue;
    }
    assert.equal(run.code, 2, `${spec}: ${run.stderr}`);
    assert.equal(run.error?.error, 'PARAM_ERROR');
    assert.match(String(run.error?.message), /Unknown tool or profile '(memory_fly|toString)' in --tools/);
    for (const name of ['default', 'all', ...TOOLS.map((tool) => tool.name)]) {
      assert.ok(String(run.error?.hint).includes(name), `${spec}: the hint lists ${name}`);
    }
    assert.equal(run.stdout, '', 'stdout stays empty on failure');
  }
  const fromEnv = cli(['serve', '--db', db], { env: { ENGRAM_MCP_TOOLS: 'memory_nope' } });
  assert.deepEqual([fromEnv.code, fromEnv.error?.error], [2, 'PARAM_ERROR']);
  assert.equal(existsSync(db), false, 'no store was created');
});

/**
 * `--tokenizer` through the shells: the flag (before or after the command) beats ENGRAM_TOKENIZER,
 * which beats `"tokenizer"` in `.engram/config.json`; recall, push, brief, hook and serve count
 * with it; a default run never loads an encoding, and a run that asks for one loads that one only.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { loadTokenizer } from '../src/recall/tokenizer.js';
import { CLI, cli, nodeAsync, tempDir } from './helpers.js';

const CHINESE = '我们决定把数据库迁移到新的服务器上，因为旧的机器经常在晚上重启。';
const ENGLISH = 'The database moved to the new server because the old one rebooted at night.';

/** A project with a store holding a Chinese and an English memory about the database. */
function project(t: { after: (fn: () => void) => void }): string {
  const dir = tempDir(t);
  assert.equal(cli(['init'], { cwd: dir }).code, 0);
  for (const content of [CHINESE, ENGLISH]) assert.equal(cli(['put', '--content', content, '--tags', 'db'], { cwd: dir }).code, 0);
  return dir;
}

function setConfig(dir: string, values: Record<string, unknown>): void {
  const file = join(dir, '.engram', 'config.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')) as object, ...values }));
}

test('flag > ENGRAM_TOKENIZER > config file, on recall, push and brief; tokens_used is that count', async (t) => {
  const dir = project(t);
  const used = (args: string[], env: Record<string, string> = {}) => {
    const run = cli([...args, '--json'], { cwd: dir, env });
    assert.equal(run.code, 0, run.stderr);
    return run.json as { tokenizer: string; tokens_used: number; inject_text: string };
  };
  assert.equal(used(['recall', 'database']).tokenizer, 'chars');
  setConfig(dir, { tokenizer: 'cl100k' });
  assert.equal(used(['recall', 'database']).tokenizer, 'cl100k');
  assert.equal(used(['recall', 'database'], { ENGRAM_TOKENIZER: 'o200k' }).tokenizer, 'o200k');
  assert.equal(used(['recall', 'database', '--tokenizer', 'chars'], { ENGRAM_TOKENIZER: 'o200k' }).tokenizer, 'chars');
  assert.equal(used(['--tokenizer', 'o200k', 'push', 'database']).tokenizer, 'o200k');
  assert.equal(used(['brief', '--tokenizer', 'o200k']).tokenizer, 'o200k');
  for (const name of ['o200k', 'cl100k'] as const) {
    const tokenizer = await loadTokenizer(name);
    for (const result of [used(['recall', '数据库 database', '--tokenizer', name]), used(['brief', '--tokenizer', name])]) {
      assert.match(result.inject_text, /数据库/);
      assert.equal(result.tokens_used, tokenizer.count(result.inject_text));
    }
  }
  // The text output prints the same count in its closing line.
  const text = cli(['recall', '数据库', '--tokenizer', 'o200k', '--format', 'text'], { cwd: dir }).stdout;
  assert.match(text, new RegExp(`tokens_used=${(await loadTokenizer('o200k')).count(text)}\\]\\n$`));
});

test('a name that is no tokenizer is a PARAM_ERROR naming the valid ones; the hook answers nothing', (t) => {
  const dir = project(t);
  for (const [args, env, source] of [
    [['recall', 'database', '--tokenizer', 'gpt2'], {}, '--tokenizer'],
    [['recall', 'database'], { ENGRAM_TOKENIZER: 'p50k' }, 'ENGRAM_TOKENIZER'],
  ] as const) {
    const run = cli([...args, '--json'], { cwd: dir, env });
    assert.equal(run.error?.error, 'PARAM_ERROR', run.stderr);
    assert.match(String(run.error?.message), new RegExp(source));
    assert.equal(run.error?.hint, 'Valid values: chars, o200k, cl100k');
  }
  const hook = cli(['hook', 'prompt-submit', '--tokenizer', 'gpt2'], { cwd: dir, input: JSON.stringify({ prompt: 'database' }) });
  assert.equal(hook.code, 0);
  assert.equal(hook.stdout, '');
  const answered = cli(['hook', 'prompt-submit', '--tokenizer', 'cl100k'], { cwd: dir, input: JSON.stringify({ prompt: 'database' }) });
  assert.match(answered.stdout, /tokens_used=\d+/);
  setConfig(dir, { tokenizer: 'gpt2' });
  const config = cli(['recall', 'database', '--json'], { cwd: dir });
  assert.equal(config.error?.error, 'PARAM_ERROR');
  assert.match(String(config.error?.message), /config\.json: tokenizer/);
});

test('an encoding is loaded only when asked for: none by default, and only the one named', async (t) => {
  const dir = project(t);
  // A module hook that logs every gpt-tokenizer module the process resolves.
  const log = join(dir, 'loaded.log');
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(hooks, [
    'import { appendFileSync } from "node:fs";',
    'export async function resolve(specifier, context, next) {',
    '  const result = await next(specifier, context);',
    `  if (result.url.includes("gpt-tokenizer")) appendFileSync(${JSON.stringify(log)}, result.url + "\\n");`,
    '  return result;',
    '}',
  ].join('\n'));
  const register = join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`);
  const loaded = async (args: string[]) => {
    writeFileSync(log, '');
    const run = await nodeAsync(['--import', register, CLI, ...args], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    return readFileSync(log, 'utf8');
  };
  assert.equal(await loaded(['recall', 'database']), '');
  assert.equal(await loaded(['list']), '');
  // The vocabularies (bpeRanks/) are the large modules; small parameter files of others may load.
  const o200k = await loaded(['recall', 'database', '--tokenizer', 'o200k']);
  assert.match(o200k, /bpeRanks\/o200k_base/);
  assert.doesNotMatch(o200k, /bpeRanks\/cl100k_base/);
  const cl100k = await loaded(['recall', 'database', '--tokenizer', 'cl100k']);
  assert.match(cl100k, /bpeRanks\/cl100k_base/);
  assert.doesNotMatch(cl100k, /bpeRanks\/o200k_base/);
});

test('serve --tokenizer: memory_recall counts with it', async (t) => {
  const dir = project(t);
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ENGRAM_')));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--tokenizer', 'cl100k'],
    cwd: dir,
    env: { ...clean, ENGRAM_AUTO_CONSOLIDATE: 'off' } as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const result = (await client.callTool({ name: 'memory_recall', arguments: { query: '数据库' } })) as {
    structuredContent?: { tokenizer?: string; tokens_used?: number; inject_text?: string };
  };
  assert.equal(result.structuredContent?.tokenizer, 'cl100k');
  const cl100k = await loadTokenizer('cl100k');
  assert.equal(result.structuredContent?.tokens_used, cl100k.count(result.structuredContent?.inject_text ?? ''));
});

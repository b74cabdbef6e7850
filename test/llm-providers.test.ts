/**
 * The LLM providers against fake models: shell commands the test writes (an echo, one exiting 1,
 * one sleeping past the timeout with a child of its own, a missing one, one printing too much)
 * and a loopback OpenAI-compatible / Ollama chat server (`embed-server.ts`'s).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isEngramError } from '../src/errors.js';
import { createLlmProvider } from '../src/llm/create-provider.js';
import type { LlmProvider } from '../src/llm/provider.js';
import { parseLlmSpec } from '../src/llm/spec.js';
import { type SeenRequest, startEmbedServer } from './embed-server.js';
import { tempDir } from './helpers.js';

const KEY = 'sk-test-8d2e5a71c0f4-DO-NOT-LEAK';
const FAST = { attempts: 4, backoffMs: 20, maxDelayMs: 1_000 };
const ASK = { system: 'Answer from the memory.', prompt: 'What is the capital?', timeoutMs: 20_000 };

/** A fake LLM: a Node script in `dir`, run as `node SCRIPT`. */
function script(dir: string, name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return `'${process.execPath}' '${path}'`;
}

/** Rejects with an EngramError of `code` whose message matches `message`; returns it. */
async function failsWith(promise: Promise<unknown>, code: string, message: RegExp): Promise<Error & { hint?: string }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isEngramError(error), `an EngramError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    assert.match(error.message, message);
    return error;
  }
  assert.fail(`expected ${code}`);
}

/** True while `pid` is a live process (a zombie waiting to be reaped is not live). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/^\d+ \(.*\) Z/.test(stat);
}

async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((done) => setTimeout(done, 50));
  }
  return check();
}

test('spellings: a command line, openai:MODEL[@BASE_URL], ollama:MODEL[@URL]; bad ones are PARAM_ERROR', () => {
  assert.deepEqual(parseLlmSpec(' claude -p '), { kind: 'shell', command: 'claude -p' });
  assert.deepEqual(parseLlmSpec('ollama run llama3'), { kind: 'shell', command: 'ollama run llama3' });
  assert.deepEqual(parseLlmSpec('openai:gpt-4o-mini'), { kind: 'openai', model: 'gpt-4o-mini', url: 'https://api.openai.com/v1' });
  assert.deepEqual(parseLlmSpec('OLLAMA:llama3@http://gpu:11434/'), { kind: 'ollama', model: 'llama3', url: 'http://gpu:11434' });
  assert.deepEqual(parseLlmSpec('ollama:qwen2.5:7b'), { kind: 'ollama', model: 'qwen2.5:7b', url: 'http://127.0.0.1:11434' });
  for (const [spec, why] of [
    ['', /empty/],
    ['  ', /empty/],
    ['anthropic:claude', /unknown kind 'anthropic'/],
    ['openai:', /model name is missing/],
    ['ollama:m@gpu:11434', /needs http/],
    ['claude\n-p', /control character/],
  ] as const) {
    assert.throws(() => parseLlmSpec(spec), (error: unknown) => {
      assert.ok(isEngramError(error));
      assert.equal(error.code, 'PARAM_ERROR');
      assert.match(error.message, why);
      assert.match(error.hint ?? '', /openai:MODEL\[@BASE_URL\] or ollama:MODEL\[@URL\]/);
      return true;
    }, spec);
  }
  const env = {};
  assert.throws(() => createLlmProvider('openai:gpt-4o-mini', { env }), /needs an API key/);
  assert.throws(() => createLlmProvider('ollama:llama3', { env, mode: 'file' }), /file mode is for shell commands/);
  assert.equal(createLlmProvider('openai:gpt-4o-mini', { env: { OPENAI_API_KEY: KEY } }).label, 'openai:gpt-4o-mini');
  assert.equal(createLlmProvider('openai:m@http://127.0.0.1:1/v1', { env }).label, 'openai:m');
  assert.equal(createLlmProvider('claude -p', { env }).label, 'claude -p');
});

test('a shell command gets the system text and the prompt on stdin, or in a file removed afterwards', async (t) => {
  const dir = tempDir(t);
  const echo = script(dir, 'echo.mjs', `
    let input = '';
    process.stdin.setEncoding('utf8').on('data', (d) => { input += d; });
    process.stdin.on('end', () => process.stdout.write('{"stop": true}\\nECHO ' + JSON.stringify(input)));
  `);
  const stdin = await createLlmProvider(echo, { env: process.env }).complete(ASK);
  assert.equal(stdin, `{"stop": true}\nECHO ${JSON.stringify('Answer from the memory.\n\nWhat is the capital?\n')}`);

  const reader = script(dir, 'file.mjs', `
    import { readFileSync, statSync } from 'node:fs';
    const path = process.argv[process.argv.length - 1];
    process.stdout.write(JSON.stringify({ path, text: readFileSync(path, 'utf8'), mode: statSync(path).mode & 0o777, args: process.argv.length }));
  `);
  const llm = createLlmProvider(`${reader} --flag`, { env: process.env, mode: 'file', tmpDir: dir });
  const reply = JSON.parse(await llm.complete(ASK)) as { path: string; text: string; mode: number; args: number };
  assert.equal(reply.text, 'Answer from the memory.\n\nWhat is the capital?\n');
  assert.equal(reply.mode, 0o600);
  assert.equal(reply.args, 4, 'node, the script, --flag, then the file');
  assert.ok(reply.path.startsWith(dir));
  assert.equal(existsSync(reply.path), false, 'the prompt file is removed');
});

test('a command exiting 1 is LLM_ERROR with the tail of its stderr; a missing one says so', async (t) => {
  const dir = tempDir(t);
  const failing = script(dir, 'fail.mjs', `
    process.stderr.write('noise '.repeat(400) + 'model overloaded, try later');
    process.exit(1);
  `);
  const error = await failsWith(createLlmProvider(failing, { env: process.env }).complete(ASK), 'LLM_ERROR', /exited with code 1: ….*model overloaded, try later$/);
  assert.ok(error.message.length < 800, `bounded: ${error.message.length} characters`);
  const missing = await failsWith(
    createLlmProvider('engram-no-such-llm-4242 -p', { env: process.env }).complete(ASK),
    'LLM_ERROR',
    /'engram-no-such-llm-4242 -p' was not found \(exit 127\)/,
  );
  assert.match(missing.hint ?? '', /installed and on PATH/);
});

test('past the timeout the whole process group is killed (its sleeping child too): LLM_TIMEOUT', async (t) => {
  const dir = tempDir(t);
  const pidFile = join(dir, 'child.pid');
  const sleeper = `sleep 60 & echo $! > '${pidFile}'; wait`;
  const started = Date.now();
  const error = await failsWith(
    createLlmProvider(sleeper, { env: process.env }).complete({ ...ASK, timeoutMs: 1_500 }),
    'LLM_TIMEOUT',
    /gave no answer within 1\.5 s; it was stopped/,
  );
  assert.ok(Date.now() - started < 10_000, 'no hang');
  assert.match(error.hint ?? '', /more time/);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  assert.ok(pid > 0);
  assert.ok(await waitUntil(() => !running(pid), 5_000), `the sleeping child ${pid} is gone`);
});

test('never a hang: stdin not read, a child left holding stdout, a flood of output, an abort', async (t) => {
  const dir = tempDir(t);
  const env = process.env;
  // `true` never reads its stdin: a 2 MB prompt meets a closed pipe (EPIPE), which is no error.
  assert.equal(await createLlmProvider('true', { env }).complete({ ...ASK, prompt: 'x'.repeat(2_000_000) }), '');
  const pidFile = join(dir, 'left.pid');
  const started = Date.now();
  const left = await createLlmProvider(`sleep 60 & echo $! > '${pidFile}'; echo done`, { env }).complete(ASK);
  assert.equal(left, 'done\n');
  assert.ok(Date.now() - started < 10_000, 'the answer does not wait for the child left behind');
  const pid = Number(readFileSync(pidFile, 'utf8'));
  assert.ok(await waitUntil(() => !running(pid), 5_000), `the child left behind (${pid}) is killed`);
  await failsWith(createLlmProvider('head -c 5000000 /dev/zero', { env }).complete(ASK), 'LLM_ERROR', /printed more than 4 MiB/);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 300);
  await failsWith(createLlmProvider('sleep 60', { env }).complete({ ...ASK, signal: controller.signal }), 'LLM_ERROR', /was stopped/);
  const marker = join(dir, 'ran');
  const early = createLlmProvider(`touch '${marker}'`, { env }).complete({ ...ASK, signal: AbortSignal.abort() });
  await failsWith(early, 'LLM_ERROR', /was stopped/);
  assert.equal(existsSync(marker), false, 'an aborted call runs nothing');
});

/** An OpenAI chat completion answering `text`. */
const completion = (text: string) => ({ choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] });

function provider(spec: string, env: Record<string, string> = {}): LlmProvider {
  return createLlmProvider(spec, { env, http: FAST });
}

test('openai: the chat request (model, system and user messages, the key as a bearer token) and its reply', async (t) => {
  const server = await startEmbedServer(() => ({ body: completion('Paris.') }));
  t.after(() => server.close());
  const reply = await provider(`openai:small-model@${server.url}/v1/`, { ENGRAM_LLM_API_KEY: KEY, OPENAI_API_KEY: 'other' }).complete(ASK);
  assert.equal(reply, 'Paris.');
  const [seen] = server.requests as [SeenRequest];
  assert.equal(seen.method, 'POST');
  assert.equal(seen.path, '/v1/chat/completions');
  assert.equal(seen.headers.authorization, `Bearer ${KEY}`);
  assert.deepEqual(seen.body, {
    model: 'small-model',
    messages: [{ role: 'system', content: ASK.system }, { role: 'user', content: ASK.prompt }],
    stream: false,
  });
  await provider(`openai:small-model@${server.url}/v1`).complete({ ...ASK, system: '' });
  const second = server.requests[1] as SeenRequest;
  assert.equal(second.headers.authorization, undefined, 'no key, no header (a local server)');
  assert.deepEqual((second.body as { messages: unknown[] }).messages, [{ role: 'user', content: ASK.prompt }]);
});

test('openai: 429 then success honours Retry-After; a wait past the timeout is not made', async (t) => {
  const server = await startEmbedServer((_, n) => (n === 0
    ? { status: 429, headers: { 'retry-after': '0.3' }, body: { error: { message: 'slow down' } } }
    : { body: completion('after the wait') }));
  t.after(() => server.close());
  const started = performance.now();
  assert.equal(await provider(`openai:m@${server.url}/v1`).complete(ASK), 'after the wait');
  assert.equal(server.requests.length, 2);
  const [first, second] = server.requests as [SeenRequest, SeenRequest];
  assert.ok(second.at - first.at >= 280, `waited ${Math.round(second.at - first.at)} ms`);
  assert.ok(performance.now() - started < 10_000);

  const busy = await startEmbedServer(() => ({ status: 429, headers: { 'retry-after': '30' }, body: { error: 'busy' } }));
  t.after(() => busy.close());
  const begun = performance.now();
  // maxDelayMs 10 s (the default) caps the 30 s asked for: still past the 2 s left.
  const patient = createLlmProvider(`openai:m@${busy.url}/v1`, { env: {}, http: { backoffMs: 20 } });
  await failsWith(patient.complete({ ...ASK, timeoutMs: 2_000 }), 'LLM_ERROR', /HTTP 429: "busy"/);
  assert.ok(performance.now() - begun < 2_000, 'failed at once rather than wait 30 s');
  assert.equal(busy.requests.length, 1);
});

test('openai: a server that never answers is LLM_TIMEOUT within the time; errors name the URL and status, never the key', async (t) => {
  const hang = await startEmbedServer(() => 'hang');
  t.after(() => hang.close());
  const started = performance.now();
  const timeout = await failsWith(provider(`openai:m@${hang.url}/v1`).complete({ ...ASK, timeoutMs: 800 }), 'LLM_TIMEOUT', /gave no answer within 0\.8 s/);
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 750 && elapsed < 5_000, `${Math.round(elapsed)} ms`);
  assert.match(timeout.message, new RegExp(`openai:m at ${hang.url}/v1/chat/completions`));

  const refusing = await startEmbedServer(() => ({ status: 401, body: { error: { message: `invalid key ${KEY}` } } }));
  t.after(() => refusing.close());
  const refused = await failsWith(provider(`openai:m@${refusing.url}/v1`, { ENGRAM_LLM_API_KEY: KEY }).complete(ASK), 'LLM_ERROR', /refused the request: HTTP 401/);
  assert.ok(!refused.message.includes(KEY) && !JSON.stringify(refused).includes(KEY), 'the key is cut out');
  assert.match(refused.message, /\[redacted\]/);
  assert.match(refused.hint ?? '', /API key/);
  assert.equal(refusing.requests.length, 1, 'a refusal is not retried');

  const failing = await startEmbedServer(() => ({ status: 503, body: 'down' }));
  t.after(() => failing.close());
  await failsWith(provider(`openai:m@${failing.url}/v1`).complete(ASK), 'LLM_ERROR', /failed: HTTP 503: "down" \(4 attempts\)/);
  assert.equal(failing.requests.length, 4);
  const odd = await startEmbedServer(() => ({ body: { choices: [] } }));
  t.after(() => odd.close());
  await failsWith(provider(`openai:m@${odd.url}/v1`).complete(ASK), 'LLM_ERROR', /unexpected answer: no "choices"/);
});

test('ollama: /api/chat without streaming, the reply in message.content, no key sent', async (t) => {
  const server = await startEmbedServer(() => ({ body: { model: 'llama3', message: { role: 'assistant', content: 'From Ollama.' }, done: true } }));
  t.after(() => server.close());
  const reply = await provider(`ollama:llama3@${server.url}`, { OPENAI_API_KEY: KEY }).complete(ASK);
  assert.equal(reply, 'From Ollama.');
  const [seen] = server.requests as [SeenRequest];
  assert.equal(seen.path, '/api/chat');
  assert.equal(seen.headers.authorization, undefined);
  assert.deepEqual(seen.body, {
    model: 'llama3',
    messages: [{ role: 'system', content: ASK.system }, { role: 'user', content: ASK.prompt }],
    stream: false,
  });
});

test('openai: an answer over 4 MiB is not read further: LLM_ERROR at once, not retried', async (t) => {
  const huge = await startEmbedServer(() => ({ body: completion('x'.repeat(5 * 1024 * 1024)) }));
  t.after(() => huge.close());
  const error = await failsWith(provider(`openai:m@${huge.url}/v1`).complete(ASK), 'LLM_ERROR', /answer over 4 MiB/);
  assert.doesNotMatch(error.hint ?? '', /server is running/);
  assert.equal(huge.requests.length, 1, 'not retried');
  const large = await startEmbedServer(() => ({ body: completion('y'.repeat(3 * 1024 * 1024)) }));
  t.after(() => large.close());
  assert.equal((await provider(`openai:m@${large.url}/v1`).complete(ASK)).length, 3 * 1024 * 1024, 'under the cap: read whole');
});

test('openai: a 429 whose Retry-After reaches past the time left fails at once, said as a rate limit', async (t) => {
  const limited = await startEmbedServer(() => ({ status: 429, headers: { 'retry-after': '3600' }, body: { error: { message: 'rate limit' } } }));
  t.after(() => limited.close());
  const begun = performance.now();
  const error = await failsWith(provider(`openai:m@${limited.url}/v1`).complete({ ...ASK, timeoutMs: 60_000 }), 'LLM_ERROR', /rate-limited: HTTP 429: "rate limit", retry after 3600 s/);
  assert.ok(performance.now() - begun < 5_000, 'no wait');
  assert.equal(limited.requests.length, 1);
  assert.doesNotMatch(error.hint ?? '', /server is running/);
  assert.match(error.hint ?? '', /rate/);
  const busy = await startEmbedServer(() => ({ status: 429, body: { error: 'busy' } }));
  t.after(() => busy.close());
  const plain = await failsWith(provider(`openai:m@${busy.url}/v1`).complete(ASK), 'LLM_ERROR', /HTTP 429/);
  assert.match(plain.hint ?? '', /limits the request rate/, 'a 429 hint speaks of the rate limit');
});

test('openai: OPENAI_API_KEY goes to api.openai.com only; ENGRAM_LLM_API_KEY never in clear to another machine; no redirect followed', async (t) => {
  const server = await startEmbedServer(() => ({ body: completion('ok') }));
  t.after(() => server.close());
  await provider(`openai:m@${server.url}/v1`, { OPENAI_API_KEY: KEY }).complete(ASK);
  assert.equal((server.requests[0] as SeenRequest).headers.authorization, undefined, 'the OpenAI key stays with OpenAI');
  await provider(`openai:m@${server.url.replace('127.0.0.1', 'localhost')}/v1`, { ENGRAM_LLM_API_KEY: KEY, OPENAI_API_KEY: 'other' }).complete(ASK);
  assert.equal((server.requests[1] as SeenRequest).headers.authorization, `Bearer ${KEY}`, 'engram\'s own key to its URL (loopback)');
  assert.doesNotThrow(() => provider('openai:gpt-x', { OPENAI_API_KEY: KEY }), 'the hosted API takes the OpenAI key');
  assert.throws(() => provider('openai:gpt-x@http://example.com/v1', { ENGRAM_LLM_API_KEY: KEY }), (error: unknown) => {
    assert.ok(isEngramError(error));
    assert.equal(error.code, 'PARAM_ERROR');
    assert.match(error.message, /in clear over http/);
    assert.ok(!error.message.includes(KEY));
    return true;
  });
  assert.doesNotThrow(() => provider('openai:gpt-x@https://example.com/v1', { ENGRAM_LLM_API_KEY: KEY }));

  const elsewhere = await startEmbedServer(() => ({ body: completion('stolen') }));
  t.after(() => elsewhere.close());
  const redirecting = await startEmbedServer(() => ({ status: 307, headers: { location: `${elsewhere.url}/v1/chat/completions` } }));
  t.after(() => redirecting.close());
  const error = await failsWith(provider(`openai:m@${redirecting.url}/v1`, { ENGRAM_LLM_API_KEY: KEY }).complete(ASK), 'LLM_ERROR', /HTTP 307: redirected to .*; redirects are not followed/);
  assert.match(error.hint ?? '', /redirects to/);
  assert.equal(elsewhere.requests.length, 0, 'the prompt went nowhere else');
  assert.equal(redirecting.requests.length, 1, 'not retried');
});

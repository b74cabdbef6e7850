/**
 * The HTTP embedders against real loopback servers (node:http on 127.0.0.1), for both protocols:
 * success, batching, 429 then success (with and without Retry-After), timeout, 500, malformed
 * JSON, wrong dimension, wrong count, connection refused, refused requests, the caller's signal,
 * and the API key never leaking. Delays are kept to milliseconds through the client options.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inspect } from 'node:util';
import { type Embedder, normalize } from '../src/embed/embedder.js';
import { type HttpEmbedderOptions } from '../src/embed/http-embedder.js';
import { createOllamaEmbedder } from '../src/embed/ollama.js';
import { createOpenAiEmbedder } from '../src/embed/openai.js';
import { type EngramError, isEngramError } from '../src/errors.js';
import {
  type Reply,
  type SeenRequest,
  closedPort,
  inputOf,
  ollamaAnswer,
  openAiAnswer,
  startEmbedServer,
  vectorFor,
} from './embed-server.js';

const KEY = 'sk-test-4f1c9a0b7e2d-DO-NOT-LEAK';
/** Tiny waits so the suite stays fast; each test overrides what it measures. */
const FAST: HttpEmbedderOptions = { backoffMs: 1, maxDelayMs: 20, timeoutMs: 2_000 };

interface Protocol {
  name: 'ollama' | 'openai';
  path: string;
  answer(vectors: number[][]): unknown;
  create(base: string, options?: HttpEmbedderOptions): Embedder;
}

const PROTOCOLS: Protocol[] = [
  {
    name: 'ollama',
    path: '/api/embed',
    answer: ollamaAnswer,
    create: (base, options) => createOllamaEmbedder({ model: 'm', url: base, ...FAST, ...options }),
  },
  {
    name: 'openai',
    path: '/v1/embeddings',
    answer: openAiAnswer,
    create: (base, options) => createOpenAiEmbedder({ model: 'm', url: `${base}/v1`, apiKey: KEY, ...FAST, ...options }),
  },
];

type Context = { after: (fn: () => Promise<void>) => void };

async function serve(t: Context, reply: (request: SeenRequest, n: number) => Reply) {
  const server = await startEmbedServer(reply);
  t.after(() => server.close());
  return server;
}

/** Answers every request with a vector per input text. */
function echo(protocol: Protocol, dimensions = 3) {
  return (request: SeenRequest): Reply => ({
    body: protocol.answer(inputOf(request).map((text) => vectorFor(text, dimensions))),
  });
}

function expected(text: string, dimensions = 3): number[] {
  return [...normalize(Float32Array.from(vectorFor(text, dimensions)))];
}

/** The EMBEDDER_UNAVAILABLE error `promise` rejects with. */
async function unavailable(promise: Promise<unknown>): Promise<EngramError> {
  let caught: unknown;
  await assert.rejects(promise, (error: unknown) => {
    caught = error;
    return true;
  });
  assert.ok(isEngramError(caught), `not an EngramError: ${String(caught)}`);
  assert.equal(caught.code, 'EMBEDDER_UNAVAILABLE', caught.message);
  assert.equal(caught.toJSON().retryable, true);
  return caught;
}

const TEXTS = ['the car needs new tires', 'automobile wheels', 'a third text', 'four', 'fifth one'];

for (const protocol of PROTOCOLS) {
  const { name } = protocol;

  test(`${name}: one request, vectors normalised and in the order of the texts`, async (t) => {
    const server = await serve(t, echo(protocol));
    const embedder = protocol.create(server.url);
    assert.equal(embedder.id, `${name}:m`);
    assert.equal(embedder.dimensions, undefined);
    const vectors = await embedder.embed(TEXTS.slice(0, 3));
    assert.equal(server.requests.length, 1);
    const [request] = server.requests;
    assert.equal(request?.method, 'POST');
    assert.equal(request?.path, protocol.path);
    assert.deepEqual(request?.body, { model: 'm', input: TEXTS.slice(0, 3) });
    assert.equal(request?.headers['content-type'], 'application/json');
    assert.equal(embedder.dimensions, 3);
    for (const [i, vector] of vectors.entries()) {
      assert.ok(vector instanceof Float32Array);
      assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-6, `vector ${i} has length 1`);
      assert.deepEqual([...vector], expected(TEXTS[i]!));
    }
    assert.deepEqual(await embedder.embed([]), []);
    assert.equal(server.requests.length, 1, 'no request for no text');
  });

  test(`${name}: more texts than the batch size go in several requests, order kept`, async (t) => {
    const server = await serve(t, echo(protocol));
    const vectors = await protocol.create(server.url, { batchSize: 2 }).embed(TEXTS);
    assert.deepEqual(server.requests.map(inputOf), [TEXTS.slice(0, 2), TEXTS.slice(2, 4), TEXTS.slice(4)]);
    assert.deepEqual(vectors.map((v) => [...v]), TEXTS.map((text) => expected(text)));
  });

  test(`${name}: 429 then success is retried after a short backoff`, async (t) => {
    const server = await serve(t, (request, n) => n === 0 ? { status: 429, body: { error: 'slow down' } } : echo(protocol)(request));
    const vectors = await protocol.create(server.url).embed(TEXTS.slice(0, 2));
    assert.equal(server.requests.length, 2);
    assert.deepEqual(vectors.map((v) => [...v]), TEXTS.slice(0, 2).map((text) => expected(text)));
    const gap = server.requests[1]!.at - server.requests[0]!.at;
    assert.ok(gap < 250, `no Retry-After: backoff of about 1 ms, waited ${gap} ms`);
  });

  test(`${name}: 429 with Retry-After waits what the server asked, capped by maxDelayMs`, async (t) => {
    const asked = await serve(t, (request, n) => n === 0
      ? { status: 429, headers: { 'retry-after': '0.3' } }
      : echo(protocol)(request));
    await protocol.create(asked.url, { maxDelayMs: 5_000 }).embed(['x']);
    const waited = asked.requests[1]!.at - asked.requests[0]!.at;
    assert.ok(waited >= 280 && waited < 2_000, `Retry-After 0.3 s honoured: waited ${waited} ms`);

    const capped = await serve(t, (request, n) => n === 0
      ? { status: 503, headers: { 'retry-after': '30' } }
      : echo(protocol)(request));
    await protocol.create(capped.url, { maxDelayMs: 300 }).embed(['x']);
    const cut = capped.requests[1]!.at - capped.requests[0]!.at;
    assert.ok(cut >= 280 && cut < 2_000, `Retry-After 30 s capped at 300 ms: waited ${cut} ms`);
  });

  test(`${name}: a server that never answers fails within attempts × timeout`, async (t) => {
    const server = await serve(t, () => 'hang');
    const started = performance.now();
    const error = await unavailable(protocol.create(server.url, { timeoutMs: 150, attempts: 2 }).embed(['x']));
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 280 && elapsed < 1_500, `two attempts of 150 ms: ${elapsed} ms`);
    assert.equal(server.requests.length, 2);
    assert.match(error.message, /no answer within 150 ms \(2 attempts\)/);
    assert.equal(error.details.cause, 'no answer within 150 ms');
  });

  test(`${name}: 500 is retried, then EMBEDDER_UNAVAILABLE names the URL and the status`, async (t) => {
    const server = await serve(t, () => ({ status: 500, body: { error: 'model crashed\nwhile loading' } }));
    const error = await unavailable(protocol.create(server.url, { attempts: 3 }).embed(['x']));
    assert.equal(server.requests.length, 3);
    const url = `${server.url}${protocol.path}`;
    assert.equal(error.message, `Embedder ${name}:m at ${url} is unavailable: HTTP 500: "model crashed while loading" (3 attempts)`);
    assert.deepEqual(error.toJSON(), {
      ok: false,
      error: 'EMBEDDER_UNAVAILABLE',
      message: error.message,
      hint: 'Check that the embedding server is running and reachable at that URL, then retry.',
      retryable: true,
      url,
      cause: 'HTTP 500: "model crashed while loading"',
    });
  });

  test(`${name}: malformed JSON fails at once, quoting the answer`, async (t) => {
    const server = await serve(t, () => ({ body: '<html>proxy login</html>' }));
    const error = await unavailable(protocol.create(server.url).embed(['x']));
    assert.equal(server.requests.length, 1, 'an answer that is not JSON is not retried');
    assert.equal(error.details.cause, 'malformed JSON: "<html>proxy login</html>"');
  });

  test(`${name}: an answer of another dimension than the first fails`, async (t) => {
    const server = await serve(t, (request, n) => echo(protocol, n === 0 ? 3 : 4)(request));
    const embedder = protocol.create(server.url);
    await embedder.embed(['x']);
    const error = await unavailable(embedder.embed(['y']));
    assert.equal(error.details.cause, 'wrong dimension: vector 0 has 4 values, expected 3');
    assert.equal(embedder.dimensions, 3);
    assert.equal(server.requests.length, 2);
  });

  test(`${name}: an answer with the wrong count of vectors fails`, async (t) => {
    const server = await serve(t, (request) => ({
      body: protocol.answer(inputOf(request).slice(1).map((text) => vectorFor(text))),
    }));
    const error = await unavailable(protocol.create(server.url).embed(['a', 'b', 'c']));
    assert.equal(error.details.cause, 'wrong count of vectors: 2 for 3 texts');
  });

  test(`${name}: connection refused is retried, then named with the URL`, async () => {
    const base = `http://127.0.0.1:${await closedPort()}`;
    const error = await unavailable(protocol.create(base, { attempts: 2 }).embed(['x']));
    assert.equal(error.message, `Embedder ${name}:m at ${base}${protocol.path} is unavailable: connection refused (2 attempts)`);
  });

  test(`${name}: 404 fails at once: the model or the URL is wrong`, async (t) => {
    const server = await serve(t, () => ({ status: 404, body: { error: 'model "m" not found, try pulling it first' } }));
    const error = await unavailable(protocol.create(server.url).embed(['x']));
    assert.equal(server.requests.length, 1);
    assert.match(error.message, /refused the request \(the model or the URL is wrong\): HTTP 404: "model \\"m\\" not found/);
    assert.match(error.hint ?? '', /model name/);
  });
}

test('400 and 401 fail at once, saying what is wrong', async (t) => {
  for (const [status, what] of [[400, /the model or the URL is wrong/], [401, /the API key is wrong or missing/]] as const) {
    const server = await serve(t, () => ({ status, body: { error: { message: 'no' } } }));
    const error = await unavailable(PROTOCOLS[1]!.create(server.url).embed(['x']));
    assert.equal(server.requests.length, 1, `${status} is not retried`);
    assert.match(error.message, what);
  }
});

test('openai: the key goes in Authorization only when given; ollama sends none', async (t) => {
  const server = await serve(t, (request) => request.path.startsWith('/v1')
    ? { body: openAiAnswer(inputOf(request).map((text) => vectorFor(text))) }
    : { body: ollamaAnswer(inputOf(request).map((text) => vectorFor(text))) });
  await createOpenAiEmbedder({ model: 'm', url: `${server.url}/v1/`, apiKey: KEY }).embed(['x']);
  await createOpenAiEmbedder({ model: 'm', url: `${server.url}/v1` }).embed(['x']);
  await createOpenAiEmbedder({ model: 'm', url: `${server.url}/v1`, apiKey: '' }).embed(['x']);
  await createOllamaEmbedder({ model: 'm', url: server.url }).embed(['x']);
  assert.deepEqual(server.requests.map((r) => [r.path, r.headers.authorization]), [
    ['/v1/embeddings', `Bearer ${KEY}`],
    ['/v1/embeddings', undefined],
    ['/v1/embeddings', undefined],
    ['/api/embed', undefined],
  ]);
});

test('openai: the key never leaks, even when the server echoes it', async (t) => {
  const echoKey = (request: SeenRequest) => ({ error: { message: `bad key ${String(request.headers.authorization)}` } });
  const refused = await serve(t, (request) => ({ status: 401, body: echoKey(request) }));
  const failing = await serve(t, (request) => ({ status: 500, body: echoKey(request) }));
  const garbled = await serve(t, (request) => ({ body: `not json ${String(request.headers.authorization)}` }));
  const down = `http://127.0.0.1:${await closedPort()}`;
  for (const base of [refused.url, failing.url, garbled.url, down]) {
    const embedder = createOpenAiEmbedder({ model: 'm', url: base, apiKey: KEY, ...FAST, attempts: 2 });
    const error = await unavailable(embedder.embed(['x']));
    const shown = [
      error.message,
      String(error),
      JSON.stringify(error),
      JSON.stringify(error.toJSON()),
      inspect(error, { depth: Infinity, showHidden: true }),
      JSON.stringify(embedder),
      inspect(embedder, { depth: Infinity, showHidden: true }),
    ];
    for (const text of shown) {
      assert.ok(!text.includes(KEY), `the key leaked: ${text}`);
      assert.ok(!text.includes('DO-NOT-LEAK'), `part of the key leaked: ${text}`);
    }
    if (base !== down) assert.match(error.message, /\[redacted\]/);
  }
  assert.equal(refused.requests[0]?.headers.authorization, `Bearer ${KEY}`, 'the key was sent');
});

test('openai: data is ordered by index; positions when there is none; a repeated index fails', async (t) => {
  const positional = await serve(t, (request) => ({
    body: { data: inputOf(request).map((text) => ({ embedding: vectorFor(text) })) },
  }));
  const vectors = await PROTOCOLS[1]!.create(positional.url).embed(['a', 'bb']);
  assert.deepEqual(vectors.map((v) => [...v]), [expected('a'), expected('bb')]);
  const twice = { data: [{ index: 0, embedding: [1] }, { index: 0, embedding: [2] }] };
  const repeated = await serve(t, () => ({ body: twice }));
  const error = await unavailable(PROTOCOLS[1]!.create(repeated.url).embed(['a', 'b']));
  assert.equal(error.details.cause, 'unexpected answer: index 0 appears twice in "data"');
  const shapeless = await serve(t, () => ({ body: { embeddings: [[1]] } }));
  const shape = await unavailable(PROTOCOLS[1]!.create(shapeless.url).embed(['a']));
  assert.equal(shape.details.cause, 'unexpected answer: no "data" field');
});

test('values that are not finite numbers, and a first answer off expectedDimensions, fail', async (t) => {
  const protocol = PROTOCOLS[0]!;
  let answer: unknown = ollamaAnswer([[1, 'x', 2]]);
  const server = await serve(t, () => ({ body: answer }));
  const error = await unavailable(protocol.create(server.url).embed(['a']));
  assert.equal(error.details.cause, 'vector 0 is not a list of numbers');
  answer = ollamaAnswer([[1, 1e39, 2]]);
  assert.match((await unavailable(protocol.create(server.url).embed(['a']))).message, /not a finite 32-bit number/);
  answer = ollamaAnswer([[1, 2, 3]]);
  const sized = protocol.create(server.url, { expectedDimensions: 4 });
  assert.equal(sized.dimensions, 4);
  assert.equal((await unavailable(sized.embed(['a']))).details.cause, 'wrong dimension: vector 0 has 3 values, expected 4');
});

test('the caller\'s signal stops a request, or a wait between attempts, at once', async (t) => {
  const hanging = await serve(t, () => 'hang');
  const started = performance.now();
  const error = await unavailable(PROTOCOLS[0]!.create(hanging.url, { timeoutMs: 5_000 })
    .embed(['x'], { signal: AbortSignal.timeout(100) }));
  assert.ok(performance.now() - started < 1_000, 'stopped by the signal, not the 5 s timeout');
  assert.equal(error.details.cause, 'aborted by the caller');
  assert.equal(hanging.requests.length, 1, 'an abort is not retried');

  const failing = await serve(t, () => ({ status: 503 }));
  const waiting = performance.now();
  await unavailable(PROTOCOLS[1]!.create(failing.url, { backoffMs: 5_000, maxDelayMs: 5_000 })
    .embed(['x'], { signal: AbortSignal.timeout(150) }));
  assert.ok(performance.now() - waiting < 1_000, 'the backoff wait is cut short');
  assert.equal(failing.requests.length, 1);

  const before = await unavailable(PROTOCOLS[0]!.create(failing.url).embed(['x'], { signal: AbortSignal.abort() }));
  assert.equal(before.details.cause, 'aborted by the caller');
  assert.equal(failing.requests.length, 1, 'no request once aborted');
});

test('bad options and URLs are PARAM_ERROR when the embedder is created', () => {
  const invalid = (fn: () => unknown, pattern: RegExp) => assert.throws(fn, (e: unknown) =>
    isEngramError(e) && e.code === 'PARAM_ERROR' && pattern.test(e.message));
  invalid(() => createOllamaEmbedder({ model: 'm', batchSize: 0 }), /batchSize: 0/);
  invalid(() => createOllamaEmbedder({ model: 'm', attempts: 1.5 }), /attempts/);
  invalid(() => createOllamaEmbedder({ model: 'm', timeoutMs: -1 }), /timeoutMs/);
  invalid(() => createOpenAiEmbedder({ model: 'm', expectedDimensions: 0 }), /expectedDimensions/);
  invalid(() => createOpenAiEmbedder({ model: 'm', url: 'ftp://host/v1' }), /Invalid URL for embedder openai:m/);
  invalid(() => createOllamaEmbedder({ model: 'm', url: 'localhost:11434' }), /Invalid URL/);
});

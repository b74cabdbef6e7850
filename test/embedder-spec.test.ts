/**
 * The one spelling of an embedder (`parseEmbedderSpec`) at its edges, and `openEmbedder` opening
 * the HTTP embedders it names against a loopback server.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OLLAMA_URL, OPENAI_URL, parseEmbedderSpec } from '../src/embed/embedder.js';
import { lazyEmbedder } from '../src/embed/lazy-embedder.js';
import { openEmbedder } from '../src/embed/open-embedder.js';
import { isEngramError } from '../src/errors.js';
import { inputOf, ollamaAnswer, openAiAnswer, startEmbedServer, vectorFor } from './embed-server.js';

function invalid(spec: string, why: RegExp): void {
  assert.throws(() => parseEmbedderSpec(spec), (error: unknown) => {
    assert.ok(isEngramError(error));
    assert.equal(error.code, 'PARAM_ERROR');
    assert.match(error.message, why);
    assert.match(error.hint ?? '', /ollama:MODEL\[@URL\]/);
    return true;
  });
}

test('parseEmbedderSpec: the three kinds, default URLs, a trailing slash dropped', () => {
  assert.deepEqual(parseEmbedderSpec('ollama:nomic-embed-text'), { kind: 'ollama', model: 'nomic-embed-text', url: OLLAMA_URL });
  assert.deepEqual(parseEmbedderSpec('openai:text-embedding-3-small'), { kind: 'openai', model: 'text-embedding-3-small', url: OPENAI_URL });
  assert.deepEqual(parseEmbedderSpec('openai:m@http://localhost:1234/v1/'), { kind: 'openai', model: 'm', url: 'http://localhost:1234/v1' });
  assert.deepEqual(parseEmbedderSpec('model2vec:/models/potion-base-8M'), { kind: 'model2vec', path: '/models/potion-base-8M' });
  assert.deepEqual(parseEmbedderSpec(' OLLAMA : m '), { kind: 'ollama', model: 'm', url: OLLAMA_URL });
});

test('parseEmbedderSpec: model names keep their colons and @ (tags, quantisations)', () => {
  assert.deepEqual(parseEmbedderSpec('ollama:nomic-embed-text:latest'), { kind: 'ollama', model: 'nomic-embed-text:latest', url: OLLAMA_URL });
  assert.deepEqual(parseEmbedderSpec('ollama:nomic-embed-text:latest@https://gpu.example:11434'), {
    kind: 'ollama', model: 'nomic-embed-text:latest', url: 'https://gpu.example:11434',
  });
  // LM Studio names a quantisation after an @; only an @ followed by http(s):// starts the URL.
  assert.deepEqual(parseEmbedderSpec('openai:text-embedding-nomic-embed-text-v1.5@q8_0@http://127.0.0.1:1234/v1'), {
    kind: 'openai', model: 'text-embedding-nomic-embed-text-v1.5@q8_0', url: 'http://127.0.0.1:1234/v1',
  });
  assert.deepEqual(parseEmbedderSpec('openai:m@notaurl'), { kind: 'openai', model: 'm@notaurl', url: OPENAI_URL });
  assert.deepEqual(parseEmbedderSpec('model2vec:C:\\models\\potion'), { kind: 'model2vec', path: 'C:\\models\\potion' });
});

test('parseEmbedderSpec: missing parts and unknown kinds are PARAM_ERROR with the spelling', () => {
  invalid('ollama:', /the model name is missing/);
  invalid('openai:  ', /the model name is missing/);
  invalid('ollama:@http://127.0.0.1:11434', /the model name is missing/);
  invalid('openai:m@http://', /'http:\/\/' is not a URL/);
  invalid('model2vec:', /the model directory is missing/);
  invalid('bogus:x', /unknown kind 'bogus'/);
  // A forgotten http:// must not turn the address into a model name sent (with the key) to the default URL.
  invalid('openai:m@localhost:1234/v1', /needs http:\/\/ or https:\/\//);
  invalid('openai:m@10.0.0.2:8080', /needs http:\/\/ or https:\/\//);
  invalid('ollama:m@localhost', /needs http:\/\/ or https:\/\//);
  // A URL of another scheme is refused by both kinds, not read as a model name at the default URL.
  invalid('ollama:x@ftp://h', /needs http:\/\/ or https:\/\//);
  invalid('openai:x@ftp://h/v1', /needs http:\/\/ or https:\/\//);
  invalid('ollama:m@q8_0@file:///tmp/s', /needs http:\/\/ or https:\/\//);
  invalid('nomic-embed-text', /no kind before a colon/);
  invalid('', /no kind before a colon/);
});

test('openEmbedder: opens the HTTP embedders a spec names, with the key and timeout given', async (t) => {
  const server = await startEmbedServer((request) => {
    const vectors = inputOf(request).map((text) => vectorFor(text, 4));
    return { body: request.path === '/api/embed' ? ollamaAnswer(vectors) : openAiAnswer(vectors) };
  });
  t.after(() => server.close());
  const ollama = await openEmbedder(`ollama:nomic-embed-text:latest@${server.url}`, { apiKey: 'sk-not-for-ollama' });
  assert.equal(ollama.id, 'ollama:nomic-embed-text:latest');
  assert.equal((await ollama.embed(['a', 'b'])).length, 2);
  assert.equal(ollama.dimensions, 4);
  const openai = await openEmbedder({ kind: 'openai', model: 'e5', url: `${server.url}/v1` }, { apiKey: 'sk-1', timeoutMs: 500 });
  assert.equal(openai.id, 'openai:e5');
  assert.equal((await openai.embed(['a'])).length, 1);
  assert.deepEqual(server.requests.map((r) => [r.path, r.headers.authorization, (r.body as { model: string }).model]), [
    ['/api/embed', undefined, 'nomic-embed-text:latest'],
    ['/v1/embeddings', 'Bearer sk-1', 'e5'],
  ]);
  await assert.rejects(openEmbedder('bogus:x'), (error: unknown) => isEngramError(error) && error.code === 'PARAM_ERROR');
});

test('openEmbedder: the timeout given bounds each request (the default would be 10 s)', async (t) => {
  const server = await startEmbedServer(() => 'hang');
  t.after(() => server.close());
  const embedder = await openEmbedder(`ollama:m@${server.url}`, { timeoutMs: 100 });
  await assert.rejects(embedder.embed(['x'], { signal: AbortSignal.timeout(700) }), (error: unknown) =>
    isEngramError(error) && error.code === 'EMBEDDER_UNAVAILABLE');
  // The first request timed out after 100 ms, then a retry came after the default backoff (125..250 ms).
  assert.ok(server.requests.length >= 2, `${server.requests.length} requests in 700 ms`);
  const gap = server.requests[1]!.at - server.requests[0]!.at;
  assert.ok(gap >= 200 && gap < 600, `timeout + backoff: ${gap} ms`);
});

test('lazyEmbedder: an HTTP spelling gives its final id before any contact; a Model2Vec one is provisional', () => {
  const ollama = lazyEmbedder(' OLLAMA : m@q8_0@http://127.0.0.1:9/');
  assert.equal(ollama.id, 'ollama:m@q8_0');
  assert.equal(ollama.provisional, false);
  assert.equal(lazyEmbedder('openai:e5@https://h/v1').id, 'openai:e5');
  assert.equal(lazyEmbedder('model2vec:/models/potion').provisional, true);
  assert.equal(lazyEmbedder('modle2vec:x').provisional, true);
});

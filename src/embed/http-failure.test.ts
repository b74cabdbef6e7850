import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statusFailure, unusableAnswer } from '../util/http-failure.js';
import { embedderUnavailable } from './http-failure.js';

test('embedder errors: the URL without its password, the key cut out, a hint per kind of failure', () => {
  const error = embedderUnavailable(
    { id: 'openai:m', url: 'http://u:KEY@h/v1/embeddings', secret: 'KEY' },
    statusFailure(401, '{"error":{"message":"bad key KEY"}}', null),
    1,
  );
  assert.equal(error.code, 'EMBEDDER_UNAVAILABLE');
  assert.equal(error.message, 'Embedder openai:m at http://h/v1/embeddings refused the request (the API key is wrong or missing): HTTP 401: "bad key [redacted]"');
  assert.deepEqual(error.details, { url: 'http://h/v1/embeddings', cause: 'HTTP 401: "bad key [redacted]"' });
  assert.equal(error.hint, 'Check the API key given for this server.');
  const context = { id: 'ollama:m', url: 'http://127.0.0.1:11434/api/embed' };
  const down = embedderUnavailable(context, { cause: 'connection refused', retry: true }, 4);
  assert.equal(down.message, 'Embedder ollama:m at http://127.0.0.1:11434/api/embed is unavailable: connection refused (4 attempts)');
  assert.match(down.hint ?? '', /running and reachable/);
  assert.match(embedderUnavailable(context, unusableAnswer('malformed JSON'), 1).hint ?? '', /serves an embedding model/);
  assert.match(embedderUnavailable(context, statusFailure(404, '', null), 1).hint ?? '', /model name/);
});

/**
 * Vectors end to end on real SQLite files: a write embeds what it stored (Model2Vec test model,
 * loopback HTTP servers), a write never waits long for nor fails because of an embedder (the item
 * is pending), `engram embed` fills pending vectors, resumes after a failure part-way and rebuilds
 * with `--rebuild`; stats and doctor count vectors and pending items.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { test } from 'node:test';
import { loadModel2Vec } from '../src/embed/model2vec.js';
import { openEmbedder } from '../src/embed/open-embedder.js';
import { openEngram } from '../src/engram.js';
import { closedPort, inputOf, ollamaAnswer, startEmbedServer, vectorFor } from './embed-server.js';
import { CLI, type CliRun, nodeAsync, tempDir } from './helpers.js';
import { writeTestModel } from './model2vec-model.js';

/** `engram ARGS` in a child process (async: the loopback servers answer from this process). */
function engram(db: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return nodeAsync([CLI, '--db', db, ...args], { env });
}

/** An Ollama server answering every text with {@link vectorFor} of `dims`. */
function ollama(dims = 3, fail?: (n: number) => boolean) {
  return startEmbedServer((request, n) =>
    fail?.(n) === true
      ? { status: 500, body: { error: 'down for the test' } }
      : { body: ollamaAnswer(inputOf(request).map((text) => vectorFor(text, dims))) });
}

test('with a Model2Vec embedder a put stores the vector; the nearest vector finds the synonyms', async (t) => {
  const dir = tempDir(t);
  const model = await writeTestModel(join(dir, 'model'));
  const embedder = await loadModel2Vec(model.dir);
  const engine = await openEngram({ path: join(dir, 'memory.db'), embedder });
  t.after(() => engine.close());
  const car = await engine.put({ content: 'car needs new tires' });
  await engine.put({ content: 'the doctor bought a big house' });
  assert.equal(car.embedding?.embedded, 1);
  assert.equal(car.embedding?.warning, undefined);
  const stats = await engine.stats();
  assert.deepEqual(stats.vectors, {
    model: embedder.id, dimensions: model.dims, vectors: 2, pending: 0, embedder: embedder.id,
  });
  // Through the store's index: "automobile wheels" shares no word with the note, only meaning.
  const store = await import('../src/store/sqlite/store.js');
  const direct = store.createSqliteStore(join(dir, 'memory.db'));
  t.after(() => direct.close());
  const [query] = await embedder.embed(['automobile wheels']);
  const hits = await direct.vectors?.nearest(query ?? new Float32Array(), {}, 1);
  assert.equal(hits?.[0]?.item.id, car.item.id);
  assert.ok((hits?.[0]?.score ?? 0) > 0.8, `similarity ${hits?.[0]?.score}`);
  // A new text drops the old vector and the update embeds the new one.
  const updated = await engine.update(car.item.id, { content: 'the automobile needs a repair' });
  assert.equal(updated.embedding?.embedded, 1);
  assert.equal((await engine.stats()).vectors?.vectors, 2);
});

test('a put with the embedder down or slow succeeds at once, pending; engram embed fills it', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  const down = `ollama:m@http://127.0.0.1:${await closedPort()}`;
  const put = await engram(db, ['--embedder', down, 'put', '--content', 'stored while the embedder is down']);
  assert.equal(put.code, 0, put.stderr);
  assert.equal(put.json?.action, 'created');
  assert.match(String((put.json?.embedding as { warning?: string }).warning), /pending/);
  assert.match(put.stderr, /engram embed/);

  const hanging = await startEmbedServer(() => 'hang');
  t.after(() => hanging.close());
  const started = performance.now();
  const slow = await engram(db, ['put', '--content', 'stored while the embedder hangs'], {
    ENGRAM_EMBEDDER: `ollama:m@${hanging.url}`,
  });
  assert.equal(slow.code, 0, slow.stderr);
  assert.ok(performance.now() - started < 6000, `the put took ${performance.now() - started} ms`);
  const stats = await engram(db, ['stats']);
  assert.deepEqual(stats.json?.vectors, { model: null, dimensions: null, vectors: 0, pending: 2, embedder: null });

  const server = await ollama();
  t.after(() => server.close());
  const filled = await engram(db, ['embed'], { ENGRAM_EMBEDDER: `ollama:m@${server.url}` });
  assert.equal(filled.code, 0, filled.stderr);
  assert.deepEqual(filled.json, { ok: true, embedder: 'ollama:m', dimensions: 3, rebuilt: false, embedded: 2, vectors: 2, pending: 0 });
  const doctor = await engram(db, ['doctor'], { ENGRAM_EMBEDDER: `ollama:m@${server.url}` });
  assert.equal(doctor.code, 0, doctor.stdout);
  assert.deepEqual(doctor.json?.vectors, { model: 'ollama:m', dimensions: 3, vectors: 2, pending: 0, embedder: 'ollama:m' });
});

test('engram embed without an embedder is a PARAM_ERROR naming how to configure one', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  assert.equal((await engram(db, ['put', '--content', 'lexical only'])).code, 0);
  const run = await engram(db, ['embed']);
  assert.equal(run.code, 2);
  assert.equal(run.error?.error, 'PARAM_ERROR');
  assert.match(String(run.error?.hint), /--embedder/);
});

test('another model is not mixed in: embed refuses, doctor says so, --rebuild re-embeds everything', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  const three = await ollama(3);
  const five = await ollama(5);
  t.after(() => Promise.all([three.close(), five.close()]));
  const env3 = { ENGRAM_EMBEDDER: `ollama:m@${three.url}` };
  const env5 = { ENGRAM_EMBEDDER: `ollama:wide@${five.url}` };
  assert.equal((await engram(db, ['put', '--content', 'first note'], env3)).code, 0);
  const other = await engram(db, ['put', '--content', 'second note'], env5);
  assert.equal(other.code, 0, other.stderr);
  assert.match(String((other.json?.embedding as { warning?: string }).warning), /ollama:m/);
  assert.equal((other.json?.embedding as { fix?: string }).fix, 'rebuild_vectors');
  assert.match(other.stderr, /warning: vectors pending: .*; run `engram embed --rebuild`/);
  const refused = await engram(db, ['embed'], env5);
  assert.equal(refused.error?.error, 'PARAM_ERROR', refused.stderr);
  assert.match(String(refused.error?.hint), /embed --rebuild/);
  const searched = await engram(db, ['search', 'note'], env5);
  assert.equal(searched.code, 0, searched.stderr);
  assert.equal((await engram(db, ['embed'], { ENGRAM_EMBEDDER: `openai:wide@${five.url}/v1` })).code, 2);
  const doctor = await engram(db, ['doctor'], env5);
  assert.equal(doctor.code, 4);
  assert.match(JSON.stringify(doctor.json?.problems), /embed --rebuild/);
  assert.deepEqual(doctor.json?.embedder, { id: 'ollama:wide', status: 'mismatch', dimensions: null });
  // The spelled ids (ollama:wide, openai:wide) already differ from the stored vectors' model: nothing was sent.
  assert.equal(five.requests.length, 0);
  assert.deepEqual((await engram(db, ['stats'])).json?.vectors,
    { model: 'ollama:m', dimensions: 3, vectors: 1, pending: 1, embedder: null });
  const rebuilt = await engram(db, ['embed', '--rebuild'], env5);
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  assert.deepEqual(rebuilt.json, { ok: true, embedder: 'ollama:wide', dimensions: 5, rebuilt: true, embedded: 2, vectors: 2, pending: 0 });
  assert.equal((await engram(db, ['doctor'], env5)).code, 0);
});

test('doctor reports the configured embedder: misspelled or unloadable is a problem, another spelled model too, silence is not', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  const server = await ollama(3);
  const hanging = await startEmbedServer(() => 'hang');
  t.after(() => Promise.all([server.close(), hanging.close()]));
  assert.equal((await engram(db, ['put', '--content', 'a stored note'], { ENGRAM_EMBEDDER: `ollama:m@${server.url}` })).code, 0);
  const healthy = await engram(db, ['doctor'], { ENGRAM_EMBEDDER: `ollama:m@${server.url}` });
  assert.equal(healthy.code, 0, healthy.stdout);
  assert.deepEqual(healthy.json?.embedder, { id: 'ollama:m', status: 'ok', dimensions: 3 });
  const text = await engram(db, ['doctor', '--format', 'text'], { ENGRAM_EMBEDDER: `ollama:m@${server.url}` });
  assert.match(text.stdout, /^embedder\s+ollama:m \(3 dimensions\), ok$/m);
  for (const spec of ['modle2vec:x', `model2vec:${join(tempDir(t), 'no-such-model')}`]) {
    const run = await engram(db, ['--embedder', spec, 'doctor']);
    assert.equal(run.code, 4, `${spec}: ${run.stdout}`);
    assert.equal((run.json?.embedder as { status: string }).status, 'invalid');
    assert.match(JSON.stringify(run.json?.problems), /embedder: (Invalid embedder|Model2Vec model directory)/);
  }
  // The server does not answer, but the spelled id already names another model than the stored vectors'.
  const other = await engram(db, ['doctor'], { ENGRAM_EMBEDDER: `ollama:other@${hanging.url}` });
  assert.equal(other.code, 4, other.stdout);
  assert.deepEqual(other.json?.embedder, { id: 'ollama:other', status: 'mismatch', dimensions: null });
  assert.equal(hanging.requests.length, 0);
  // The right model, not answering: reported, not a problem of the store.
  const silent = await engram(db, ['doctor'], { ENGRAM_EMBEDDER: `ollama:m@http://127.0.0.1:${await closedPort()}` });
  assert.equal(silent.code, 0, silent.stdout);
  assert.equal((silent.json?.embedder as { status: string }).status, 'unavailable');
});

test('an embed run that fails part-way keeps its committed batches; the next run resumes', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  const lines = Array.from({ length: 150 }, (_, i) =>
    JSON.stringify({ id: `MEM-${(i + 1).toString(16).padStart(12, '0')}`, content: `note number ${i}` }));
  const imported = await nodeAsync([CLI, '--db', db, 'import', '-'], { input: `${lines.join('\n')}\n` });
  assert.equal(imported.code, 0, imported.stderr);
  // Two requests of 32 texts make the first batch of 64; every request after them fails.
  const flaky = await ollama(3, (n) => n >= 2);
  t.after(() => flaky.close());
  const failed = await engram(db, ['embed'], { ENGRAM_EMBEDDER: `ollama:m@${flaky.url}` });
  assert.equal(failed.code, 1, failed.stdout);
  assert.equal(failed.error?.error, 'EMBEDDER_UNAVAILABLE');
  assert.match(String(failed.error?.message), /after 64 vectors stored/);
  assert.deepEqual((await engram(db, ['stats'])).json?.vectors,
    { model: 'ollama:m', dimensions: 3, vectors: 64, pending: 86, embedder: null });
  const server = await ollama(3);
  t.after(() => server.close());
  const resumed = await engram(db, ['embed'], { ENGRAM_EMBEDDER: `ollama:m@${server.url}` });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(resumed.json?.embedded, 86);
  assert.equal(resumed.json?.pending, 0);
  assert.equal(server.requests.length, 3, 'only the pending items were sent');
});

test('the MCP server fills pending vectors in the background and stops with the server', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'memory.db');
  const lexical = await openEngram({ path });
  for (let i = 0; i < 70; i++) await lexical.put({ content: `background note ${i}` });
  lexical.close();
  const server = await ollama(3);
  t.after(() => server.close());
  const embedder = await openEmbedder(`ollama:m@${server.url}`);
  const engine = await openEngram({ path, embedder });
  t.after(() => engine.close());
  assert.equal((await engine.stats()).vectors?.pending, 70);
  const { serveHttp } = await import('../src/mcp/main.js');
  const { DEFAULT_LIMITS } = await import('../src/mcp/limiter.js');
  const mcp = await serveHttp(
    { engram: engine, limits: DEFAULT_LIMITS, budget: 800, backgroundEmbed: { firstDelayMs: 10, batches: 1 } },
    { host: '127.0.0.1', port: 0 },
  );
  const deadline = Date.now() + 10_000;
  while ((await engine.stats()).vectors?.pending !== 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await mcp.close();
  assert.deepEqual((await engine.stats()).vectors, { model: 'ollama:m', dimensions: 3, vectors: 70, pending: 0, embedder: 'ollama:m' });
  const requests = server.requests.length;
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(server.requests.length, requests, 'no pass after close');
});

test('a put embeds its text once: the vector of the similar check is the one stored', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  const server = await ollama(3);
  t.after(() => server.close());
  const embedder = await openEmbedder(`ollama:m@${server.url}`);
  const engine = await openEngram({ path: db, embedder });
  t.after(() => engine.close());
  await engine.put({ content: 'first note, embedded after the write' });
  assert.equal(server.requests.length, 1);
  // With vectors stored, a new item is compared by meaning before its transaction: one request still.
  const second = await engine.put({ content: 'second note, compared by meaning first', title: 'Second' });
  assert.equal(second.embedding?.embedded, 1);
  assert.equal(server.requests.length, 2, 'one request for one put');
  assert.deepEqual(inputOf(server.requests[1]!), ['Second\nsecond note, compared by meaning first']);
  // A rewrite by id has no similar check: its new text is embedded once, after the write.
  await engine.update(second.item.id, { content: 'second note, rewritten' });
  assert.equal(server.requests.length, 3);
  // Proposals: one request per proposal's similar check, none again after the write.
  const proposed = await engine.propose([{ content: 'proposed note one' }, { content: 'proposed note two' }]);
  assert.equal(proposed.embedding?.embedded, 2);
  assert.equal(server.requests.length, 5);
  assert.deepEqual((await engine.stats()).vectors, { model: 'ollama:m', dimensions: 3, vectors: 4, pending: 0, embedder: 'ollama:m' });
  // The CLI's embedder is opened lazily, on the similar check: one request for one put too.
  const put = await engram(db, ['--embedder', `ollama:m@${server.url}`, 'put', '--content', 'a note from the CLI']);
  assert.equal(put.code, 0, put.stderr);
  assert.equal((put.json?.embedding as { embedded?: number }).embedded, 1);
  assert.equal(server.requests.length, 6, 'one request for one CLI put');
});

test('engram embed with nothing pending asks the embedder once: its model id, or a mismatch to rebuild', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  const first = await writeTestModel(join(dir, 'first'));
  const other = await writeTestModel(join(dir, 'other'), { seed: 3, dims: 32 });
  const env = { ENGRAM_EMBEDDER: `model2vec:${first.dir}` };
  assert.equal((await engram(db, ['put', '--content', 'car needs new tires'], env)).code, 0);
  const done = await engram(db, ['embed'], env);
  assert.equal(done.code, 0, done.stderr);
  assert.match(String(done.json?.embedder), /^model2vec:first@[0-9a-f]{12}$/, 'the model id, not the spelling');
  assert.equal(done.json?.embedded, 0);
  const refused = await engram(db, ['embed'], { ENGRAM_EMBEDDER: `model2vec:${other.dir}` });
  assert.equal(refused.code, 2, refused.stdout);
  assert.equal(refused.error?.error, 'PARAM_ERROR');
  assert.match(String(refused.error?.hint), /embed --rebuild/);
  const server = await ollama(3);
  t.after(() => server.close());
  const empty = join(dir, 'empty.db');
  assert.equal((await engram(empty, ['init'])).code, 0);
  const fresh = await engram(empty, ['embed'], { ENGRAM_EMBEDDER: `ollama:m@${server.url}` });
  assert.deepEqual(fresh.json, { ok: true, embedder: 'ollama:m', dimensions: 3, rebuilt: false, embedded: 0, vectors: 0, pending: 0 });
  assert.equal(server.requests.length, 1);
});

test('an embedder answering zero vectors: the items are embedded without a vector, match nothing and are not retried', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  const good = await ollama(3);
  const zero = await startEmbedServer((request) => ({ body: ollamaAnswer(inputOf(request).map(() => [0, 0, 0])) }));
  t.after(() => Promise.all([good.close(), zero.close()]));
  assert.equal((await engram(db, ['put', '--content', 'a real note'], { ENGRAM_EMBEDDER: `ollama:m@${good.url}` })).code, 0);
  const env = { ENGRAM_EMBEDDER: `ollama:m@${zero.url}` };
  const put = await engram(db, ['put', '--content', 'a note the model cannot read'], env);
  assert.equal(put.code, 0, put.stderr);
  assert.deepEqual(put.json?.similar ?? [], [], 'a zero vector is alike to nothing');
  assert.deepEqual((await engram(db, ['stats'])).json?.vectors,
    { model: 'ollama:m', dimensions: 3, vectors: 1, pending: 0, embedder: null });
  const requests = zero.requests.length;
  const embed = await engram(db, ['embed'], env);
  assert.equal(embed.json?.embedded, 0, embed.stderr);
  assert.equal(zero.requests.length, requests + 1, 'only the model probe: nothing is sent again');
  const semantic = await engram(db, ['search', 'anything', '--mode', 'semantic'], env);
  assert.equal(semantic.code, 0, semantic.stderr);
  assert.deepEqual(semantic.json?.items, []);
  const doctor = await engram(db, ['doctor'], env);
  assert.equal(doctor.code, 0, doctor.stdout);
});

test('a rebuild whose embedder fails on the first batch leaves the old model and vectors as they were', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  const three = await ollama(3);
  // The probe is answered with 5 dimensions; the first batch with vectors of mixed dimensions.
  const broken = await startEmbedServer((request, n) => ({
    body: ollamaAnswer(inputOf(request).map((text, i) => vectorFor(text, n === 0 || i === 0 ? 5 : 4))),
  }));
  t.after(() => Promise.all([three.close(), broken.close()]));
  const env3 = { ENGRAM_EMBEDDER: `ollama:m@${three.url}` };
  for (const content of ['first note', 'second note']) assert.equal((await engram(db, ['put', '--content', content], env3)).code, 0);
  const before = (await engram(db, ['stats'])).json?.vectors;
  assert.deepEqual(before, { model: 'ollama:m', dimensions: 3, vectors: 2, pending: 0, embedder: null });
  const failed = await engram(db, ['embed', '--rebuild'], { ENGRAM_EMBEDDER: `ollama:wide@${broken.url}` });
  assert.equal(failed.code, 1, failed.stdout);
  assert.equal(failed.error?.error, 'EMBEDDER_UNAVAILABLE');
  assert.deepEqual((await engram(db, ['stats'])).json?.vectors, before);
  assert.equal((await engram(db, ['doctor'], env3)).code, 0);
});

test('vectors of more dimensions than sqlite-vec holds are the embedder\'s fault; the write succeeds, pending', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  const huge = await startEmbedServer((request) => ({
    body: ollamaAnswer(inputOf(request).map(() => Array.from({ length: 200_000 }, (_, i) => (i % 7) + 1))),
  }));
  t.after(() => huge.close());
  const env = { ENGRAM_EMBEDDER: `ollama:huge@${huge.url}` };
  const put = await engram(db, ['put', '--content', 'a note for a huge model'], env);
  assert.equal(put.code, 0, put.stderr);
  assert.match(String((put.json?.embedding as { warning?: string }).warning), /pending: .*200000 dimensions/);
  const embed = await engram(db, ['embed'], env);
  assert.equal(embed.code, 1, embed.stdout);
  assert.equal(embed.error?.error, 'EMBEDDER_UNAVAILABLE');
  assert.match(String(embed.error?.message), /200000 dimensions/);
  const rebuild = await engram(db, ['embed', '--rebuild'], env);
  assert.equal(rebuild.error?.error, 'EMBEDDER_UNAVAILABLE', rebuild.stdout);
  assert.deepEqual((await engram(db, ['stats'])).json?.vectors,
    { model: null, dimensions: null, vectors: 0, pending: 1, embedder: null });
});

test('a zero vector stored before the fix (sqlite-vec gives it no distance) is never a hit nor scored 1', async (t) => {
  const db = join(tempDir(t), 'memory.db');
  const server = await ollama(3);
  t.after(() => server.close());
  const env = { ENGRAM_EMBEDDER: `ollama:m@${server.url}` };
  for (const content of ['a real note', 'an old unreadable note']) assert.equal((await engram(db, ['put', '--content', content], env)).code, 0);
  // What an older engram stored for a text without a known word: a zero vector in vec0.
  const raw = new Database(db);
  sqliteVec.load(raw);
  const rowid = raw.prepare('SELECT rowid FROM memory_items WHERE content = ?').pluck().safeIntegers()
    .get('an old unreadable note');
  raw.prepare('DELETE FROM memory_vectors WHERE rowid = ?').run(rowid);
  raw.prepare('INSERT INTO memory_vectors (rowid, embedding) VALUES (?, ?)').run(rowid, new Float32Array([0, 0, 0]));
  raw.close();
  const found = await engram(db, ['search', 'zzz', '--mode', 'semantic', '--explain'], env);
  assert.equal(found.code, 0, found.stderr);
  const items = found.json?.items as { content: string; explain?: { similarity?: number } }[];
  assert.ok(!items.some((i) => i.content === 'an old unreadable note'), JSON.stringify(items));
  assert.ok(items.every((i) => (i.explain?.similarity ?? 0) < 1 || i.content === 'zzz'), JSON.stringify(items));
});

test('a store reopened loads sqlite-vec when a statement needs it: delete and rewrite drop vectors, search finds them', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'memory.db');
  const model = await writeTestModel(join(dir, 'model'));
  const embedder = await loadModel2Vec(model.dir);
  const first = await openEngram({ path, embedder });
  const car = await first.put({ content: 'car needs new tires' });
  const house = await first.put({ content: 'the doctor bought a big house' });
  await first.put({ content: 'the cat sleeps' });
  first.close();
  const { createSqliteStore } = await import('../src/store/sqlite/store.js');
  // Each a fresh connection whose first statement on vectors is the one tested.
  const deleting = createSqliteStore(path);
  await deleting.items.delete(house.item.id);
  assert.equal(await deleting.vectors?.count(), 2);
  deleting.close();
  const again = await openEngram({ path });
  await again.update(car.item.id, { content: 'the automobile needs a repair' });
  again.close();
  const searching = createSqliteStore(path);
  t.after(() => searching.close());
  assert.equal(await searching.vectors?.count(), 1);
  const [query] = await embedder.embed(['cat']);
  const hits = await searching.vectors?.nearest(query ?? new Float32Array(), {}, 5);
  assert.deepEqual(hits?.map((h) => h.item.content), ['the cat sleeps']);
});

/**
 * Hybrid search and recall end to end with a generated Model2Vec model whose synonym groups share
 * a vector (test/model2vec-model.ts): "automobile wheels" finds "car needs new tires" by meaning
 * and not by words, in process, through the CLI and through MCP; every filter holds in every
 * mode; a failing embedder degrades reads to lexical; similar items by meaning on write.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Embedder } from '../src/embed/embedder.js';
import { openEmbedder } from '../src/embed/open-embedder.js';
import { EngramError } from '../src/errors.js';
import { type Engram, openEngram } from '../src/index.js';
import { CLI, cli, tempDir } from './helpers.js';
import { writeTestModel } from './model2vec-model.js';

const MODES = ['lexical', 'semantic', 'hybrid'] as const;
const TIRES = 'car needs new tires';
const QUERY = 'automobile wheels';

async function model(t: Parameters<typeof tempDir>[0]): Promise<string> {
  return (await writeTestModel(join(tempDir(t), 'model'))).dir;
}

async function withModel(t: Parameters<typeof tempDir>[0], clock?: () => Date) {
  const embedder = await openEmbedder(`model2vec:${await model(t)}`);
  const engram = await openEngram({ path: join(tempDir(t), 'm.db'), embedder, ...(clock ? { clock } : {}) });
  t.after(() => engram.close());
  return { engram, embedder };
}

const ids = (result: { items: { id: string }[] }) => result.items.map((i) => i.id);

async function fill(engram: Engram): Promise<{ tires: string; pasta: string; backup: string }> {
  const put = async (content: string) => (await engram.put({ content })).item.id;
  return {
    tires: await put(TIRES),
    pasta: await put('pasta recipe with tomato sauce'),
    backup: await put('weekly backup of the database server'),
  };
}

test('hybrid finds "car needs new tires" for "automobile wheels", lexical does not; hybrid is the default', async (t) => {
  const { engram } = await withModel(t);
  const { tires, pasta } = await fill(engram);
  assert.deepEqual(ids(await engram.search({ query: QUERY, mode: 'lexical' })), []);
  const semantic = await engram.search({ query: QUERY, mode: 'semantic' });
  assert.equal(semantic.items[0]?.id, tires);
  assert.ok(!ids(semantic).includes(pasta), 'unrelated items stay under the similarity floor');
  const hybrid = await engram.search({ query: QUERY, explain: true });
  assert.equal(hybrid.mode, 'hybrid');
  assert.deepEqual(ids(hybrid), [tires]);
  const explain = hybrid.items[0]!.explain!;
  assert.equal(explain.lexical_rank, null);
  assert.equal(explain.vector_rank, 1);
  assert.ok(explain.similarity! > 0.8, `similarity ${explain.similarity}`);
  assert.equal(explain.fused, Number((1 / 61).toPrecision(6)));
  assert.equal(explain.bm25, undefined);
  // Both lists agree: the item is first in each, with its BM25.
  const both = (await engram.search({ query: 'car tires', explain: true })).items[0]!;
  assert.deepEqual([both.id, both.explain!.lexical_rank, both.explain!.vector_rank], [tires, 1, 1]);
  assert.equal(both.explain!.fused, Number((2 / 61).toPrecision(6)));
  assert.equal(typeof both.explain!.bm25, 'number');

  const recalled = await engram.recall({ query: QUERY });
  assert.equal(recalled.search_mode, 'hybrid');
  assert.deepEqual(recalled.injected.map((e) => e.id), [tires]);
  assert.equal((await engram.recall({ query: QUERY, search_mode: 'lexical' })).matched, 0);
});

test('quarantined and archived items never appear, nor non-injectable or expired ones in recall, in every mode', async (t) => {
  let now = Date.parse('2026-11-22T12:00:00.000Z');
  const { engram } = await withModel(t, () => new Date((now += 1000)));
  const put = async (content: string, extra = {}) => (await engram.put({ content, ...extra })).item.id;
  const ok = await put('car needs new tires');
  const hidden = await put('the car tires are worn thin', { injectable: false });
  const archived = await put('car tires were replaced last year');
  await engram.delete(archived);
  const expired = await put('car tires sale this week only', { expires_at: '2026-11-22T12:00:30.000Z' });
  const proposed = await engram.propose([{ content: 'vehicle tyres swapped at the garage' }]);
  const quarantined = proposed.items[0]!.id!;
  assert.equal((await engram.get({ id: quarantined })).quarantined, true);
  const secret = await put('car tires from the dealer at 10.0.0.7');
  now = Date.parse('2026-11-23T00:00:00.000Z');
  for (const mode of MODES) {
    for (const query of ['car tires', QUERY, 'vehicle tyres']) {
      const found = ids(await engram.search({ query, mode, k: 50 }));
      for (const never of [archived, quarantined]) assert.ok(!found.includes(never), `${mode} ${query}: ${never}`);
      const recalled = await engram.recall({ query, search_mode: mode });
      const injected = recalled.injected.map((e) => e.id);
      for (const never of [archived, quarantined, expired, hidden]) {
        assert.ok(!injected.includes(never), `recall ${mode} ${query}: ${never}`);
      }
      const redacted = await engram.search({ query, mode, k: 50, secrecy: 'S2' });
      assert.ok(redacted.items.every((i) => !i.content.includes('10.0.0.7')), `${mode} ${query}: secrecy`);
    }
    const found = ids(await engram.search({ query: 'car tires', mode, k: 50 }));
    assert.ok(found.includes(ok) && found.includes(hidden) && found.includes(secret), `${mode}: live items found`);
    // Search (a lookup, unlike recall) shows expired items, in every mode alike.
    assert.ok(found.includes(expired), `${mode}: search shows an expired item as lexical search does`);
    // Asked for, quarantined items come back in every mode alike.
    const held = ids(await engram.search({ query: 'vehicle tyres', mode, quarantined: 'include', k: 50 }));
    assert.ok(held.includes(quarantined), `${mode}: quarantined on request`);
  }
});

test('semantic or hybrid asked without an embedder is a PARAM_ERROR; the default is lexical', async (t) => {
  const dir = tempDir(t);
  const { engram: withVectors } = await (async () => {
    const embedder = await openEmbedder(`model2vec:${await model(t)}`);
    return { engram: await openEngram({ path: join(dir, 'm.db'), embedder }) };
  })();
  await fill(withVectors);
  withVectors.close();
  const engram = await openEngram({ path: join(dir, 'm.db') });
  t.after(() => engram.close());
  for (const mode of ['semantic', 'hybrid'] as const) {
    await assert.rejects(engram.search({ query: QUERY, mode }), (e: EngramError) =>
      e.code === 'PARAM_ERROR' && /no embedder/.test(e.message) && e.hint !== undefined);
    await assert.rejects(engram.recall({ query: QUERY, search_mode: mode }), { code: 'PARAM_ERROR' });
  }
  const plain = await engram.search({ query: 'car tires' });
  assert.equal(plain.mode, 'lexical');
  assert.equal(plain.count, 1);
});

test('a failing query embedding degrades to lexical with a warning; another model is refused', async (t) => {
  const { engram, embedder } = await withModel(t);
  const { tires } = await fill(engram);
  let fail = false;
  const flaky: Embedder = {
    id: embedder.id,
    dimensions: embedder.dimensions,
    embed: (texts, options) => fail
      ? Promise.reject(new EngramError('EMBEDDER_UNAVAILABLE', 'model server down'))
      : embedder.embed(texts, options),
  };
  const path = (await engram.stats()).path as string;
  const again = await openEngram({ path, embedder: flaky });
  t.after(() => again.close());
  fail = true;
  for (const mode of [undefined, 'hybrid', 'semantic'] as const) {
    const result = await again.search({ query: 'car tires', mode });
    assert.equal(result.mode, 'lexical');
    assert.deepEqual(ids(result), [tires]);
    assert.match(result.warnings?.[0] ?? '', /model server down/);
  }
  const recalled = await again.recall({ query: 'car tires' });
  assert.equal(recalled.search_mode, 'lexical');
  assert.equal(recalled.warnings?.length, 1);

  const other = await openEngram({ path, embedder: { ...flaky, id: 'another-model' } });
  t.after(() => other.close());
  assert.equal((await other.search({ query: 'car tires' })).mode, 'lexical');
  await assert.rejects(other.search({ query: 'car tires', mode: 'hybrid' }), (e: EngramError) =>
    e.code === 'PARAM_ERROR' && /another-model/.test(e.message));
});

test('a write reports the items alike in meaning (cosine >= 0.82) in similar, and merges none of them', async (t) => {
  const { engram } = await withModel(t);
  const { tires, pasta } = await fill(engram);
  const written = await engram.put({ content: 'automobile wheels', merge_similar: true });
  assert.equal(written.action, 'created');
  assert.equal(written.mode, 'new');
  const alike = written.similar?.find((s) => s.id === tires);
  assert.ok(alike !== undefined, JSON.stringify(written.similar));
  assert.ok(alike.cosine! >= 0.82);
  assert.ok(!written.similar!.some((s) => s.id === pasta));
  assert.equal((await engram.get({ id: tires })).version, 1, 'the similar item is left as it was');
});

test('CLI: search --mode and recall --search-mode with the test model', async (t) => {
  const dir = tempDir(t);
  const env = { ENGRAM_EMBEDDER: `model2vec:${await model(t)}`, ENGRAM_AUTO_CONSOLIDATE: 'off' };
  const db = join(dir, 'm.db');
  const id = (cli(['put', '--db', db, '--content', TIRES], { env, cwd: dir }).json?.item as { id: string }).id;
  cli(['put', '--db', db, '--content', 'pasta recipe with tomato sauce'], { env, cwd: dir });
  const lexical = cli(['search', '--db', db, QUERY, '--mode', 'lexical', '--json'], { env, cwd: dir });
  assert.equal(lexical.code, 0, lexical.stderr);
  assert.deepEqual(lexical.json?.items, []);
  const hybrid = cli(['search', '--db', db, QUERY, '--json'], { env, cwd: dir });
  assert.equal(hybrid.json?.mode, 'hybrid', hybrid.stderr);
  assert.deepEqual((hybrid.json?.items as { id: string }[]).map((i) => i.id), [id]);
  const text = cli(['search', '--db', db, QUERY, '--mode', 'hybrid', '--explain', '--format', 'text'], { env, cwd: dir });
  assert.match(text.stdout, /lexical_rank=null vector_rank=1 similarity=0\.\d+ fused=0\.0163934/);
  assert.match(text.stdout, /1 match \(hybrid, lexical none\)/);
  const block = cli(['recall', '--db', db, QUERY, '--search-mode', 'hybrid'], { env, cwd: dir });
  assert.match(block.stdout, /car needs new tires/);
  assert.equal(cli(['recall', '--db', db, QUERY, '--search-mode', 'lexical'], { env, cwd: dir }).stdout, '');
  const refused = cli(['search', '--db', db, QUERY, '--mode', 'semantic', '--json'], { cwd: dir });
  assert.equal(refused.code, 2);
  assert.equal(refused.error?.error, 'PARAM_ERROR');
});

test('MCP: memory_search mode and memory_recall search_mode with the test model', async (t) => {
  const dir = tempDir(t);
  const embedderSpec = `model2vec:${await model(t)}`;
  const db = join(dir, 'm.db');
  const env = { ENGRAM_EMBEDDER: embedderSpec, ENGRAM_AUTO_CONSOLIDATE: 'off' };
  const id = (cli(['put', '--db', db, '--content', TIRES], { env, cwd: dir }).json?.item as { id: string }).id;
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ENGRAM_')));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--db', db],
    env: { ...clean, ...env } as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  type Result = { structuredContent?: Record<string, unknown>; isError?: boolean };
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as Result;
  const found = (r: Result) => (r.structuredContent?.items as { id: string }[]).map((i) => i.id);
  assert.deepEqual(found(await call('memory_search', { query: QUERY, mode: 'lexical' })), []);
  const hybrid = await call('memory_search', { query: QUERY });
  assert.equal(hybrid.structuredContent?.mode, 'hybrid');
  assert.deepEqual(found(hybrid), [id]);
  assert.deepEqual(found(await call('memory_search', { query: QUERY, mode: 'semantic' })), [id]);
  const recalled = await call('memory_recall', { query: QUERY, search_mode: 'hybrid' });
  assert.equal(recalled.structuredContent?.search_mode, 'hybrid');
  assert.match(String(recalled.structuredContent?.inject_text), /car needs new tires/);
  const lexical = await call('memory_recall', { query: QUERY, search_mode: 'lexical' });
  assert.equal(lexical.structuredContent?.inject_text, '');
  const bad = await call('memory_search', { query: QUERY, mode: 'fuzzy' });
  assert.equal(bad.isError, true);
});

test('CLI: a relative model2vec path in .engram/config.json is the project\'s; from the flag or the variable, the working directory\'s', async (t) => {
  const project = tempDir(t);
  await writeTestModel(join(project, 'models', 'm'));
  assert.equal(cli(['init'], { cwd: project }).code, 0);
  const configPath = join(project, '.engram', 'config.json');
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
  writeFileSync(configPath, `${JSON.stringify({ ...config, embedder: 'model2vec:./models/m' }, null, 2)}\n`);
  const sub = join(project, 'src', 'deep');
  mkdirSync(sub, { recursive: true });
  const env = { ENGRAM_AUTO_CONSOLIDATE: 'off' };
  const put = cli(['put', '--content', TIRES, '--json'], { env, cwd: sub });
  assert.equal(put.code, 0, put.stderr);
  assert.equal((put.json?.embedding as { embedded?: number; warning?: string }).embedded, 1, put.stdout);
  const found = cli(['search', QUERY, '--mode', 'semantic', '--json'], { env, cwd: sub });
  assert.equal(found.code, 0, found.stderr);
  assert.deepEqual((found.json?.items as { id: string }[]).map((i) => i.id), [(put.json?.item as { id: string }).id]);
  // The variable and the flag name the model from where the command runs.
  const fromSub = cli(['search', QUERY, '--mode', 'semantic', '--json'], { env: { ...env, ENGRAM_EMBEDDER: 'model2vec:../../models/m' }, cwd: sub });
  assert.equal(fromSub.code, 0, fromSub.stderr);
  assert.equal((fromSub.json?.items as unknown[]).length, 1);
  const wrong = cli(['--embedder', 'model2vec:./models/m', 'search', QUERY, '--mode', 'semantic', '--json'], { env, cwd: sub });
  // The mode was asked for and the model is not where the flag says: a PARAM_ERROR naming where it was looked for.
  assert.equal(wrong.code, 2, wrong.stderr);
  assert.equal(wrong.error?.error, 'PARAM_ERROR');
  assert.ok(String(wrong.error?.message).includes(join(sub, 'models', 'm')), wrong.stderr);
  // Without a mode the read goes on lexically and says why.
  const fallback = cli(['--embedder', 'model2vec:./models/m', 'search', QUERY, '--json'], { env, cwd: sub });
  assert.equal(fallback.code, 0, fallback.stderr);
  assert.equal(fallback.json?.mode, 'lexical');
  assert.ok(fallback.stderr.includes(join(sub, 'models', 'm')), fallback.stderr);
});

test('CLI: a malformed --embedder is a PARAM_ERROR when a mode is asked for; without one, a lexical read with a warning', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  const env = { ENGRAM_EMBEDDER: `model2vec:${await model(t)}`, ENGRAM_AUTO_CONSOLIDATE: 'off' };
  assert.equal(cli(['put', '--db', db, '--content', TIRES], { env, cwd: dir }).code, 0);
  for (const args of [['search', QUERY, '--mode', 'semantic'], ['recall', QUERY, '--search-mode', 'hybrid']]) {
    const run = cli(['--db', db, '--embedder', 'potion', ...args, '--json'], { env, cwd: dir });
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.error?.error, 'PARAM_ERROR');
    assert.match(String(run.error?.message), /Invalid embedder 'potion'/);
    assert.match(String(run.error?.hint), /model2vec:PATH, ollama:MODEL\[@URL\] or openai:MODEL\[@BASE_URL\]/);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  }
  const plain = cli(['--db', db, '--embedder', 'potion', 'search', 'car tires', '--json'], { env, cwd: dir });
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(plain.json?.mode, 'lexical');
  assert.match(plain.stderr, /warning: embedding the query failed \(Invalid embedder 'potion'/);
  const put = cli(['--db', db, '--embedder', 'potion', 'put', '--content', 'pending for now', '--json'], { env, cwd: dir });
  assert.equal(put.code, 0, put.stderr);
  assert.match(put.stderr, /vectors pending: Invalid embedder 'potion': no kind before a colon \(Write the embedder as model2vec:PATH/);
});

test('a text with no word the model knows gets no vector: it matches nothing, and a query like it reads lexically', async (t) => {
  const { engram } = await withModel(t);
  const { tires, pasta } = await fill(engram);
  // Chinese and emoji: no token of the test model, so a zero vector, which is never stored.
  const unknown = await engram.put({ content: '汉字笔记 🙂🙂' });
  assert.equal(unknown.embedding?.warning, undefined);
  assert.deepEqual(unknown.similar ?? [], [], 'nothing is alike in meaning to a text without a vector');
  const stats = (await engram.stats()).vectors!;
  assert.equal(stats.pending, 0, 'embedded without a vector: not pending');
  assert.equal(stats.vectors, 3, 'only the vectors that mean something are counted');
  for (const mode of ['semantic', 'hybrid'] as const) {
    assert.ok(!ids(await engram.search({ query: QUERY, mode })).includes(unknown.item.id), mode);
  }
  assert.deepEqual((await engram.recall({ query: QUERY })).injected.map((e) => e.id), [tires]);
  // A write alike to nothing the model knows reports no item of cosine 1.
  const again = await engram.put({ content: '汉字 🙂' });
  assert.deepEqual((again.similar ?? []).filter((s) => s.cosine !== undefined), []);
  // A query with no known word: the default and hybrid read lexically, semantic finds nothing.
  for (const mode of [undefined, 'hybrid'] as const) {
    const result = await engram.search({ query: '🙂', mode });
    assert.equal(result.mode, 'lexical');
    assert.match(result.warnings?.[0] ?? '', /no word the model knows/);
  }
  const semantic = await engram.search({ query: '🙂', mode: 'semantic' });
  assert.deepEqual(ids(semantic), []);
  assert.match(semantic.warnings?.[0] ?? '', /no word the model knows/);
  assert.ok(!ids(await engram.search({ query: 'pasta' })).includes(unknown.item.id));
  assert.equal((await engram.search({ query: 'pasta' })).items[0]?.id, pasta);
  // `embed` has nothing to do: the item without a vector is not sent again.
  const doctor = await engram.doctor();
  assert.equal(doctor.ok, true, JSON.stringify(doctor));
});

/**
 * Ingest with the policy on worker threads gives what ingest in one thread gives: the same file
 * statuses, refused ranges and rules, the same stored chunks (text, title, flags, provenance) and
 * the same index entries, over every case of the policy corpora — one file each, a short file of
 * several chunks (the whole text read) and a long one (the windows around its chunk boundaries) —
 * and through the bundled CLI. The pool's own answers equal the policy's; item ids drawn ahead
 * keep their format.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openEngram } from '../src/index.js';
import { WHOLE_TEXT_LIMIT } from '../src/ingest/across-chunks.js';
import { createPolicyPool, poolSize, POOL_MIN_BYTES } from '../src/ingest/policy-pool.js';
import { ingestVerdict, rejectingRules } from '../src/ingest/policy-tasks.js';
import { evaluatePolicy } from '../src/policy/evaluate.js';
import { secretSpans } from '../src/policy/secret-spans.js';
import { policyTexts } from './adversarial/texts.js';
import { cli, policyCorpus, tempDir } from './helpers.js';

const TIMEOUT = { timeout: 600_000 };

/** A directory of the corpora's cases: one file each, and two files holding many of them. */
function corpusDir(root: string): { dir: string; texts: string[] } {
  const cases = [...policyCorpus('adversarial.jsonl'), ...policyCorpus('benign.jsonl')];
  const dir = join(root, 'docs');
  mkdirSync(join(dir, 'cases'), { recursive: true });
  cases.forEach((c, i) => writeFileSync(join(dir, 'cases', `case${i}.md`), `${c.text}\n`));
  const texts = cases.map((c) => c.text);
  // Several chunks, read whole by the policy; then over the whole-text limit, read at boundaries.
  let joined = '';
  for (const text of texts) if (joined.length < 6000) joined += `${text}\n\n`;
  assert.ok(joined.length > 4000 && joined.length <= WHOLE_TEXT_LIMIT);
  writeFileSync(join(dir, 'short.md'), `${joined}\n`);
  let long = '';
  while (long.length <= WHOLE_TEXT_LIMIT) long += `${texts.join('\n\n')}\n\n`;
  writeFileSync(join(dir, 'long.md'), long);
  return { dir, texts };
}

type Row = Record<string, unknown>;

/** What a store holds, without what differs by run (ids, times). */
function stored(path: string): { items: Row[]; index: Row[]; corpus: Row[] } {
  const db = new Database(path, { readonly: true });
  try {
    const items = (db.prepare('SELECT * FROM memory_items').all() as Row[]).map((r) => {
      const { id: _id, created_at: _c, updated_at: _u, expires_at: _e, last_accessed_at: _l, ...rest } = r;
      return rest;
    });
    const index = db.prepare('SELECT title, content FROM memory_fts ORDER BY title, content').all() as Row[];
    const corpus = db.prepare('SELECT path, sha256, size_bytes, chunks, refused, scope FROM corpus_hashes ORDER BY path').all() as Row[];
    const key = (r: Row) => JSON.stringify(r);
    return { items: items.map(key).sort().map((k) => JSON.parse(k) as Row), index, corpus };
  } finally {
    db.close();
  }
}

async function ingestWith(workers: number, dir: string, db: string) {
  const engram = await openEngram({ path: db });
  try {
    const report = await engram.ingest({ sources: ['docs'], cwd: dir, chunk_tokens: 100, workers });
    return report.files.map(({ path, status, chunks, deduplicated, reason, refused, note }) =>
      ({ path, status, chunks, deduplicated, reason, refused, note }));
  } finally {
    engram.close();
  }
}

test('the policy pool answers what the policy answers, in order', TIMEOUT, async () => {
  const texts = [...policyCorpus('adversarial.jsonl'), ...policyCorpus('benign.jsonl')].map((c) => c.text);
  const pool = createPolicyPool(2);
  try {
    assert.equal(pool.workers, 2, 'the worker file is found beside the pool');
    const subjects = texts.map((content, i) => ({ content, title: `case ${i}`, scope: 'project', provenance: { chunk_index: i } }));
    assert.deepEqual(await pool.verdicts(subjects), subjects.map(ingestVerdict));
    assert.deepEqual(await pool.rules(texts), texts.map(rejectingRules));
    const all = texts.join('\n\n');
    assert.deepEqual(await pool.spans(all), secretSpans(all));
  } finally {
    await pool.close();
  }
  const local = createPolicyPool(0);
  assert.equal(local.workers, 0);
  assert.deepEqual(await local.rules(texts.slice(0, 5)), texts.slice(0, 5).map(rejectingRules));
  await local.close();
  const big = 50 * 1024 * 1024;
  assert.equal(poolSize(POOL_MIN_BYTES - 1), 0, 'a short ingest starts no worker');
  assert.equal(poolSize(big, 3), 3, 'a count asked for is kept');
  assert.equal(poolSize(big, undefined, { cores: 2, load: 0.2 }), 2, 'an idle machine: one per core');
  assert.equal(poolSize(big, undefined, { cores: 2, load: 1.2 }), 1);
  assert.equal(poolSize(big, undefined, { cores: 2, load: 3 }), 0, 'a busy machine: none');
  assert.equal(poolSize(big, undefined, { cores: 16, load: 0 }), 4, 'at most 4');
});

test('ingest with policy workers stores and refuses exactly what ingest in one thread does', TIMEOUT, async (t) => {
  const root = tempDir(t);
  corpusDir(root);
  const one = await ingestWith(0, root, join(root, 'one.db'));
  const two = await ingestWith(2, root, join(root, 'two.db'));
  assert.deepEqual(two, one, 'the same report, file by file');
  const statuses = new Set(one.map((f) => f.status));
  for (const status of ['ingested', 'partial', 'failed'] as const) assert.ok(statuses.has(status), `the corpus has ${status} files`);
  const long = one.find((f) => f.path === 'docs/long.md');
  assert.ok((long?.refused?.length ?? 0) > 0 && (long?.chunks ?? 0) > 100, 'the long file is partly refused');
  const [a, b] = [stored(join(root, 'one.db')), stored(join(root, 'two.db'))];
  assert.ok(a.items.some((i) => i.quarantined === 1), 'some chunks are quarantined');
  assert.deepEqual(b.corpus, a.corpus, 'the same file records');
  assert.deepEqual(b.items, a.items, 'the same items');
  assert.deepEqual(b.index, a.index, 'the same index entries');

  // A re-run with workers skips every stored file by its hash and writes nothing.
  const again = await ingestWith(2, root, join(root, 'two.db'));
  const kept = new Map(two.map((f) => [f.path, f.status]));
  for (const f of again) {
    const before = kept.get(f.path);
    assert.equal(f.status, before === 'ingested' ? 'unchanged' : before === 'partial' ? 'partial' : f.status, f.path);
  }
  assert.deepEqual(stored(join(root, 'two.db')), b, 'nothing written again');
});

test('the bundled CLI ingests with --workers 2: the same report and store as with --workers 0', TIMEOUT, (t) => {
  const root = tempDir(t);
  corpusDir(root);
  const run = (db: string, workers: string) => cli(['ingest', '--db', join(root, db), 'docs', '--chunk-tokens', '100', '--workers', workers], { cwd: root });
  const [one, two] = [run('one.db', '0'), run('two.db', '2')];
  assert.equal(one.code, 1, 'some chunks are refused');
  assert.equal(two.code, 1, two.stderr);
  assert.deepEqual(two.json?.files, one.json?.files);
  assert.deepEqual(stored(join(root, 'two.db')), stored(join(root, 'one.db')));
});

test('the rejecting rules of a text are those of a full evaluation (the rules that only quarantine are not run)', () => {
  const texts = policyTexts();
  // Alone, and four at a time (a text with a secret, personal data and an instruction together).
  const mixed = texts.map((text, i) => [text, texts[(i * 7 + 3) % texts.length], texts[(i * 13 + 5) % texts.length]].join('\n\n'));
  let rejected = 0;
  for (const text of [...texts, ...mixed]) {
    const full = evaluatePolicy({ content: text }, { ignoreSize: true }).matches.filter((m) => m.action === 'reject').map((m) => m.rule);
    assert.deepEqual(rejectingRules(text), full, text.slice(0, 200));
    if (full.length > 0) rejected++;
  }
  assert.ok(rejected > 4_000, `${rejected} texts had rejecting rules`);
});

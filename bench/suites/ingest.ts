/**
 * Ingest suite: throughput (MB/s, chunks/s) and peak RSS of `ingest` on a generated corpus of
 * 1,000 mixed files (Markdown, TypeScript, text, HTML, JSON, CSV, DOCX) and on one 50 MB text
 * file, each run in a fresh process on a fresh store, beside the goal (5 and 15 MB/s): in one
 * thread, and with the policy workers ingest starts on an idle machine (`ingest --workers`). With
 * MEMCTL_BIN set to a memctl command (`MEMCTL_BIN=memctl`, `MEMCTL_BIN='python3 -m memctl'`),
 * memctl ingests the same corpus too (`push --source`), and so does the engram CLI, both timed
 * as whole processes: the ratio is engram's rate over memctl's (goal 3×).
 *
 * A last row is the policy alone: each chunk of the mixed corpus judged once, in this thread, as
 * ingest judges a chunk's text (no store, no whole-text or secret-span pass). Ingest reads each
 * text about three times with the policy, so this rate bounds what any change to the rest can reach.
 *
 * `writeMixedCorpus` and `writeBigFile` write the same inputs anywhere, to profile ingest by hand:
 * `node -e "import('./dist/bench/suites/ingest.js').then((m) => m.writeMixedCorpus('corpus'))"`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import type { Row } from '../stats.js';
import { chunkText } from '../../src/ingest/chunk.js';
import { extract } from '../../src/ingest/extract/index.js';
import { detectByName } from '../../src/ingest/formats.js';
import { chunkCharsFor } from '../../src/ingest/ingest.js';
import { poolSize } from '../../src/ingest/policy-pool.js';
import { ingestVerdict } from '../../src/ingest/policy-tasks.js';
import { CLI } from './store.js';

const CHILD = fileURLToPath(new URL('../ingest-child.js', import.meta.url));
const WORDS = 'the memory store keeps every decision about deploys caches queues tokens tests builds releases agents prompts budgets schemas migrations indexes'.split(' ');

function words(seed: number, n: number): string {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return WORDS[x % WORDS.length];
  }).join(' ');
}

function paragraphs(seed: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${words(seed + i, 60)}.`);
}

const GENERATORS: ((i: number) => [string, string | Uint8Array])[] = [
  (i) => [`doc${i}.md`, `# Topic ${i}\n\n${paragraphs(i, 12).join('\n\n')}\n`],
  (i) => [`mod${i}.ts`, paragraphs(i, 10).map((p, j) => `export function f${j}() {\n  // ${p}\n  return ${j};\n}\n`).join('\n')],
  (i) => [`notes${i}.txt`, `${paragraphs(i, 15).join('\n\n')}\n`],
  (i) => [`page${i}.html`, `<html><head><title>Page ${i}</title></head><body>${paragraphs(i, 10).map((p) => `<p>${p}</p>`).join('')}</body></html>`],
  (i) => [`data${i}.json`, JSON.stringify(paragraphs(i, 8).map((text, id) => ({ id, text })), null, 2)],
  (i) => [`table${i}.csv`, `id,text\n${paragraphs(i, 20).map((p, j) => `${j},"${p}"`).join('\n')}\n`],
  (i) => [
    `report${i}.docx`,
    zipSync({
      'word/document.xml': strToU8(
        `<w:document xmlns:w="w"><w:body>${paragraphs(i, 10).map((p) => `<w:p><w:r><w:t>${p}</w:t></w:r></w:p>`).join('')}</w:body></w:document>`,
      ),
    }),
  ],
];

function runChild(db: string, sources: string[], cwd: string, workers: number) {
  const env = { ...process.env, INGEST_WORKERS: String(workers) };
  const result = spawnSync(process.execPath, [CHILD, db, ...sources], { cwd, env, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (result.status !== 0) throw new Error(`ingest child failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as {
    totals: { files: number; ingested: number; chunks: number; bytes: number; failed: number };
    seconds: number;
    max_rss_mb: number;
  };
}

function row(name: string, run: ReturnType<typeof runChild>, goal: number): Row {
  const mb = run.totals.bytes / 1024 / 1024;
  return {
    'suite': 'ingest',
    'case': name,
    'files': run.totals.files,
    'failed': run.totals.failed,
    'MB': Math.round(mb * 10) / 10,
    'chunks': run.totals.chunks,
    'seconds': Math.round(run.seconds * 10) / 10,
    'MB/s': Math.round((mb / run.seconds) * 100) / 100,
    'chunks/s': Math.round(run.totals.chunks / run.seconds),
    'peak RSS MB': run.max_rss_mb,
    'goal MB/s': goal,
  };
}

/** Seconds a whole process takes; throws when it fails. */
function timed(command: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const [file, ...args] = command as [string, ...string[]];
  const result = spawnSync(file, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command.join(' ')} exited ${result.status}: ${result.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** engram's CLI and memctl on the same sources, each a whole process on a fresh store. */
function againstMemctl(memctl: string[], dir: string, name: string, source: string, mb: number): Row[] {
  const engram = timed([process.execPath, CLI, 'ingest', source, '--db', join(dir, `${name}-engram.db`), '-q'], dir);
  const home = join(dir, `${name}-memctl`);
  timed([...memctl, 'init', home], dir);
  const theirs = timed([...memctl, 'push', 'ingest bench', '--source', source, '--db', join(home, 'memory.db'), '-q'], dir);
  const figures = (seconds: number) => ({
    'MB': Math.round(mb * 10) / 10,
    'seconds': Math.round(seconds * 10) / 10,
    'MB/s': Math.round((mb / seconds) * 100) / 100,
  });
  const ratio = `${Math.round((theirs / engram) * 100) / 100}×`;
  return [
    { 'suite': 'ingest', 'case': `${name}: engram CLI process`, ...figures(engram), 'vs memctl': ratio, 'goal MB/s': '3× memctl' },
    { suite: 'ingest', case: `${name}: memctl process`, ...figures(theirs) },
  ];
}

/** The corpus's chunks, as ingest cuts them (its default chunk size). */
async function corpusChunks(corpus: string): Promise<string[]> {
  const chunks: string[] = [];
  for (const sub of readdirSync(corpus).sort()) {
    for (const name of readdirSync(join(corpus, sub)).sort()) {
      const detected = detectByName(name);
      if (detected === undefined || 'skip' in detected) continue;
      const { text } = await extract(detected.family, detected.ext, readFileSync(join(corpus, sub, name)));
      const cut = chunkText(text, { maxChars: chunkCharsFor(), code: detected.family === 'code' });
      chunks.push(...cut.map((c) => c.content));
    }
  }
  return chunks;
}

/** The policy alone over the corpus's chunks, one verdict each, in this thread. */
async function policyAlone(corpus: string): Promise<Row> {
  const chunks = await corpusChunks(corpus);
  const start = process.hrtime.bigint();
  const refused = chunks.filter((content) => ingestVerdict({ content }).verdict !== 'accept').length;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  // The corpus is benign, and every chunk within the size limit: a refusal means a broken measure.
  if (refused > 0) throw new Error(`the policy refused ${refused} chunks of the benign corpus`);
  const mb = chunks.reduce((n, c) => n + Buffer.byteLength(c), 0) / 1024 / 1024;
  return {
    'suite': 'ingest',
    'case': '1,000 mixed files: the policy alone, each chunk once (one thread)',
    'MB': Math.round(mb * 10) / 10,
    'chunks': chunks.length,
    'seconds': Math.round(seconds * 10) / 10,
    'MB/s': Math.round((mb / seconds) * 100) / 100,
    'chunks/s': Math.round(chunks.length / seconds),
  };
}

/** The generated corpus of 1,000 mixed files, in 20 folders under `corpus`. */
export function writeMixedCorpus(corpus: string): void {
  for (let i = 0; i < 1000; i++) {
    const sub = join(corpus, `dir${i % 20}`);
    mkdirSync(sub, { recursive: true });
    const [name, content] = (GENERATORS[i % GENERATORS.length] as (i: number) => [string, string | Uint8Array])(i);
    writeFileSync(join(sub, name), content);
  }
}

/** The generated 50 MB text file. */
export function writeBigFile(path: string): void {
  const block = `${paragraphs(7, 200).join('\n\n')}\n\n`;
  writeFileSync(path, block.repeat(Math.ceil((50 * 1024 * 1024) / block.length)).slice(0, 50 * 1024 * 1024));
}

export async function ingestSuite(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-ingest-'));
  try {
    const corpus = join(dir, 'corpus');
    writeMixedCorpus(corpus);
    // In one thread, then with the policy workers ingest starts on an idle machine.
    const cores = availableParallelism();
    const idle = (bytes: number) => poolSize(bytes, undefined, { cores, load: 0 });
    const mixed = runChild(join(dir, 'mixed.db'), ['corpus'], dir, 0);
    const mixedCount = idle(mixed.totals.bytes);
    const mixedWorkers = runChild(join(dir, 'mixed-w.db'), ['corpus'], dir, mixedCount);
    const big = join(dir, 'big.txt');
    writeBigFile(big);
    const single = runChild(join(dir, 'big.db'), ['big.txt'], dir, 0);
    const singleCount = idle(single.totals.bytes);
    const singleWorkers = runChild(join(dir, 'big-w.db'), ['big.txt'], dir, singleCount);
    const workers = (n: number) => `${n} policy worker${n === 1 ? '' : 's'}`;
    const rows = [
      row('1,000 mixed files', mixed, 5),
      row(`1,000 mixed files, ${workers(mixedCount)}`, mixedWorkers, 5),
      row('one 50 MB text file', single, 15),
      row(`one 50 MB text file, ${workers(singleCount)}`, singleWorkers, 15),
    ];
    const memctl = process.env.MEMCTL_BIN?.split(' ').filter((w) => w !== '');
    if (memctl !== undefined && memctl.length > 0) {
      // The table's columns are the first row's.
      (rows[0] as Row)['vs memctl'] = '';
      rows.push(...againstMemctl(memctl, dir, '1,000 mixed files', 'corpus', mixed.totals.bytes / 1024 / 1024));
      rows.push(...againstMemctl(memctl, dir, 'one 50 MB text file', 'big.txt', single.totals.bytes / 1024 / 1024));
    }
    rows.push(await policyAlone(corpus));
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

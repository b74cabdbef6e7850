/**
 * Ingest suite: throughput (MB/s, chunks/s) and peak RSS of `ingest` on a generated corpus of
 * 1,000 mixed files (Markdown, TypeScript, text, HTML, JSON, CSV, DOCX) and on one 50 MB text
 * file, each run in a fresh process on a fresh store.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import type { Row } from '../stats.js';

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

function runChild(db: string, sources: string[], cwd: string) {
  const result = spawnSync(process.execPath, [CHILD, db, ...sources], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (result.status !== 0) throw new Error(`ingest child failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as {
    totals: { files: number; ingested: number; chunks: number; bytes: number; failed: number };
    seconds: number;
    max_rss_mb: number;
  };
}

function row(name: string, run: ReturnType<typeof runChild>): Row {
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
  };
}

export function ingestSuite(): Row[] {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-ingest-'));
  try {
    const corpus = join(dir, 'corpus');
    for (let i = 0; i < 1000; i++) {
      const sub = join(corpus, `dir${i % 20}`);
      mkdirSync(sub, { recursive: true });
      const [name, content] = (GENERATORS[i % GENERATORS.length] as (i: number) => [string, string | Uint8Array])(i);
      writeFileSync(join(sub, name), content);
    }
    const mixed = runChild(join(dir, 'mixed.db'), ['corpus'], dir);
    const big = join(dir, 'big.txt');
    const block = `${paragraphs(7, 200).join('\n\n')}\n\n`;
    writeFileSync(big, block.repeat(Math.ceil((50 * 1024 * 1024) / block.length)).slice(0, 50 * 1024 * 1024));
    const single = runChild(join(dir, 'big.db'), ['big.txt'], dir);
    return [row('1,000 mixed files', mixed), row('one 50 MB text file', single)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

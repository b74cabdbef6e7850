/**
 * Retrieval quality on public sets read from ../shared/bench-data (never copied here):
 * BEIR SciFact (nDCG@10, recall@100 of `search`) and the LoCoMo development split (hit@5 and
 * hit@10 of an evidence turn, every turn one memory, one store per conversation, categories 1–4).
 * Both run full-text search (lexical), with the tokenizer preset a user would pick for English
 * (en); when `ENGRAM_EMBEDDER` names an embedder (`model2vec:PATH`, `ollama:MODEL`, …), every
 * item is embedded too and each set is measured again in hybrid and semantic mode.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Embedder } from '../../src/embed/embedder.js';
import { openEmbedder } from '../../src/embed/open-embedder.js';
import { type Engram, openEngram } from '../../src/index.js';
import type { RetrievalMode } from '../../src/retrieval/retrieve.js';
import type { Row } from '../stats.js';

const DATA = fileURLToPath(new URL('../../../../shared/bench-data/', import.meta.url));

/** The embedder `ENGRAM_EMBEDDER` names (key from ENGRAM_EMBED_API_KEY or OPENAI_API_KEY), if any. */
async function benchEmbedder(): Promise<Embedder | undefined> {
  const spec = process.env.ENGRAM_EMBEDDER;
  if (spec === undefined || spec.trim() === '') return undefined;
  const apiKey = process.env.ENGRAM_EMBED_API_KEY ?? process.env.OPENAI_API_KEY;
  return openEmbedder(spec, { apiKey });
}

/** Lexical always; hybrid and semantic too when an embedder is configured. */
function modes(embedder: Embedder | undefined): RetrievalMode[] {
  return embedder === undefined ? ['lexical'] : ['lexical', 'hybrid', 'semantic'];
}

/** Opens a fresh store, loads it with `load` (then embeds every item when there is an embedder). */
async function withStore<T>(
  embedder: Embedder | undefined,
  load: (engram: Engram) => Promise<void>,
  fn: (engram: Engram) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-quality-'));
  const engram = await openEngram({ path: join(dir, 'memory.db'), ftsTokenizer: 'en', ...(embedder ? { embedder } : {}) });
  try {
    await load(engram);
    if (embedder !== undefined) await engram.embed();
    return await fn(engram);
  } finally {
    engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function jsonLines<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

export async function scifactSuite(): Promise<Row[]> {
  const dir = join(DATA, 'scifact');
  if (!existsSync(dir)) return [];
  const corpus = jsonLines<{ _id: string; title: string; text: string }>(join(dir, 'corpus.jsonl'));
  const queries = new Map(jsonLines<{ _id: string; text: string }>(join(dir, 'queries.jsonl')).map((q) => [q._id, q.text]));
  const qrels = new Map<string, Set<string>>();
  for (const line of readFileSync(join(dir, 'qrels-test.tsv'), 'utf8').split('\n').slice(1)) {
    const [query, doc, score] = line.split('\t');
    if (!query || !doc || Number(score) <= 0) continue;
    qrels.set(query, (qrels.get(query) ?? new Set()).add(`doc-${doc}`));
  }
  const embedder = await benchEmbedder();
  const load = async (engram: Engram) => {
    await engram.importLines(
      corpus.map((d) => JSON.stringify({ id: `doc-${d._id}`, title: d.title, content: d.text, type: 'pointer' })),
    );
  };
  return withStore(embedder, load, async (engram) => {
    const rows: Row[] = [];
    for (const mode of modes(embedder)) rows.push(await scifactRow(engram, mode, queries, qrels, corpus.length));
    return rows;
  });
}

async function scifactRow(
  engram: Engram,
  mode: RetrievalMode,
  queries: Map<string, string>,
  qrels: Map<string, Set<string>>,
  docs: number,
): Promise<Row> {
  let ndcg = 0;
  let recall = 0;
  for (const [id, relevant] of qrels) {
    const { items } = await engram.search({ query: queries.get(id) ?? '', k: 100, mode });
    const ranked = items.map((i) => i.id);
    let dcg = 0;
    ranked.slice(0, 10).forEach((doc, i) => {
      if (relevant.has(doc)) dcg += 1 / Math.log2(i + 2);
    });
    let ideal = 0;
    for (let i = 0; i < Math.min(10, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
    ndcg += dcg / ideal;
    recall += ranked.filter((d) => relevant.has(d)).length / relevant.size;
  }
  const n = qrels.size;
  return { 'suite': 'quality', 'case': `SciFact test (${n} queries, ${docs} docs), ${mode}`, 'nDCG@10': round(ndcg / n), 'recall@100': round(recall / n) };
}

interface LocomoSample {
  conversation: Record<string, unknown>;
  qa: { question: string; evidence: string[]; category: number }[];
}

export async function locomoSuite(): Promise<Row[]> {
  const path = join(DATA, 'locomo-dev', 'locomo-dev.json');
  if (!existsSync(path)) return [];
  const samples = JSON.parse(readFileSync(path, 'utf8')) as LocomoSample[];
  const embedder = await benchEmbedder();
  const counts = new Map(modes(embedder).map((mode) => [mode, { questions: 0, hit5: 0, hit10: 0 }]));
  for (const sample of samples) {
    const load = async (engram: Engram) => {
      const lines: string[] = [];
      for (const [key, value] of Object.entries(sample.conversation)) {
        if (!/^session_\d+$/.test(key) || !Array.isArray(value)) continue;
        const date = sample.conversation[`${key}_date_time`];
        for (const turn of value as { speaker: string; dia_id: string; text: string }[]) {
          lines.push(
            JSON.stringify({ id: turn.dia_id, content: `${turn.speaker}: ${turn.text}`, source: String(date ?? '') }),
          );
        }
      }
      await engram.importLines(lines);
    };
    await withStore(embedder, load, async (engram) => {
      for (const [mode, count] of counts) {
        for (const qa of sample.qa) {
          if (qa.category < 1 || qa.category > 4) continue;
          const { items } = await engram.search({ query: qa.question, k: 10, mode });
          const ids = items.map((i) => i.id);
          count.questions++;
          if (ids.slice(0, 5).some((id) => qa.evidence.includes(id))) count.hit5++;
          if (ids.some((id) => qa.evidence.includes(id))) count.hit10++;
        }
      }
    });
  }
  return [...counts].map(([mode, { questions, hit5, hit10 }]) => ({
    'suite': 'quality',
    'case': `LoCoMo dev (${questions} questions, categories 1-4), ${mode}`,
    'hit@5': round(hit5 / questions),
    'hit@10': round(hit10 / questions),
  }));
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

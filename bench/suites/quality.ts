/**
 * Retrieval quality on public sets read from ../shared/bench-data (never copied here):
 * BEIR SciFact (nDCG@10, recall@100 of `search`) and the LoCoMo development split (hit@5 and
 * hit@10 of an evidence turn, every turn one memory, one store per conversation, categories 1–4).
 * Both use full-text search alone, with the tokenizer preset a user would pick for English (en).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Engram, openEngram } from '../../src/index.js';
import type { Row } from '../stats.js';

const DATA = fileURLToPath(new URL('../../../../shared/bench-data/', import.meta.url));

async function withStore<T>(fn: (engram: Engram) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-quality-'));
  const engram = await openEngram({ path: join(dir, 'memory.db'), ftsTokenizer: 'en' });
  try {
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
  return withStore(async (engram) => {
    await engram.importLines(
      corpus.map((d) => JSON.stringify({ id: `doc-${d._id}`, title: d.title, content: d.text, type: 'pointer' })),
    );
    let ndcg = 0;
    let recall = 0;
    for (const [id, relevant] of qrels) {
      const { items } = await engram.search({ query: queries.get(id) ?? '', k: 100 });
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
    return [{ 'suite': 'quality', 'case': `SciFact test (${n} queries, ${corpus.length} docs)`, 'nDCG@10': round(ndcg / n), 'recall@100': round(recall / n) }];
  });
}

interface LocomoSample {
  conversation: Record<string, unknown>;
  qa: { question: string; evidence: string[]; category: number }[];
}

export async function locomoSuite(): Promise<Row[]> {
  const path = join(DATA, 'locomo-dev', 'locomo-dev.json');
  if (!existsSync(path)) return [];
  const samples = JSON.parse(readFileSync(path, 'utf8')) as LocomoSample[];
  let questions = 0;
  let hit5 = 0;
  let hit10 = 0;
  for (const sample of samples) {
    await withStore(async (engram) => {
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
      for (const qa of sample.qa) {
        if (qa.category < 1 || qa.category > 4) continue;
        const { items } = await engram.search({ query: qa.question, k: 10 });
        const ids = items.map((i) => i.id);
        questions++;
        if (ids.slice(0, 5).some((id) => qa.evidence.includes(id))) hit5++;
        if (ids.some((id) => qa.evidence.includes(id))) hit10++;
      }
    });
  }
  return [{ 'suite': 'quality', 'case': `LoCoMo dev (${questions} questions, categories 1-4)`, 'hit@5': round(hit5 / questions), 'hit@10': round(hit10 / questions) }];
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/**
 * Embed suite: throughput of the Model2Vec loader (items/s, and p50/p95 per call) embedding texts
 * of ~60 words one at a time (the write path) and in batches of 64 (`engram embed`), on a generated
 * 256-dimension model with a 4,000-word vocabulary; plus the time to load the directory. When the
 * model2vec-rs fixtures are in ../shared/models, the same on their real 29,528-token WordPiece
 * and Unigram vocabularies (tokenising dominates; their tables are 2 and 64 dimensions).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadModel2Vec } from '../../src/embed/model2vec.js';
import { writeTestModel } from '../../test/model2vec-model.js';
import { quantile, timeMsAsync, type Row } from '../stats.js';

const FIXTURES = process.env.ENGRAM_MODEL2VEC_FIXTURES
  ?? fileURLToPath(new URL('../../../../shared/models/model2vec-rs-fixtures/', import.meta.url));
const TEXTS = 4096;
const WORDS_PER_TEXT = 60;
const BATCH = 64;
const PUNCTUATION = ['', '', '', '', ',', '.', '!', '?'];

/** `count` texts of ~60 words drawn from `words` (a fixed LCG: the same texts every run). */
function texts(words: readonly string[], count: number): string[] {
  let x = 16;
  const next = (n: number) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
  return Array.from({ length: count }, () => Array.from({ length: WORDS_PER_TEXT - 5 + next(11) }, (_, i) => {
    const word = words[next(words.length)] as string;
    return `${i === 0 ? word[0]?.toUpperCase() + word.slice(1) : word}${PUNCTUATION[next(PUNCTUATION.length)]}`;
  }).join(' '));
}

const SUITE = 'embed (Model2Vec loader, texts of ~60 words)';

async function rows(model: string, dir: string, words: readonly string[]): Promise<Row[]> {
  const loads: number[] = [];
  let embedder = await loadModel2Vec(dir);
  for (let i = 0; i < 5; i++) loads.push(await timeMsAsync(async () => (embedder = await loadModel2Vec(dir))));
  const inputs = texts(words, TEXTS);
  await embedder.embed(inputs.slice(0, 256));
  const single: number[] = [];
  for (const text of inputs) single.push(await timeMsAsync(() => embedder.embed([text])));
  const batches: number[] = [];
  for (let i = 0; i < inputs.length; i += BATCH) {
    batches.push(await timeMsAsync(() => embedder.embed(inputs.slice(i, i + BATCH))));
  }
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  const row = (name: string, times: number[], items: number): Row => ({
    'suite': SUITE,
    'case': `${model}: ${name}`,
    'items/s': Math.round((items * 1000) / sum(times)),
    'p50 ms': round(quantile(times, 0.5)),
    'p95 ms': round(quantile(times, 0.95)),
  });
  return [
    row('one text per call', single, inputs.length),
    row(`batches of ${BATCH}`, batches, inputs.length),
    {
      'suite': SUITE,
      'case': `${model}: load the directory`,
      'items/s': '—',
      'p50 ms': round(quantile(loads, 0.5)),
      'p95 ms': round(quantile(loads, 0.95)),
    },
  ];
}

export async function embedSuite(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-embed-'));
  try {
    const model = await writeTestModel(join(dir, 'generated'), { dims: 256, vocabularySize: 4000 });
    const out = await rows('generated, 256 dims, 4,000 words', model.dir, model.words);
    for (const [name, label] of [['float32', 'WordPiece'], ['vocab-quantized', 'Unigram']] as const) {
      const fixture = join(FIXTURES, `test-model-${name}`);
      // The fixtures' vocabularies are subwords; the generated words are whole English words they split.
      if (existsSync(fixture)) out.push(...await rows(`fixture ${name}, ${label} 29.5k tokens`, fixture, model.words));
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Tokens suite: what recall's budget is counted in. For each tokenizer (and characters/4, the
 * seeds' estimate, for comparison): its count over o200k's on the English fixtures (prose, and
 * code, made by test/token-fixtures.ts: the ones the estimate test measures) and on Chinese; the
 * cold load time of its encoding (a fresh process importing it and counting one word, median of
 * runs); the time to pack 100 mixed-script candidates into the default budget.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createItem } from '../../src/items/build-item.js';
import { estimateTokens } from '../../src/recall/estimate-tokens.js';
import { packRecall } from '../../src/recall/injection-block.js';
import { loadTokenizer, type Tokenizer } from '../../src/recall/tokenizer.js';
import { TOKENIZER_NAMES, type TokenizerName } from '../../src/types.js';
import { englishCode, englishProse, mixedMemory, SCRIPT_SAMPLES, seeded } from '../../test/token-fixtures.js';
import { quantile, type Row, timeMs } from '../stats.js';

const TOKENIZER_MODULE = fileURLToPath(new URL('../../src/recall/tokenizer.js', import.meta.url));

/** Cold load of `name` in a fresh process: import, then count one word (ms, measured inside). */
function coldLoadMs(name: TokenizerName): number {
  const script = `const t = performance.now();
const { loadTokenizer } = await import(${JSON.stringify(TOKENIZER_MODULE)});
(await loadTokenizer(${JSON.stringify(name)})).count('warm');
process.stdout.write(String(performance.now() - t));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`loading ${name}: ${run.stderr}`);
  return Number(run.stdout);
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

export async function tokensSuite(loads = 5, packs = 20): Promise<Row[]> {
  const prose = englishProse(1, 6);
  const code = englishCode(2, 8);
  const chinese = SCRIPT_SAMPLES.chinese ?? '';
  const o200k = await loadTokenizer('o200k');
  const random = seeded(100);
  const candidates = Array.from({ length: 100 }, (_, i) => ({
    item: createItem(`MEM-${i.toString(16).padStart(12, '0')}`, { content: mixedMemory(random) }, '2026-11-22T12:00:00.000Z'),
    score: 100 - i,
  }));
  const chars4: Tokenizer = { name: 'chars', count: (text) => Math.ceil(text.length / 4) };
  const rows: Row[] = [];
  for (const name of ['characters/4', ...TOKENIZER_NAMES] as const) {
    const tokenizer = name === 'characters/4' ? chars4 : await loadTokenizer(name);
    const loadTimes = name === 'characters/4' || name === 'chars'
      ? [0]
      : Array.from({ length: loads }, () => coldLoadMs(name));
    const packTimes = Array.from({ length: packs }, () =>
      timeMs(() => packRecall(candidates, { budget: 1500, mode: 'inject', header: true, tokenizer })));
    rows.push({
      'suite': 'tokens (recall budget)',
      'case': name === 'characters/4' ? 'characters/4 (the old default)' : name === 'chars' ? 'chars (default estimate)' : name,
      'English prose ÷ o200k': round(tokenizer.count(prose) / o200k.count(prose), 3),
      'code ÷ o200k': round(tokenizer.count(code) / o200k.count(code), 3),
      'Chinese ÷ o200k': round(tokenizer.count(chinese) / o200k.count(chinese), 2),
      'cold load ms': round(quantile(loadTimes, 0.5), 1),
      'pack 100 ms': round(quantile(packTimes, 0.5), 2),
    });
  }
  // The default estimate is what the 10% promise is about: refuse to report a broken one.
  for (const text of [prose, code]) {
    const ratio = estimateTokens(text) / o200k.count(text);
    if (Math.abs(ratio - 1) > 0.1) throw new Error(`the estimate is ${ratio} of o200k on an English fixture`);
  }
  return rows;
}

/**
 * The budget promise, by the selected tokenizer (issue 18): over random mixed-script memories
 * (Latin, CJK, kana, hangul, Cyrillic, emoji, code, odd whitespace, special-token spellings),
 * the block recall prints never holds more tokens than the budget as that tokenizer counts them,
 * and `tokens_used` is exactly that tokenizer's count of the printed block (not a bound: equal).
 * For chars (the built-in estimate), o200k and cl100k; on the pure packing (many cases) and
 * through `openEngram` on a real store (fewer).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { createItem } from '../src/items/build-item.js';
import { openEngram } from '../src/index.js';
import { type Candidate, packRecall, type RecallMode } from '../src/recall/injection-block.js';
import { estimateTokens } from '../src/recall/estimate-tokens.js';
import { CHARS_TOKENIZER, loadTokenizer, type Tokenizer } from '../src/recall/tokenizer.js';
import { TOKENIZER_NAMES, type MemoryItem } from '../src/types.js';
import { tempDir } from './helpers.js';
import { mixedMemory, seeded } from './token-fixtures.js';

const AT = '2026-11-22T12:00:00.000Z';
const MODES: readonly RecallMode[] = ['inject', 'hybrid', 'catalog'];

/** A budget from 1 to ~4,000, spread evenly over the orders of magnitude. */
const budgetFrom = (random: () => number) => Math.max(1, Math.round(Math.exp(random() * Math.log(4000))));

function randomCandidates(random: () => number, count: number): Candidate[] {
  return Array.from({ length: count }, (_, i) => {
    const fields: Partial<MemoryItem> = {
      title: random() < 0.4 ? mixedMemory(random).slice(0, 120) : '',
      tags: random() < 0.5 ? ['a', 'büro', '数据'].slice(0, 1 + Math.floor(random() * 3)) : [],
      ...(random() < 0.2 ? { provenance: { relative_path: 'docs/指南.md', line_start: 1 + i, line_end: 40 + i } } : {}),
    };
    const id = `MEM-${i.toString(16).padStart(12, '0')}`;
    return { item: { ...createItem(id, { content: mixedMemory(random) }, AT), ...fields }, score: count - i };
  });
}

/** The block alone (without the catalog hybrid mode appends). */
function blockOf(text: string, mode: RecallMode): string {
  if (mode === 'catalog') return '';
  const at = text.indexOf('[ENGRAM_CATALOG entries=');
  return mode === 'hybrid' && at >= 0 ? text.slice(0, at) : text;
}

function checkPacking(tokenizer: Tokenizer, seed: number, cases: number): void {
  const random = seeded(seed);
  let injectedSome = 0;
  for (let n = 0; n < cases; n++) {
    const candidates = randomCandidates(random, Math.floor(random() * 25));
    const budget = budgetFrom(random);
    const mode = MODES[Math.floor(random() * MODES.length)] ?? 'inject';
    const header = random() < 0.8;
    const packed = packRecall(candidates, { budget, mode, header, tokenizer });
    const block = blockOf(packed.text, mode);
    const where = `${tokenizer.name} case ${n} (seed ${seed}): budget ${budget}, mode ${mode}, header ${header}`;
    assert.ok(tokenizer.count(block) <= budget, `${where}: ${tokenizer.count(block)} tokens`);
    assert.equal(packed.tokens_used, tokenizer.count(block), where);
    if (header && block !== '') assert.ok(block.endsWith(`[/ENGRAM_MEMORY tokens_used=${packed.tokens_used}]\n`), where);
    // Every candidate is either in the block or in the catalog, each list in rank order.
    const rank = new Map(candidates.map((c, i) => [c.item.id, i]));
    const order = (ids: string[]) => ids.map((id) => rank.get(id) ?? -1);
    const injected = order(packed.injected.map((e) => e.id));
    assert.equal(injected.length + packed.catalog.length, candidates.length, where);
    assert.deepEqual(injected, [...injected].sort((a, b) => a - b), where);
    if (injected.length > 0) injectedSome++;
  }
  assert.ok(injectedSome > cases / 4, `${tokenizer.name}: only ${injectedSome} of ${cases} cases injected anything`);
}

for (const name of TOKENIZER_NAMES) {
  test(`packing never exceeds the budget by ${name}, and tokens_used is ${name}'s count of the block`, async () => {
    checkPacking(await loadTokenizer(name), 0x1805 + name.length, 250);
  });
}

test('a budget that fits everything injects everything, by every tokenizer', async () => {
  const candidates = randomCandidates(seeded(99), 12);
  for (const name of TOKENIZER_NAMES) {
    const packed = packRecall(candidates, { budget: 1_000_000, mode: 'inject', header: true, tokenizer: await loadTokenizer(name) });
    assert.equal(packed.injected.length, 12, name);
  }
});

test('recall through openEngram keeps the budget by the store\'s tokenizer, and says which it is', async (t) => {
  const dir = tempDir(t);
  const random = seeded(0x18_0518);
  const memories = Array.from({ length: 60 }, () => mixedMemory(random));
  const words = memories.flatMap((m) => m.match(/[a-z]{4,}|\p{Script=Han}{2}|\p{Script=Hangul}+/gu) ?? []);
  for (const name of TOKENIZER_NAMES) {
    const engram = await openEngram({ path: join(dir, `${name}.db`), tokenizer: name });
    t.after(() => engram.close());
    for (const content of memories) {
      // A memory the write policy refuses (a special token's spelling reads as an injection) is left out.
      await engram.put({ content, tags: ['budget'] }, { privileged: true }).catch(() => undefined);
    }
    const tokenizer = await loadTokenizer(name);
    let matched = 0;
    for (let q = 0; q < 25; q++) {
      const query = Array.from({ length: 1 + Math.floor(random() * 3) }, () => words[Math.floor(random() * words.length)]).join(' ');
      const budget = budgetFrom(random);
      const result = await engram.recall({ query, budget });
      assert.equal(result.tokenizer, name);
      assert.ok(tokenizer.count(result.inject_text) <= budget, `${name} "${query}" budget ${budget}`);
      assert.equal(result.tokens_used, tokenizer.count(result.inject_text), `${name} "${query}"`);
      matched += result.injected.length;
    }
    assert.ok(matched > 0, `${name}: no query injected anything`);
  }
});

test('the estimate\'s least count is never above the estimate, on mixed-script text and whole item blocks', () => {
  const random = seeded(0x18_a7);
  const texts = Array.from({ length: 3000 }, () => mixedMemory(random));
  texts.push('don\'t', 'rock\'n\'roll', 'I\'m here', '\'quoted\' words', 'naïve café', 'abcдef', 'HelloWorld', 'x\'', 'e\u0301t\u00e9');
  const candidates = randomCandidates(random, 200);
  texts.push(...packRecall(candidates, { budget: 1_000_000, mode: 'inject', header: true }).text.split(/(?=--- ITEM )/));
  let tight = 0;
  for (const text of texts) {
    const least = CHARS_TOKENIZER.atLeast?.(text) ?? -1;
    assert.ok(least >= 0 && least <= estimateTokens(text), JSON.stringify(text));
    if (least > 0) tight++;
  }
  // It says something: most texts have a floor above zero.
  assert.ok(tight > texts.length / 2, `${tight} of ${texts.length}`);
});

test('the estimate adds up where the block\'s parts meet (a line feed, then - or [), and an item counts alike at any index up to 999', () => {
  const random = seeded(0x18_ad);
  const one = (list: readonly string[]) => list[Math.floor(random() * list.length)] ?? '';
  const edges = ['', '/', './', '.', ' ', '\t', '\n', '\n\n', '---', '[', ']', '数据', '  \n', '\\', '9', 'x', '\u00a0', '\r'];
  for (let n = 0; n < 4000; n++) {
    const a = `${one(edges)}${mixedMemory(random)}${one(edges)}\n`;
    const b = `${random() < 0.5 ? '-' : '['}${one(edges)}${mixedMemory(random)}${one(edges)}`;
    assert.equal(estimateTokens(a + b), estimateTokens(a) + estimateTokens(b), JSON.stringify([a, b]));
  }
  const blocks = packRecall(randomCandidates(random, 120), { budget: 1_000_000, mode: 'inject', header: false }).text
    .split(/(?=--- ITEM )/);
  assert.equal(blocks.length, 120);
  for (const block of blocks) {
    const wide = estimateTokens(block.replace(/^--- ITEM \d+\/\d+ /, '--- ITEM 999/999 '));
    for (const [i, total] of [[1, 1], [7, 12], [99, 100], [123, 999], [1, 999]]) {
      assert.equal(estimateTokens(block.replace(/^--- ITEM \d+\/\d+ /, `--- ITEM ${i}/${total} `)), wide, block.slice(0, 80));
    }
  }
});

test('the block counted from its parts is the estimate of the whole, for items that start or end at the seams', () => {
  const random = seeded(0x18_ae);
  const starts = ['/usr/bin/env', '\n\nlead', '- a list', '[link]', '--- ITEM 1/2 [x] ---', '  indented', '/', '.', '数据 first'];
  const ends = ['', '/', ' ---', '\n\n\n', '  ', '.', '[', '-'];
  for (let n = 0; n < 300; n++) {
    const candidates = Array.from({ length: 1 + Math.floor(random() * 30) }, (_, i) => {
      const content = `${starts[Math.floor(random() * starts.length)]}${mixedMemory(random)}${ends[Math.floor(random() * ends.length)]}`;
      const title = random() < 0.3 ? starts[Math.floor(random() * starts.length)] ?? '' : '';
      return { item: { ...createItem(`MEM-${i.toString(16).padStart(12, '0')}`, { content }, AT), title }, score: 100 - i };
    });
    const budget = budgetFrom(random);
    const header = random() < 0.8;
    const packed = packRecall(candidates, { budget, mode: 'inject', header });
    assert.equal(packed.tokens_used, estimateTokens(packed.text), `case ${n}`);
    assert.ok(packed.tokens_used <= budget, `case ${n}`);
    for (const entry of packed.injected) assert.ok(entry.tokens > 0);
  }
});

/** Candidates of plain English-like prose (words of 1 to 14 letters), where the least count is closest. */
function proseCandidates(random: () => number, count: number): Candidate[] {
  const word = () => Array.from({ length: 1 + Math.floor(random() * 14) }, () => 'etaoinshrdlucmfw'[Math.floor(random() * 16)]).join('');
  return Array.from({ length: count }, (_, i) => {
    const content = Array.from({ length: 5 + Math.floor(random() * 80) }, word).join(random() < 0.8 ? ' ' : '\n');
    return { item: createItem(`MEM-${i.toString(16).padStart(12, '0')}`, { content }, AT), score: count - i };
  });
}

test('packing with the least count skips only what could not fit: the same output, injected and catalog as measuring all', () => {
  const random = seeded(0x18_a8);
  const measureAll: Tokenizer = { name: 'chars', count: estimateTokens };
  for (let n = 0; n < 600; n++) {
    const count = Math.floor(random() * 40);
    const candidates = random() < 0.5 ? proseCandidates(random, count) : randomCandidates(random, count);
    // Half the budgets end just past a few blocks, where a skip that should not be would show.
    const sizes = packRecall(candidates, { budget: 1, mode: 'catalog', header: true }).catalog.map((e) => e.tokens);
    const some = sizes.slice(0, Math.floor(random() * sizes.length)).reduce((a, b) => a + b, 0);
    const budget = random() < 0.5 ? budgetFrom(random) : some + 30 + Math.floor(random() * 40);
    const mode = MODES[Math.floor(random() * MODES.length)] ?? 'inject';
    const header = random() < 0.8;
    const fast = packRecall(candidates, { budget, mode, header, tokenizer: CHARS_TOKENIZER });
    const all = packRecall(candidates, { budget, mode, header, tokenizer: measureAll });
    assert.equal(JSON.stringify(fast), JSON.stringify(all), `case ${n}: budget ${budget}, mode ${mode}`);
  }
});

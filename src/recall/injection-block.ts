/**
 * Recall packing and the injection block (format_version=1). Pure: given ranked candidates and a
 * token budget, picks items greedily in rank order (skipping any that does not fit, trying the
 * next) and renders a byte-stable block:
 *
 *   [ENGRAM_MEMORY format_version=1 type=memory_recall matched=5 injected=3 budget=1500]
 *   --- ITEM 1/3 [MEM-abc123def456 | fact | ltm | tags=oracle,cve] ---
 *   source: docs/guide.md lines 12-40   (ingested chunks only: from provenance, never from text)
 *   <title>            (omitted when the item has no title)
 *   <content>
 *   ...
 *   [/ENGRAM_MEMORY tokens_used=342]
 *
 * tokens_used is the count of the whole block, footer included, by the tokenizer in use (the
 * built-in estimate unless one is given); the block is counted whole, so it never exceeds the
 * budget by that tokenizer.
 *
 * Stored text cannot spoof the block (escape-block.ts): invisible and control characters are
 * removed from everything the block and the catalog show; a body line that could pass for the
 * opening, an item header or the closing line (loosely: any case, leading spaces, fullwidth or
 * look-alike letters, any dashes), a first line that could pass for the provenance line
 * (`source:`), and a line that starts with a backslash all get one leading backslash — drop one
 * leading backslash from each body line to get the stored text back. Header fields (id, type,
 * tier, tags) and catalog titles are single-line.
 */
import type { MemoryItem } from '../types.js';
import { escapeBlockText, headerField } from './escape-block.js';
import { provenanceLine } from './provenance-line.js';
import { CHARS_TOKENIZER, type Tokenizer } from './tokenizer.js';

export type RecallMode = 'inject' | 'catalog' | 'hybrid';

export interface Candidate {
  item: MemoryItem;
  score: number;
}

export interface CatalogEntry {
  id: string;
  title: string;
  type: string;
  tier: string;
  score: number;
  tokens: number;
}

export interface PackedRecall {
  /** The text for stdout: the block, the catalog, or both (hybrid); '' when nothing matched. */
  text: string;
  matched: number;
  injected: CatalogEntry[];
  /** Candidates that are not in the block (all of them in catalog mode). */
  catalog: CatalogEntry[];
  tokens_used: number;
}

export interface PackOptions {
  budget: number;
  mode: RecallMode;
  /** False drops the opening and closing lines of the block. */
  header: boolean;
  /** What the budget and `tokens_used` count in; the built-in estimate when not given. */
  tokenizer?: Tokenizer;
}

const label = (item: MemoryItem) => headerField(item.title || item.content.replace(/\s+/g, ' ').trim().slice(0, 80)).trim();

function itemBlock(item: MemoryItem, index: string, total: string): string {
  const fields = [item.id, item.type, item.tier, `tags=${item.tags.join(',')}`].map(headerField);
  const head = `--- ITEM ${index}/${total} [${fields.join(' | ')}] ---`;
  const source = provenanceLine(item);
  // Trailing blank lines (ingested chunks keep them) would only pad the block.
  const body = `${escapeBlockText(`${item.title === '' ? '' : `${item.title}\n`}${item.content}`).trimEnd()}\n`;
  return `${head}\n${source === undefined ? '' : `${source}\n`}${body}`;
}

function header(matched: number, injected: number | string, budget: number): string {
  return `[ENGRAM_MEMORY format_version=1 type=memory_recall matched=${matched} injected=${injected} budget=${budget}]\n`;
}

const footer = (tokens: number | string) => `[/ENGRAM_MEMORY tokens_used=${tokens}]\n`;

/** A candidate's entry; its title and its size are worked out when read (text output reads neither). */
function entry(candidate: Candidate, size: () => number): CatalogEntry {
  const { item, score } = candidate;
  let title: string | undefined;
  let tokens: number | undefined;
  return {
    id: item.id,
    get title() {
      return (title ??= label(item));
    },
    type: item.type,
    tier: item.tier,
    score,
    get tokens() {
      return (tokens ??= size());
    },
  };
}

function catalogText(entries: CatalogEntry[]): string {
  if (entries.length === 0) return '';
  const lines = entries.map((e) => `${e.id} | ${e.type} | ${e.tier} | tokens=${e.tokens} | ${e.title}\n`);
  return `[ENGRAM_CATALOG entries=${entries.length}]\n${lines.join('')}[/ENGRAM_CATALOG]\n`;
}

/** A rendered block and its count, which it prints in its closing line. */
interface Rendered {
  block: string;
  tokens: number;
}

/**
 * The block of `chosen`, or undefined when its closing line cannot print its own count (a count
 * that changes with the number it prints, back and forth; never seen, but then it does not fit).
 * With `itemTokens` (the items' counts added up, for a tokenizer whose parts add up:
 * `Tokenizer.partsAddUp`), the block is counted from its parts; else whole.
 */
function render(
  chosen: readonly Candidate[],
  matched: number,
  options: PackOptions,
  count: (text: string) => number,
  itemTokens?: number,
): Rendered | undefined {
  if (chosen.length === 0) return { block: '', tokens: 0 };
  const total = String(chosen.length);
  const items = chosen.map((c, i) => itemBlock(c.item, String(i + 1), total)).join('');
  if (!options.header) return { block: items, tokens: itemTokens ?? count(items) };
  const head = header(matched, chosen.length, options.budget);
  const bodyTokens = itemTokens === undefined ? undefined : count(head) + itemTokens;
  const measure = (close: string) =>
    (bodyTokens === undefined ? count(head + items + close) : bodyTokens + count(close));
  let tokens = measure(footer(0));
  for (let round = 0; round < 4; round++) {
    const close = footer(tokens);
    const counted = measure(close);
    if (counted === tokens) return { block: head + items + close, tokens };
    tokens = counted;
  }
  return undefined;
}

/** Packs `candidates` (best first) into the budget and renders the output for `mode`. */
export function packRecall(candidates: readonly Candidate[], options: PackOptions): PackedRecall {
  const { budget, mode } = options;
  const tokenizer = options.tokenizer ?? CHARS_TOKENIZER;
  const { count, atLeast } = tokenizer;
  const matched = candidates.length;
  const wide = '9'.repeat(String(Math.max(1, matched)).length);
  // Parts that add up, and index numbers of up to three digits: an item's size measured at the
  // widest index is its size in the block, which is counted from its parts.
  const fromParts = tokenizer.partsAddUp === true && wide.length <= 3;
  const frame = options.header ? count(header(matched, wide, budget)) + count(footer('9'.repeat(String(budget).length))) : 0;

  // Measured with the widest index numbers: a rendered index is never wider. One that cannot fit
  // even at the least its tokenizer could count is passed over unmeasured (the same choice, for
  // less work); the catalog measures it if it is read.
  const sizes: number[] = [];
  const sizeOf = (i: number) => (sizes[i] ??= count(itemBlock((candidates[i] as Candidate).item, wide, wide)));
  const chosen: number[] = [];
  let used = frame;
  candidates.forEach((c, i) => {
    if (mode === 'catalog') return;
    if (atLeast !== undefined) {
      const block = itemBlock(c.item, wide, wide);
      if (used + atLeast(block) > budget) return;
      sizes[i] = count(block);
    }
    const size = sizeOf(i);
    if (used + size <= budget) {
      chosen.push(i);
      used += size;
    }
  });
  // The parts need not add up to the whole (a BPE encoding may merge across a seam), so the
  // block is counted whole, and the last item chosen goes while it is over the budget.
  const pick = () => chosen.map((i) => candidates[i] as Candidate);
  const itemTokens = () => (fromParts ? chosen.reduce((sum, i) => sum + sizeOf(i), 0) : undefined);
  let rendered = render(pick(), matched, options, count, itemTokens());
  while (rendered === undefined || rendered.tokens > budget) {
    chosen.pop();
    rendered = render(pick(), matched, options, count, itemTokens());
  }

  const total = String(chosen.length);
  const injected = chosen.map((i, n) => {
    const c = candidates[i] as Candidate;
    return entry(c, fromParts ? () => sizeOf(i) : () => count(itemBlock(c.item, String(n + 1), total)));
  });
  const inBlock = new Set(chosen);
  const left = candidates.flatMap((c, i) => (inBlock.has(i) ? [] : [entry(c, () => sizeOf(i))]));
  const { block, tokens } = rendered;
  const text = mode === 'catalog' ? catalogText(left) : mode === 'hybrid' ? block + catalogText(left) : block;
  return { text, matched, injected, catalog: left, tokens_used: tokens };
}

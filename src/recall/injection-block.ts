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
 * tokens_used is the estimate of the whole block, footer included; it never exceeds the budget.
 * A title or content whose first line starts with `source:` is escaped as `\source:` (see provenance-line.ts).
 */
import type { MemoryItem } from '../types.js';
import { estimateTokens } from './estimate-tokens.js';
import { escapeSourceLine, provenanceLine } from './provenance-line.js';

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
}

const label = (item: MemoryItem) => item.title || item.content.replace(/\s+/g, ' ').trim().slice(0, 80);

function itemBlock(item: MemoryItem, index: string, total: string): string {
  const head = `--- ITEM ${index}/${total} [${item.id} | ${item.type} | ${item.tier} | tags=${item.tags.join(',')}] ---`;
  const source = provenanceLine(item);
  // Trailing blank lines (ingested chunks keep them) would only pad the block.
  const body = escapeSourceLine(`${item.title === '' ? '' : `${item.title}\n`}${item.content.trimEnd()}\n`);
  return `${head}\n${source === undefined ? '' : `${source}\n`}${body}`;
}

function header(matched: number, injected: number | string, budget: number): string {
  return `[ENGRAM_MEMORY format_version=1 type=memory_recall matched=${matched} injected=${injected} budget=${budget}]\n`;
}

const footer = (tokens: number | string) => `[/ENGRAM_MEMORY tokens_used=${tokens}]\n`;

function entry(candidate: Candidate, tokens: number): CatalogEntry {
  const { item, score } = candidate;
  return { id: item.id, title: label(item), type: item.type, tier: item.tier, score, tokens };
}

function catalogText(entries: CatalogEntry[]): string {
  if (entries.length === 0) return '';
  const lines = entries.map((e) => `${e.id} | ${e.type} | ${e.tier} | tokens=${e.tokens} | ${e.title}\n`);
  return `[ENGRAM_CATALOG entries=${entries.length}]\n${lines.join('')}[/ENGRAM_CATALOG]\n`;
}

/** Packs `candidates` (best first) into the budget and renders the output for `mode`. */
export function packRecall(candidates: readonly Candidate[], options: PackOptions): PackedRecall {
  const { budget, mode } = options;
  const matched = candidates.length;
  const wide = '9'.repeat(String(Math.max(1, matched)).length);
  const capacity = budget * 4;
  const frame = options.header ? header(matched, wide, budget).length + footer('9'.repeat(String(budget).length)).length : 0;

  const chosen: Candidate[] = [];
  const left: CatalogEntry[] = [];
  let used = frame;
  for (const candidate of candidates) {
    // Measured with the widest index numbers, so the rendered block can only be shorter.
    const size = itemBlock(candidate.item, wide, wide).length;
    if (mode !== 'catalog' && used + size <= capacity) {
      chosen.push(candidate);
      used += size;
    } else {
      left.push(entry(candidate, estimateTokens(itemBlock(candidate.item, '1', '1'))));
    }
  }

  const total = String(chosen.length);
  const blocks = chosen.map((c, i) => itemBlock(c.item, String(i + 1), total));
  const injected = chosen.map((c, i) => entry(c, estimateTokens(blocks[i] ?? '')));
  let block = '';
  let tokensUsed = 0;
  if (chosen.length > 0) {
    const body = `${options.header ? header(matched, chosen.length, budget) : ''}${blocks.join('')}`;
    if (options.header) {
      tokensUsed = estimateTokens(body + footer(0));
      tokensUsed = estimateTokens(body + footer(tokensUsed));
      block = body + footer(tokensUsed);
    } else {
      block = body;
      tokensUsed = estimateTokens(body);
    }
  }
  const text = mode === 'catalog' ? catalogText(left) : mode === 'hybrid' ? block + catalogText(left) : block;
  return { text, matched, injected, catalog: left, tokens_used: tokensUsed };
}

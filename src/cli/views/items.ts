/** Text views of the item operations: get, put, list, show, history, delete, the review decisions, links. */
import type { DeleteResult, ListResult, PutResult, ShowResult } from '../../engram.js';
import type { ReviewDecision } from '../../items/governance.js';
import type { MemoryItem, MemoryLink, Revision } from '../../types.js';
import { keyValues } from './key-values.js';
import { itemBlock, itemLine, linkLine, preview } from './item-text.js';
import type { Palette } from './palette.js';

/** `engram get`: one item. */
export interface ItemView {
  item: MemoryItem;
}

/** `engram list`: a page of items, with how many it holds. */
export type ListView = ListResult & { count: number };

/** `engram history ID`: every stored version. */
export interface HistoryView {
  id: string;
  versions: Revision[];
}

/** `engram links ID` and `engram link`: the item's links (`created` for a new one). */
export interface LinksView {
  id: string;
  created?: boolean;
  links: MemoryLink[];
}

export function itemView(d: ItemView, p: Palette): string {
  return itemBlock(d.item, p);
}

export function putView(d: PutResult, p: Palette): string {
  return `${d.action} ${p.id(d.item.id)} v${d.item.version}${
    d.deduplicated ? `  ${p.dim('(the same content was already stored: reinforced)')}` : ''}`;
}

export function listView(d: ListView, p: Palette): string {
  const { items } = d;
  const shown = `${items.length} of ${d.total}${d.offset > 0 ? ` from ${d.offset}` : ''}`;
  return items.length === 0
    ? p.dim('no items')
    : `${items.map((i) => itemLine(i, p)).join('\n')}\n${p.dim(shown)}`;
}

export function showView(d: ShowResult, p: Palette): string {
  const { links, lifecycle: life } = d;
  const halfLife = life.half_life_days === null ? 'never fades' : `half-life ${life.half_life_days.toFixed(1)} d`;
  const since = `${life.age_days.toFixed(1)} days since last use, ${halfLife}`;
  const decay = `\n${p.dim(`decay      ${life.decay.toFixed(3)} (${since})${life.is_stale ? ', stale' : ''}`)}`;
  const footer = `\n\n${p.dim(`revisions  ${d.revisions}`)}${decay}${
    links.length > 0 ? `\n${p.dim('links')}\n${links.map((l) => linkLine(l, p)).join('\n')}` : ''
  }`;
  return itemBlock(d.item, p) + footer;
}

export function historyView(d: HistoryView, p: Palette): string {
  return d.versions
    .map(
      (r) =>
        `${p.bold(`v${r.version}`)}  ${p.dim(r.changed_at)}  ${r.reason}${r.actor ? `  by ${r.actor}` : ''}\n  ${preview(r.item)}`,
    )
    .join('\n');
}

export function deleteView(d: DeleteResult, p: Palette): string {
  return `${d.action} ${p.id(d.id)}${d.removed ? `\n${keyValues({ removed: d.removed }, p)}` : ''}`;
}

export function decisionView(d: ReviewDecision, p: Palette): string {
  return `${d.action} ${p.id(d.id)} v${d.item.version}`;
}

export function linksView(d: LinksView, p: Palette): string {
  return d.links.length === 0 ? p.dim('no links') : d.links.map((l) => linkLine(l, p).trimStart()).join('\n');
}

/** The pieces every item view is built from: one-line summaries, the full block, a link line. */
import type { MemoryItem, MemoryLink } from '../../types.js';
import type { Palette } from './palette.js';

/** The title, else the content, on one line cut to `width`. */
export function preview(item: MemoryItem, width = 72): string {
  const text = (item.title || item.content).replace(/\s+/g, ' ').trim();
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/** Two lines per item: id, tier/type, version, date, address and flags; then the preview. */
export function itemLine(item: MemoryItem, p: Palette): string {
  const address = [item.layer, item.task_id, item.step_id, item.key]
    .filter((v) => v !== null)
    .join('/');
  const flags = `${item.quarantined ? ` ${p.red('[QUARANTINED]')}` : ''}${item.archived ? ` ${p.yellow('[archived]')}` : ''}`;
  return `${p.id(item.id)}  ${item.tier}/${item.type}  v${item.version}  ${p.dim(item.updated_at.slice(0, 19))}${
    address ? `  ${p.dim(address)}` : ''
  }${flags}\n  ${preview(item)}`;
}

/** The item in full: its id, every field that is set, then its content. */
export function itemBlock(item: MemoryItem, p: Palette): string {
  const rows: [string, unknown][] = [
    ['title', item.title || undefined],
    ['type', item.type],
    ['tier', item.tier],
    ['layer', item.layer],
    ['task', item.task_id],
    ['step', item.step_id],
    ['key', item.key],
    ['scope', item.scope],
    ['corpus', item.corpus_id],
    ['tags', item.tags.length > 0 ? item.tags.join(', ') : undefined],
    ['entities', item.entities.length > 0 ? item.entities.join(', ') : undefined],
    ['source', item.source],
    ['provenance', item.provenance === null ? undefined : JSON.stringify(item.provenance)],
    ['confidence', item.confidence],
    ['validation', item.validation],
    ['weight', item.weight],
    ['injectable', item.injectable],
    ['secrecy', item.secrecy],
    ['version', item.version],
    ['usage', item.usage_count],
    ['created', item.created_at],
    ['updated', item.updated_at],
    ['expires', item.expires_at],
    ['archived', item.archived || undefined],
    ['quarantined', item.quarantined || undefined],
  ];
  const meta = rows
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${p.dim(k.padEnd(11))}${String(v)}`)
    .join('\n');
  return `${p.bold(p.id(item.id))}\n${meta}\n\n${item.content}`;
}

/** `  SRC --type--> DST`. */
export function linkLine(link: MemoryLink, p: Palette): string {
  return `  ${p.id(link.src_id)} --${link.type}--> ${p.id(link.dst_id)}`;
}

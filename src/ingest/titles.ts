/**
 * What an ingested chunk is called and typed as: the file name (numbered when the file has several
 * chunks), or with `--format auto` the heading it falls under and the type its path suggests.
 */
import { basename } from 'node:path';
import type { ItemType } from '../types.js';
import type { Chunk } from './chunk.js';
import type { Extracted } from './extract/index.js';

/** A lower-case, dash-separated form of `text` (letters and digits only), for tags. */
export function slug(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '');
}

/** mem-context / RAGIX `--format auto`: the type a path suggests. */
export function typeFromPath(path: string): ItemType {
  const p = path.toLowerCase();
  if (/(^|[/_-])(adrs?|decisions?)([/_.-]|$)/.test(p)) return 'decision';
  if (/(^|[/_-])(todos?|backlog)([/_.-]|$)/.test(p)) return 'todo';
  if (/(^|[/_-])(glossary|definitions?|terminology)([/_.-]|$)/.test(p)) return 'definition';
  if (/(^|[/_-])(constraints?|requirements?|rules)([/_.-]|$)/.test(p)) return 'constraint';
  if (/(^|[/_-])(patterns?|conventions?|guidelines?|style-?guide)([/_.-]|$)/.test(p)) return 'pattern';
  return 'note';
}

const HEADING = /^(?:#{1,6}[ \t]+(.+?)[ \t#]*|(.+)\n(?:=+|-+))$/gm;

/** The last Markdown heading in `text` (ATX or setext). */
function lastHeading(text: string): string | undefined {
  let found: string | undefined;
  for (const m of text.matchAll(HEADING)) found = (m[1] ?? m[2])?.trim();
  return found;
}

/** The title of each chunk of the file shown as `display`. */
export function titles(display: string, chunks: readonly Chunk[], extracted: Extracted, auto: boolean): string[] {
  const name = basename(display);
  const part = (i: number) => (chunks.length > 1 ? ` (${i + 1}/${chunks.length})` : '');
  if (!auto) return chunks.map((_, i) => `${name}${part(i)}`);
  let section = extracted.title;
  return chunks.map((chunk, i) => {
    const first = /^\s*#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(chunk.content.slice(0, 300))?.[1]?.trim();
    const title = first ?? section ?? name;
    section = lastHeading(chunk.content) ?? section;
    return `${title}${first === undefined && title !== name ? ` — ${name}` : ''}${part(i)}`;
  });
}

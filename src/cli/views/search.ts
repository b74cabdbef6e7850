/** Text view of `engram search`: each hit with its score (and its factors with `--explain`). */
import type { SearchHit, SearchResult } from '../../engram.js';
import { itemLine } from './item-text.js';
import type { Palette } from './palette.js';

function factors(hit: SearchHit): string {
  return hit.explain === undefined ? '' : `  ${Object.entries(hit.explain).map(([k, v]) => `${k}=${v}`).join(' ')}`;
}

export function searchView(d: SearchResult, p: Palette): string {
  const { items } = d;
  if (items.length === 0) return p.dim('no matches');
  const lines = items.map((i) => `${itemLine(i, p)}\n  ${p.dim(`score ${i.score}${factors(i)}`)}`);
  const how = d.mode === 'lexical' ? `${d.stage}${d.fts ? '' : ', LIKE'}` : d.mode === 'semantic' ? 'semantic' : `hybrid, lexical ${d.stage}`;
  return `${lines.join('\n')}\n${p.dim(`${items.length} match${items.length === 1 ? '' : 'es'} (${how})`)}`;
}

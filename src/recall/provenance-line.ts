/**
 * The provenance line of a recalled chunk: `source: docs/guide.md lines 12-40`, the first line of
 * an item's body in the injection block. It is derived from the item's provenance (the path
 * relative to the directory it was ingested from, and its line range), never from its text; a
 * title or content whose first line could pass for one is escaped with a leading backslash
 * (escape-block.ts), so the line after an item header starts with `source:` only when engram
 * wrote it. Pure.
 */
import type { MemoryItem } from '../types.js';
import { unicodePattern } from '../util/unicode-pattern.js';

/** Line breaks, control and format characters: a path must stay on its one line, visibly. */
const UNPRINTABLE = unicodePattern('[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]', 'gu');

function lineNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * The `source: PATH lines A-B` line for an item with a path and a line range in its provenance;
 * undefined for anything else (a memory written with `put`).
 *
 * @example
 * provenanceLine({ ...item, provenance: { relative_path: 'guide.md', line_start: 3, line_end: 9 } });
 * // 'source: guide.md lines 3-9'
 */
export function provenanceLine(item: MemoryItem): string | undefined {
  const p = item.provenance;
  const path = typeof p?.relative_path === 'string' ? p.relative_path : p?.source_path;
  const start = lineNumber(p?.line_start);
  const end = lineNumber(p?.line_end);
  if (typeof path !== 'string' || path.trim() === '' || start === undefined || end === undefined) return undefined;
  return `source: ${path.replace(UNPRINTABLE(path), '?')} lines ${start}-${end}`;
}

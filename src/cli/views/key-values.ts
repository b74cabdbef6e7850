/**
 * A result as aligned `name value` lines, nested objects indented below their name; its `errors`
 * are left to the view (import lists them one per line).
 */
import type { Palette } from './palette.js';

/** Renders every field of `data` but `errors`. */
export function keyValues(data: object, p: Palette): string {
  return Object.entries(data)
    .filter(([k]) => k !== 'errors')
    .map(([k, v]: [string, unknown]) => {
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
        const inner = Object.entries(v)
          .map(([ik, iv]: [string, unknown]) => `  ${ik}: ${String(iv)}`)
          .join('\n');
        return `${p.dim(k)}\n${inner || '  (none)'}`;
      }
      return `${p.dim(k.padEnd(16))}${Array.isArray(v) ? v.join(', ') : String(v)}`;
    })
    .join('\n');
}

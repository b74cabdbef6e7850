/**
 * Links between records of one SQLite source, by source id: the source's relation names mapped
 * onto engram's link types, and links to records that are not imported reported, not kept.
 */
import { LINK_TYPES, type LinkType } from '../../types.js';
import type { SourceLink, Unmapped } from '../source.js';

/** Relations (memctl's `refines`, …) that have an engram link type under another name. */
const REL_ALIASES: Readonly<Record<string, LinkType>> = { refines: 'derived_from', derives_from: 'derived_from' };

/** An engram link type for a source's relation; `exact` is false when it fell back to `related`. */
export function linkTypeOf(rel: string): { type: LinkType; exact: boolean } {
  const lower = rel.trim().toLowerCase();
  if ((LINK_TYPES as readonly string[]).includes(lower)) return { type: lower as LinkType, exact: true };
  const alias = REL_ALIASES[lower];
  return alias === undefined ? { type: 'related', exact: false } : { type: alias, exact: true };
}

/** The engram links of one item; links to items that are not imported are reported. */
export function linksOf(
  id: string,
  raw: readonly { to: string; rel: string }[],
  /** Why a target is not imported (missing, archived), or undefined when it is. */
  absent: (id: string) => string | undefined,
  notes: Unmapped[],
): SourceLink[] {
  const out: SourceLink[] = [];
  for (const { to, rel } of raw) {
    const why = to === id ? 'is the record itself' : absent(to);
    if (why !== undefined) {
      notes.push({ where: id, field: 'links', reason: `${rel} link to ${to}, which ${why}; left out` });
      continue;
    }
    const { type, exact } = linkTypeOf(rel);
    if (!exact) notes.push({ where: id, field: 'links', reason: `relation '${rel}' to ${to} has no engram type; kept as related` });
    if (!out.some((l) => l.to === to && l.type === type)) out.push({ to, type });
  }
  return out;
}
